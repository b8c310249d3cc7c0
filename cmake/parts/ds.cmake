# SPDX-License-Identifier: Zlib
# ds.cmake - the DS emulator driver (src/console/ds) and the ds module
# (vramsim record|capture GAME.nds). Always built: the emulator, Debian's
# libretro-desmume, is loaded with dlopen when a DS command runs, so
# nothing of it is needed here; without it the commands say which package
# to install and exit 2. $VRAMSIM_DESMUME_CORE overrides the path.
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(VS_DS_CORE_DEFAULT "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libretro/desmume_libretro.so"
    CACHE STRING "Where the DeSmuME libretro core is loaded from")
else()
  set(VS_DS_CORE_DEFAULT "/usr/lib/libretro/desmume_libretro.so"
    CACHE STRING "Where the DeSmuME libretro core is loaded from")
endif()
vs_layer(console_ds)
target_compile_definitions(vs_console_ds PRIVATE VS_DS_CORE_DEFAULT="${VS_DS_CORE_DEFAULT}")
vs_module(ds LIBS vs_console_ds)

# What a DS frame costs (docs/capture.md, "The DS emulator"): run by hand,
# never by ctest: build/vs_ds_bench GAME.nds [FRAMES]
add_executable(vs_ds_bench ${PROJECT_SOURCE_DIR}/tools/ds_bench.c)
target_include_directories(vs_ds_bench PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(vs_ds_bench PRIVATE vs_console_ds vs_sim vs_flags)
