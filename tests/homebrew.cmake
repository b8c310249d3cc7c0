# SPDX-License-Identifier: Zlib
# homebrew.cmake - `vramsim capture` on GBA ROMs nobody on the project
# wrote, run by ctest as capture_homebrew when $VRAMSIM_HOMEBREW_DIR names a
# folder of them (ROMs are never committed: docs/capture.md says where the
# ones we use come from). For every NAME.gba there, with NAME.input as its
# input script when present:
#  - capture 1800 frames: exit 0, a trace;
#  - `compare` on it: exit 0, so the game's own placement (recorded) and
#    every strategy that takes the arenas replay with no integrity error.
# Without the variable the test says so, and ctest reports it skipped
# (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt).
# ctest runs it as SHARDS tests, capture_homebrew.SHARD, each taking every
# SHARDS-th ROM from the SHARD-th (about 2 s of CPU a ROM: a folder of 18
# would take too long for one test's timeout).
# VRAMSIM, OUT, SHARD, SHARDS.
if(NOT DEFINED ENV{VRAMSIM_HOMEBREW_DIR})
  message(STATUS "capture_homebrew: skipped: set VRAMSIM_HOMEBREW_DIR to a folder of GBA ROMs to run it")
  return()
endif()
file(GLOB roms "$ENV{VRAMSIM_HOMEBREW_DIR}/*.gba")
if(NOT roms)
  message(FATAL_ERROR "capture_homebrew: no .gba file in $ENV{VRAMSIM_HOMEBREW_DIR}")
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
  message(FATAL_ERROR "capture_homebrew: ${failed} ROMs failed")
endif()
if(mine EQUAL 0)
  message(STATUS "capture_homebrew: skipped: no ROM falls to shard ${SHARD} of ${SHARDS}")
endif()
