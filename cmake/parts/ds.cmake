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
