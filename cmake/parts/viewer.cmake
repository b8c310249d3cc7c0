# SPDX-License-Identifier: Zlib
# viewer.cmake - the live viewer (src/viewer, SDL2) and the view module that
# runs it (vramsim view). Optional: without SDL2 (or with
# VS_WITH_VIEWER=OFF) there is no module and `vramsim view` says what to
# install. The viewer draws text in the renderer's bitmap font: no SDL2_ttf.
vs_optional_package(SDL2 sdl2 VS_WITH_VIEWER
  "no view module; `vramsim view` says so and exits 2. Install libsdl2-dev.")
if(NOT VS_HAVE_SDL2)
  return()
endif()

# A library, so tests drive the viewer without the command line.
file(GLOB _src CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/viewer/*.c)
add_library(vs_viewer STATIC ${_src})
target_compile_options(vs_viewer PRIVATE ${VS_WARN})
target_link_libraries(vs_viewer PUBLIC vs_render PkgConfig::SDL2)

vs_module(view SOURCES ${VS_VIEW_MODULE_SOURCES} LIBS vs_viewer)
# cmd_view.c holds the command only where the viewer is built.
target_compile_definitions(vs_module_view PRIVATE VS_HAVE_VIEWER=1)
