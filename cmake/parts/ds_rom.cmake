# SPDX-License-Identifier: Zlib
# ds_rom.cmake - the Nintendo DS programs of our own (src/console/ds/rom),
# built from source with arm-none-eabi-gcc: the ARM9 side for the
# ARM946E-S, a minimal ARM7 side for the ARM7TDMI, packed into a .nds by
# vs_ndspack (tools/ndspack.c). No devkitPro, no libnds.
#
# Optional: without arm-none-eabi-gcc no DS ROM is built (the tests that
# run it say SKIPPED). VS_WITH_DS=OFF, where defined, builds as if it were
# missing.
if(DEFINED VS_WITH_DS AND NOT VS_WITH_DS)
  message(STATUS "VS_WITH_DS=OFF: the DS demo ROM is not built")
  return()
endif()
find_program(VS_ARM_GCC arm-none-eabi-gcc)
find_program(VS_ARM_OBJCOPY arm-none-eabi-objcopy)
if(NOT VS_ARM_GCC OR NOT VS_ARM_OBJCOPY)
  message(WARNING "arm-none-eabi-gcc/objcopy not found: the DS demo ROM is not built. Install gcc-arm-none-eabi.")
  return()
endif()

set(VS_DS_OPT -O2 CACHE STRING "Optimisation flag for DS target code")
set(VS_DS_SRC ${PROJECT_SOURCE_DIR}/src/console/ds/rom)
vs_layer_root(ds_rom VS_DS_ROOT _vs_ds_rom_src)
set(VS_DS_OUT ${PROJECT_BINARY_DIR}/ds)
file(MAKE_DIRECTORY ${VS_DS_OUT}/obj)
set(VS_DS_DEMO_ROM ${VS_DS_OUT}/demo.nds)
# Building the DS driver builds the demo and the cycles program, as the GBA's
# does its ROMs: the tests that run them link the driver. The ds module finds
# the cycles program in ds/ beside itself: in the build tree and installed
# (lib/vramsim/); programs linking the driver in the build tree (tests) at
# the build tree's path. VRAMSIM_DS_ROM_DIR overrides both.
install(FILES ${VS_DS_OUT}/cycles.nds DESTINATION ${VS_MODULE_INSTALL_DIR}/ds)
if(TARGET vs_console_ds)
  target_compile_definitions(vs_console_ds PRIVATE VS_DS_ROM_DIR="${VS_DS_OUT}")
  add_dependencies(vs_console_ds vs_ds_rom_demo vs_ds_rom_cycles)
endif()
# The host tool that writes the cartridge header and packs both binaries.
add_executable(vs_ndspack ${PROJECT_SOURCE_DIR}/tools/ndspack.c)
target_link_libraries(vs_ndspack PRIVATE vs_sim vs_flags)
if(VS_ROMS_FROM)
  vs_roms_from(ds vs_ds_roms)
  add_custom_target(vs_ds_rom_demo DEPENDS vs_ds_roms)
  add_custom_target(vs_ds_rom_cycles DEPENDS vs_ds_roms)
  return()
