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
# One compiler run a CPU for every source (the objects land in OUT/CPU):
# a failure names its file and line in the compiler's own messages.
set(failed 0)
foreach(cpu "arm7tdmi;-mthumb" "arm946e-s;-marm")
  list(GET cpu 0 mcpu)
  list(GET cpu 1 mode)
  file(MAKE_DIRECTORY ${OUT}/${mcpu})
  execute_process(
    COMMAND ${ARM_GCC} -mcpu=${mcpu} ${mode} -ffreestanding -Os -Wall -Wextra -Werror
            -std=c99 -nostdinc -isystem ${gcc_inc} -I${SRC}/include -c ${sources}
    WORKING_DIRECTORY ${OUT}/${mcpu}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "ok   ${n} sources for ${mcpu}")
  else()
    message(STATUS "FAIL for ${mcpu}\n${err}")
    math(EXPR failed "${failed}+1")
  endif()
endforeach()
if(failed GREATER 0)
  message(FATAL_ERROR "the allocator sources do not all build freestanding for the ARM7TDMI and the ARM946E-S")
endif()
