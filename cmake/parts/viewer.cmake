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
set(VS_LIB_SDL2 PkgConfig::SDL2)
vs_layer(viewer)

vs_module(view LIBS vs_viewer)
