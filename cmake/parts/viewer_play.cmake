# SPDX-License-Identifier: Zlib
# viewer_play.cmake - `vramsim play` (docs/play.md): a GBA game in libmgba
# beside the viewer's live maps. The session (src/play: the emulator, the
# live capture, the keys) needs libmgba; the play module (src/cli/play) the
# viewer too. Named to come after viewer.cmake and gba_rom.cmake, whose
# layers it uses. Without either, `vramsim play` says what to install.
if(NOT TARGET vs_console_gba)
  return()
endif()
vs_layer(play)
if(NOT TARGET vs_viewer)
  return()
endif()
vs_module(play LIBS vs_viewer vs_play PkgConfig::SDL2)

