# SPDX-License-Identifier: Zlib
# install.cmake - `cmake --install BUILD --prefix P` installs vramsim and
# its modules (CMakeLists.txt, vs_module), and include/vramsim/ by audience,
# never the simulator's internal headers (src/):
#   what a game includes: lib/libvramsim-alloc.a and
#     include/vramsim/{alloc/*.h,record.h,sprite_handles.h}  host builds:
#     pkg-config vramsim-alloc, or find_package(vramsim) -> vramsim::alloc
#   what a plug-in includes: include/vramsim/{strategy,arena,request}.h
#     (docs/strategy-api.md): pkg-config vramsim-plugin, or
#     find_package(vramsim) -> vramsim::plugin
#   share/vramsim/alloc/{src,include}  the sources with their headers, for a
#     console build with its own compiler; a folder of its own because adding
#     PREFIX/include to a cross compile can shadow the compiler's headers
#     with the host's (PREFIX=/usr)
# Paths in the installed files are relative, so the tree can be moved.
include(CMakePackageConfigHelpers)

install(TARGETS vramsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(VS_ALLOC_HEADERS ${PROJECT_SOURCE_DIR}/include/vramsim/record.h
  ${PROJECT_SOURCE_DIR}/include/vramsim/sprite_handles.h)
set(VS_PLUGIN_HEADERS ${PROJECT_SOURCE_DIR}/include/vramsim/strategy.h
  ${PROJECT_SOURCE_DIR}/include/vramsim/arena.h ${PROJECT_SOURCE_DIR}/include/vramsim/request.h)
install(FILES ${VS_PLUGIN_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vramsim)
add_library(vs_plugin_api INTERFACE)
target_include_directories(vs_plugin_api INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(vs_plugin_api PROPERTIES EXPORT_NAME plugin)
install(TARGETS vs_plugin_api EXPORT vramsim-targets)
file(GLOB _h CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/vramsim/alloc/*.h)
set(VS_ALLOC_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/vramsim/alloc)
foreach(inc ${CMAKE_INSTALL_INCLUDEDIR} ${VS_ALLOC_SHARE_DIR}/include)
  install(FILES ${VS_ALLOC_HEADERS} DESTINATION ${inc}/vramsim)
  install(FILES ${_h} DESTINATION ${inc}/vramsim/alloc)
endforeach()
install(FILES ${VS_ALLOC_SOURCES} DESTINATION ${VS_ALLOC_SHARE_DIR}/src)

install(TARGETS vs_alloc EXPORT vramsim-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# pkg-config: the prefix from where the .pc file lies (${pcfiledir}).
set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH VS_PC_PREFIX ${CMAKE_INSTALL_PREFIX}/${_pcdir} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" VS_PC_PREFIX ${VS_PC_PREFIX})
foreach(pc vramsim-alloc vramsim-plugin)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/install/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${_pcdir})
endforeach()

# CMake: find_package(vramsim) gives vramsim::alloc and
# vramsim_ALLOC_SOURCE_DIR / vramsim_ALLOC_INCLUDE_DIR (the share/ copy).
set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/vramsim)
install(EXPORT vramsim-targets NAMESPACE vramsim:: DESTINATION ${_cmakedir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/install/vramsim-config.cmake.in
  ${PROJECT_BINARY_DIR}/vramsim-config.cmake INSTALL_DESTINATION ${_cmakedir}
  PATH_VARS VS_ALLOC_SHARE_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vramsim-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vramsim-config.cmake ${PROJECT_BINARY_DIR}/vramsim-config-version.cmake
  DESTINATION ${_cmakedir})
