# SPDX-License-Identifier: Zlib
# homebrew.cmake - `vramsim capture` on GBA or DS ROMs nobody on the project
# wrote, run by ctest as capture_homebrew (GBA: $VRAMSIM_HOMEBREW_DIR) and
# capture_homebrew_ds (DS: $VRAMSIM_DS_HOMEBREW_DIR) when the variable names
# a folder of them (ROMs are never committed: docs/capture.md says where the
# ones we use come from). For every NAME.gba (NAME.nds with -DEXT=nds) there,
# with NAME.input as its input script when present:
#  - capture 1800 frames: exit 0, a trace;
#  - `compare` on it: exit 0, so the game's own placement (recorded) and
#    every strategy that takes the arenas replay with no integrity error.
# Without the variable the test says so, and ctest reports it skipped
# (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt).
# ctest runs it as SHARDS tests, NAME.SHARD, each taking every SHARDS-th ROM
# from the SHARD-th (about 2 s of CPU a GBA ROM, 10 to 25 s a DS one: a
# folder of 18 would take too long for one test's timeout).
# VRAMSIM, OUT, SHARD, SHARDS; EXT (gba, the default, or nds).
if(NOT DEFINED EXT)
  set(EXT gba)
endif()
if(EXT STREQUAL "nds")
  set(var VRAMSIM_DS_HOMEBREW_DIR)
  set(test capture_homebrew_ds)
  set(what "DS ROMs")
else()
  set(var VRAMSIM_HOMEBREW_DIR)
  set(test capture_homebrew)
  set(what "GBA ROMs")
endif()
if(NOT DEFINED ENV{${var}})
  message(STATUS "${test}: skipped: set ${var} to a folder of ${what} to run it")
  return()
endif()
file(GLOB roms "$ENV{${var}}/*.${EXT}")
if(NOT roms)
  message(FATAL_ERROR "${test}: no .${EXT} file in $ENV{${var}}")
endif()
file(MAKE_DIRECTORY ${OUT})
set(failed 0)
set(index 0)
set(mine 0)
foreach(rom ${roms})
  math(EXPR shard "${index} % ${SHARDS}")
  math(EXPR index "${index} + 1")
  if(NOT shard EQUAL SHARD)
    continue()
  endif()
  math(EXPR mine "${mine} + 1")
  get_filename_component(name ${rom} NAME_WE)
  get_filename_component(dir ${rom} DIRECTORY)
  set(trace ${OUT}/${name}.trace)
  set(input)
  if(EXISTS ${dir}/${name}.input)
    set(input --input ${dir}/${name}.input)
  endif()
  execute_process(COMMAND ${VRAMSIM} capture ${rom} --frames 1800 ${input} -o ${trace} --quiet
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(STATUS "FAIL ${name}: capture exit ${rc}: ${err}")
    math(EXPR failed "${failed}+1")
    continue()
  endif()
  execute_process(COMMAND ${VRAMSIM} compare ${trace} --no-timing
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(STATUS "FAIL ${name}: compare exit ${rc}:\n${out}${err}")
    math(EXPR failed "${failed}+1")
  else()
    message(STATUS "ok ${name}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "${test}: ${failed} ROMs failed")
endif()
if(mine EQUAL 0)
  message(STATUS "${test}: skipped: no ROM falls to shard ${SHARD} of ${SHARDS}")
endif()
