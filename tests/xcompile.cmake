# SPDX-License-Identifier: Zlib
# Compiles every allocator source for the ARM7TDMI with the flags a GBA game
# uses, seeing only the compiler's own freestanding headers: a host header
# (stdio, stdlib) in allocator code fails here.
execute_process(COMMAND ${ARM_GCC} -print-file-name=include
  OUTPUT_VARIABLE gcc_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
file(GLOB sources ${SRC}/src/alloc/*.c)
list(SORT sources)
list(LENGTH sources n)
if(n EQUAL 0)
  message(FATAL_ERROR "no allocator sources under ${SRC}/src/alloc")
endif()
file(MAKE_DIRECTORY ${OUT})
set(failed 0)
foreach(src ${sources})
  get_filename_component(name ${src} NAME_WE)
  execute_process(
    COMMAND ${ARM_GCC} -mcpu=arm7tdmi -mthumb -ffreestanding -Os -Wall -Wextra -Werror
            -std=c99 -nostdinc -isystem ${gcc_inc} -I${SRC}/include -c ${src} -o ${OUT}/${name}.o
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "ok   ${name}.c")
  else()
    message(STATUS "FAIL ${name}.c\n${err}")
    math(EXPR failed "${failed}+1")
  endif()
endforeach()
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} of ${n} allocator sources do not build freestanding for the ARM7TDMI")
endif()
message(STATUS "${n} passed, 0 failed")
