# SPDX-License-Identifier: Zlib
# gba_rom.cmake - the on-target side: GBA ROMs built from the same allocator
# sources with arm-none-eabi-gcc, and the gba module (vramsim cycles,
# vramsim record) with the libmgba driver that runs them.
#
# Both are optional and independent: without libmgba there is no gba module
# (the commands say what to install), without arm-none-eabi-gcc no ROMs
# (record still runs a game's own ROM). vramsim builds either way.
# VS_WITH_GBA=OFF (CMakeLists.txt) builds as if neither were installed.

# ---- libmgba (no pkg-config file: find the header and the library) ----
if(VS_WITH_GBA)
  find_path(VS_MGBA_INCLUDE_DIR mgba/core/core.h)
  find_library(VS_MGBA_LIBRARY mgba)
endif()
if(VS_WITH_GBA AND VS_MGBA_INCLUDE_DIR AND VS_MGBA_LIBRARY)
  message(STATUS "libmgba: ${VS_MGBA_LIBRARY}")
  # The host side of the on-target work, for the module and the tests that
  # run the emulator (their sources include console/gba/gba_emu.h).
  # The driver loads libmgba with dlopen when the first emulator opens
  # (gba_emu.c): by its SONAME, which the runtime package installs.
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${VS_MGBA_LIBRARY} OUTPUT_VARIABLE _vs_mgba_dyn ERROR_QUIET)
  if(_vs_mgba_dyn MATCHES "SONAME +([^\n]+)")
    set(_vs_mgba_soname ${CMAKE_MATCH_1})
  else()
    get_filename_component(_vs_mgba_soname ${VS_MGBA_LIBRARY} REALPATH)
  endif()
  set(VS_LIB_libmgba "")
  vs_layer(console_gba)
  target_include_directories(vs_console_gba SYSTEM PRIVATE ${VS_MGBA_INCLUDE_DIR})
  target_compile_definitions(vs_console_gba PRIVATE VS_MGBA_SONAME="${_vs_mgba_soname}")
  vs_module(gba LIBS vs_console_gba)
  # What capture costs over the bare emulation (docs/capture.md, "Cost"): run
  # by hand, never by ctest: build/vs_gba_bench GAME.gba [FRAMES] [ROUNDS]
  add_executable(vs_gba_bench ${PROJECT_SOURCE_DIR}/tools/gba_bench.c)
  target_include_directories(vs_gba_bench PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(vs_gba_bench PRIVATE vs_console_gba vs_sim vs_flags)
else()
  message(WARNING "libmgba not found (mgba/core/core.h, libmgba) or VS_WITH_GBA=OFF: no gba module; "
                  "`vramsim cycles` and `vramsim record` say so and exit 2. Install libmgba-dev.")
endif()

# ---- GBA ROMs --------------------------------------------------------
if(VS_WITH_GBA)
  find_program(VS_ARM_GCC arm-none-eabi-gcc)
  find_program(VS_ARM_OBJCOPY arm-none-eabi-objcopy)
endif()
if(NOT VS_WITH_GBA OR NOT VS_ARM_GCC OR NOT VS_ARM_OBJCOPY)
  message(WARNING "arm-none-eabi-gcc/objcopy not found or VS_WITH_GBA=OFF: the GBA ROMs are not built; "
                  "`vramsim cycles` has nothing to run. Install gcc-arm-none-eabi.")
  return()
endif()

# ROM wait states (WAITCNT) and optimisation of the target code; the cycles
# output states the WAITCNT the program ran with.
set(VS_GBA_WAITCNT 0x4317 CACHE STRING "WAITCNT the GBA programs set at start-up")
set(VS_GBA_OPT -O2 CACHE STRING "Optimisation flag for GBA target code")

set(VS_GBA_SRC ${PROJECT_SOURCE_DIR}/src/console/gba/rom)
# The ROM side sees the installed headers and the layers cmake/layers.cmake
# lets it use (the cycles protocol's header), as every layer does.
vs_layer_root(gba_rom VS_GBA_ROOT _vs_gba_rom_src)
set(VS_GBA_OUT ${PROJECT_BINARY_DIR}/gba)
file(MAKE_DIRECTORY ${VS_GBA_OUT})
# The gba module finds the cycles ROMs in gba/ beside itself: in the build
# tree (both at its top) and installed (lib/vramsim/). Programs linking the
# driver in the build tree (tests) find them at the build tree's path.
# VRAMSIM_GBA_ROM_DIR overrides both.
install(FILES ${VS_GBA_OUT}/cycles-thumb.gba ${VS_GBA_OUT}/cycles-arm.gba
  DESTINATION ${VS_MODULE_INSTALL_DIR}/gba)
if(TARGET vs_console_gba)
  target_compile_definitions(vs_console_gba PRIVATE VS_GBA_ROM_DIR="${VS_GBA_OUT}")
  add_dependencies(vs_console_gba vs_gba_roms)
endif()
if(VS_ROMS_FROM)
  vs_roms_from(gba vs_gba_roms)
  return()
endif()
execute_process(COMMAND ${VS_ARM_GCC} -print-file-name=include
  OUTPUT_VARIABLE _vs_arm_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
set(VS_GBA_CFLAGS -mcpu=arm7tdmi -std=c99 -ffreestanding ${VS_GBA_OPT} -g
  -Wall -Wextra -Werror -nostdinc -isystem ${_vs_arm_inc}
  -I${PROJECT_SOURCE_DIR}/include -I${VS_GBA_ROOT} -I${VS_GBA_SRC}
  -DGBA_BG_TILES_ROM_MAX=4096u -DGBA_BG_SPLIT_ROM_MAX=4096u
  -ffunction-sections -fdata-sections)
file(GLOB _vs_gba_headers CONFIGURE_DEPENDS ${VS_GBA_SRC}/*.h ${PROJECT_SOURCE_DIR}/tools/demo-rom/*.h
  ${PROJECT_SOURCE_DIR}/include/vramsim/*.h ${PROJECT_SOURCE_DIR}/include/vramsim/alloc/*.h
  ${PROJECT_SOURCE_DIR}/src/console/gba/gba_cycles.h ${PROJECT_SOURCE_DIR}/src/console/common/cycles_proto.h
  ${PROJECT_SOURCE_DIR}/src/console/common/rom/*.h)

# vs_gba_object(<out var> <source> <object name> <flags...>)
function(vs_gba_object var src obj)
  set(out ${VS_GBA_OUT}/obj/${obj})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${VS_GBA_OUT}/obj
    COMMAND ${VS_ARM_GCC} ${VS_GBA_CFLAGS} ${ARGN} -c ${src} -o ${out}
    DEPENDS ${src} ${_vs_gba_headers}
    COMMENT "GBA: ${obj}" VERBATIM)
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# vs_gba_rom(<name> <objects...>): links objects with the runtime into
# gba/<name>.elf and gba/<name>.gba.
function(vs_gba_rom name)
  set(elf ${VS_GBA_OUT}/${name}.elf)
  set(rom ${VS_GBA_OUT}/${name}.gba)
  add_custom_command(OUTPUT ${rom}
    COMMAND ${VS_ARM_GCC} -mcpu=arm7tdmi -nostartfiles -nostdlib -T ${VS_GBA_SRC}/gba.ld
            -Wl,--gc-sections -Wl,-Map=${VS_GBA_OUT}/${name}.map
            ${VS_GBA_RUNTIME} ${ARGN} -lgcc -o ${elf}
    COMMAND ${VS_ARM_OBJCOPY} -O binary ${elf} ${rom}
    DEPENDS ${VS_GBA_RUNTIME} ${ARGN} ${VS_GBA_SRC}/gba.ld
    COMMENT "GBA: ${name}.gba" VERBATIM)
  set_property(GLOBAL APPEND PROPERTY VS_GBA_ROMS ${rom})
endfunction()

# The runtime: start-up code with the cartridge header, and memcpy/memset.
vs_gba_object(_crt0 ${VS_GBA_SRC}/crt0.S crt0.o -DVS_GBA_WAITCNT=${VS_GBA_WAITCNT})
vs_gba_object(_rt ${VS_GBA_SRC}/rt.c rt.o -mthumb -fno-tree-loop-distribute-patterns)
set(VS_GBA_RUNTIME ${_crt0} ${_rt})

# Allocator code the cycles program carries, built twice: Thumb in ROM (the
# default a game gets) and ARM in IWRAM (objects named *.iwram.o, which the
# linker script places there). cycles_noop.c is built the same way: it is
# what the timing overhead is measured with.
set(VS_GBA_CYCLES_ALLOC
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_map.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_first_fit.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_best_fit.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_buddy.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_snug.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_ends.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_obj_compact.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_bg_tiles.c
  ${PROJECT_SOURCE_DIR}/src/alloc/gba_bg_tiles_split.c
  ${PROJECT_SOURCE_DIR}/src/alloc/butano_sprite_tiles.c
  ${PROJECT_SOURCE_DIR}/src/alloc/butano_bg_blocks.c
  ${VS_GBA_SRC}/cycles_noop.c)
set(_thumb_objs)
set(_arm_objs)
foreach(src ${VS_GBA_CYCLES_ALLOC})
  get_filename_component(n ${src} NAME_WE)
  vs_gba_object(o ${src} ${n}.o -mthumb)
  list(APPEND _thumb_objs ${o})
  vs_gba_object(o ${src} ${n}.iwram.o -marm)
  list(APPEND _arm_objs ${o})
endforeach()
vs_gba_object(_cyc_thumb ${VS_GBA_SRC}/cycles.c cycles-thumb.o -mthumb -DVS_GBA_CODE=0)
vs_gba_object(_cyc_arm ${VS_GBA_SRC}/cycles.c cycles-arm.o -mthumb -DVS_GBA_CODE=1)
vs_gba_rom(cycles-thumb ${_cyc_thumb} ${_thumb_objs})
vs_gba_rom(cycles-arm ${_cyc_arm} ${_arm_objs})
# A deliberately wrong cycles ROM (gba-obj-map answers one block off) in
# gba/skew/: test_cli_gba points VRAMSIM_GBA_ROM_DIR there to prove that
# `vramsim cycles` catches placements that differ from the host's.
file(MAKE_DIRECTORY ${VS_GBA_OUT}/skew)
vs_gba_object(_cyc_skew ${VS_GBA_SRC}/cycles.c cycles-skew.o -mthumb -DVS_GBA_CODE=0 -DVS_GBA_CYCLES_SKEW=1u)
vs_gba_rom(skew/cycles-thumb ${_cyc_skew} ${_thumb_objs})

get_property(_vs_roms GLOBAL PROPERTY VS_GBA_ROMS)
add_custom_target(vs_gba_roms ALL DEPENDS ${_vs_roms})

# The demo ROM (tools/demo-rom): a scripted side-scroller with sprites that
# records its own trace with include/vramsim/record.h (OBJ allocation map and
# BG tile manager); test_gba_emu_record uses it.
vs_gba_object(_demo ${PROJECT_SOURCE_DIR}/tools/demo-rom/demo.c demo.o -mthumb)
# its allocators are the cycles program's Thumb objects (the same flags)
vs_gba_rom(demo ${_demo} ${VS_GBA_OUT}/obj/gba_obj_map.o ${VS_GBA_OUT}/obj/gba_bg_tiles.o
  ${VS_GBA_OUT}/obj/gba_obj_compact.o)
add_custom_target(vs_gba_demo_rom ALL DEPENDS ${VS_GBA_OUT}/demo.gba)
if(TARGET vs_console_gba)
  add_dependencies(vs_console_gba vs_gba_demo_rom)
endif()

# The capture-cases ROM (tools/capture-rom): a fixed script of scenes, each
# one hard case of `vramsim capture` at known frames; test_gba_capture
# captures it and checks each against capture_cases.h.
list(APPEND _vs_gba_headers ${PROJECT_SOURCE_DIR}/tools/capture-rom/capture_cases.h)
vs_gba_object(_capcases ${PROJECT_SOURCE_DIR}/tools/capture-rom/capture_cases.c capture_cases.o -mthumb)
vs_gba_rom(capture-cases ${_capcases})
add_custom_target(vs_gba_capture_rom ALL DEPENDS ${VS_GBA_OUT}/capture-cases.gba)
if(TARGET vs_console_gba)
  add_dependencies(vs_console_gba vs_gba_capture_rom)
endif()
