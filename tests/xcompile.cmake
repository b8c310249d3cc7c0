# SPDX-License-Identifier: Zlib
# Compiles every allocator source for the ARM7TDMI with the flags a GBA game
# uses (Thumb), and for the DS's ARM946E-S (ARM), seeing only the compiler's
# own freestanding headers: a host header (stdio, stdlib) in allocator code
# fails here.
execute_process(COMMAND ${ARM_GCC} -print-file-name=include
  OUTPUT_VARIABLE gcc_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
file(GLOB sources ${SRC}/src/alloc/*.c)
list(SORT sources)
list(LENGTH sources n)
if(n EQUAL 0)
  message(FATAL_ERROR "no allocator sources under ${SRC}/src/alloc")
endif()
file(MAKE_DIRECTORY ${OUT})
# One compiler run a CPU for every source (the objects land in OUT/CPU),
# the two at once: the test is most of the normal tree's test time, and the
# other core would wait. A failure names its file and line in the
# compiler's own messages.
set(cmds)
foreach(cpu IN ITEMS "arm7tdmi|-mthumb" "arm946e-s|-marm")
  string(REPLACE "|" ";" cpu "${cpu}")
  list(GET cpu 0 mcpu)
  list(GET cpu 1 mode)
  file(MAKE_DIRECTORY ${OUT}/${mcpu})
  list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E chdir ${OUT}/${mcpu} ${ARM_GCC} -mcpu=${mcpu} ${mode}
    -ffreestanding -Os -Wall -Wextra -Werror -std=c99 -nostdinc -isystem ${gcc_inc} -I${SRC}/include -c ${sources})
endforeach()
# (execute_process runs its commands at once, as a pipeline: the compiler
# reads nothing from the other's output)
execute_process(${cmds} RESULTS_VARIABLE rcs ERROR_VARIABLE err)
set(failed 0)
set(mcpus arm7tdmi arm946e-s)
foreach(mcpu rc IN ZIP_LISTS mcpus rcs)
  if(rc EQUAL 0)
    message(STATUS "ok   ${n} sources for ${mcpu}")
  else()
    message(STATUS "FAIL for ${mcpu}")
    math(EXPR failed "${failed}+1")
  endif()
endforeach()
if(failed GREATER 0)
  message(STATUS "${err}")
  message(FATAL_ERROR "the allocator sources do not all build freestanding for the ARM7TDMI and the ARM946E-S")
endif()