endif()
execute_process(COMMAND ${VS_ARM_GCC} -print-file-name=include
  OUTPUT_VARIABLE _vs_arm_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
# The ARM9 runs ARM code from main RAM (Thumb saves little there and the
# ARM946E-S runs ARM faster); the ARM7 side is assembly only.
set(VS_DS9_CFLAGS -mcpu=arm946e-s -marm -std=c99 -ffreestanding ${VS_DS_OPT} -g
  -Wall -Wextra -Werror -nostdinc -isystem ${_vs_arm_inc}
  -I${PROJECT_SOURCE_DIR}/include -I${VS_DS_ROOT} -I${VS_DS_SRC}
  -ffunction-sections -fdata-sections)
set(VS_DS7_CFLAGS -mcpu=arm7tdmi -marm -Wall -Werror)
file(GLOB _vs_ds_headers CONFIGURE_DEPENDS ${VS_DS_SRC}/*.h
  ${PROJECT_SOURCE_DIR}/include/vramsim/*.h ${PROJECT_SOURCE_DIR}/include/vramsim/alloc/*.h
  ${PROJECT_SOURCE_DIR}/src/console/common/rom/*.h)


# vs_ds_object(<out var> <source> <object name> <flags...>)
function(vs_ds_object var src obj)
  set(out ${VS_DS_OUT}/obj/${obj})
  add_custom_command(OUTPUT ${out}
    COMMAND ${VS_ARM_GCC} ${ARGN} -c ${src} -o ${out}
    DEPENDS ${src} ${_vs_ds_headers}
    COMMENT "DS: ${obj}" VERBATIM)
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# vs_ds_binary(<out var> <name> <cpu> <linker script> <objects...>): links
# ds/<name>.elf and copies its loaded bytes to ds/<name>.bin.
function(vs_ds_binary var name cpu script)
  set(elf ${VS_DS_OUT}/${name}.elf)
  set(bin ${VS_DS_OUT}/${name}.bin)
  add_custom_command(OUTPUT ${bin}
    COMMAND ${VS_ARM_GCC} -mcpu=${cpu} -nostartfiles -nostdlib -T ${script}
            -Wl,--gc-sections -Wl,-Map=${VS_DS_OUT}/${name}.map ${ARGN} -lgcc -o ${elf}
    COMMAND ${VS_ARM_OBJCOPY} -O binary ${elf} ${bin}
    DEPENDS ${ARGN} ${script}
    COMMENT "DS: ${name}.bin" VERBATIM)
  set(${var} ${bin} PARENT_SCOPE)
endfunction()

# The ARM7 side every DS program shares: wait for VBlank for ever.
vs_ds_object(_ds_crt7 ${VS_DS_SRC}/crt7.S crt7.o ${VS_DS7_CFLAGS})
vs_ds_binary(VS_DS_ARM7_BIN arm7 arm7tdmi ${VS_DS_SRC}/ds7.ld ${_ds_crt7})

# The ARM9 runtime: start-up code, and the GBA programs' memcpy/memset
# (the same freestanding C, built for the ARM946E-S).
vs_ds_object(_ds_crt9 ${VS_DS_SRC}/crt9.S crt9.o ${VS_DS9_CFLAGS})
vs_ds_object(_ds_rt ${PROJECT_SOURCE_DIR}/src/console/gba/rom/rt.c rt.o ${VS_DS9_CFLAGS}
  -fno-tree-loop-distribute-patterns)

# vs_ds_rom(<name> <title> <game code> <ARM9 objects...>): ds/<name>.nds.
function(vs_ds_rom name title code)
  vs_ds_binary(arm9 ${name}-arm9 arm946e-s ${VS_DS_SRC}/ds9.ld ${_ds_crt9} ${_ds_rt} ${ARGN})
  set(rom ${VS_DS_OUT}/${name}.nds)
  add_custom_command(OUTPUT ${rom}
    COMMAND vs_ndspack ${rom} ${title} ${code} ${arm9} 0x02000000 ${VS_DS_ARM7_BIN} 0x037F8000
    DEPENDS vs_ndspack ${arm9} ${VS_DS_ARM7_BIN}
    COMMENT "DS: ${name}.nds" VERBATIM)
  add_custom_target(vs_ds_rom_${name} ALL DEPENDS ${rom})
endfunction()

# The demo (ds_demo.c; its timeline in docs/ds.md): tests/test_ds_rom
# checks its header, the DS record and capture tests run it.
vs_ds_object(_ds_demo ${VS_DS_SRC}/ds_demo.c ds_demo.o ${VS_DS9_CFLAGS})
set(_ds_demo_objs ${_ds_demo})
foreach(a libnds_sprite gba_obj_first_fit nns_gfd nns_lnk nns_lnk_tex nns_lnk_pltt nns_frm_tex nns_frm_pltt)
  vs_ds_object(o ${PROJECT_SOURCE_DIR}/src/alloc/${a}.c ${a}.o ${VS_DS9_CFLAGS})
  list(APPEND _ds_demo_objs ${o})
endforeach()
vs_ds_rom(demo VRAMSIM-DEMO VSDM ${_ds_demo_objs})

# The cycles program (ds_cycles9.c, protocol src/console/ds/ds_cycles.h):
# `vramsim cycles` of a DS trace replays the host's allocator calls in it.
# It carries the DS strategies' allocators that the demo does not build.
list(APPEND _vs_ds_headers ${PROJECT_SOURCE_DIR}/src/console/ds/ds_cycles.h
  ${PROJECT_SOURCE_DIR}/src/console/common/cycles_proto.h)
vs_ds_object(_ds_cycles ${VS_DS_SRC}/ds_cycles9.c ds_cycles9.o ${VS_DS9_CFLAGS})
set(_ds_cycles_objs ${_ds_cycles})
foreach(a libnds_sprite nns_gfd nns_lnk nns_lnk_tex nns_lnk_pltt nns_frm_tex nns_frm_pltt)
  list(APPEND _ds_cycles_objs ${VS_DS_OUT}/obj/${a}.o)
endforeach()
foreach(a ds_tex_pair ds_pltt_split nitro_engine_alloc nitro_engine_vram nflib_sprite libnds_gl libnds_vram_block)
  vs_ds_object(o ${PROJECT_SOURCE_DIR}/src/alloc/${a}.c ${a}.o ${VS_DS9_CFLAGS})
  list(APPEND _ds_cycles_objs ${o})
endforeach()
vs_ds_rom(cycles VS-CYCLES VSCY ${_ds_cycles_objs})
