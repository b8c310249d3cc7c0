# SPDX-License-Identifier: Zlib
# layers.cmake - the layer check fails where it should (ctest: layers_reject).
# Copies src/ to OUT, adds includes that cross a layer the wrong way, and
# requires tools/layers.cmake to name each with its file and line; then
# compiles a file of the engine that includes the renderer's header against
# the engine's own include root (the build's, LAYERS/engine) and requires
# the compiler to refuse it.
file(REMOVE_RECURSE ${OUT})
file(COPY ${SRC}/src DESTINATION ${OUT})
file(WRITE ${OUT}/src/engine/zz_upward.c "#include <stdio.h>\n\n#include \"render/render.h\"\n")
file(WRITE ${OUT}/src/alloc/zz_libc.c "#include <stdint.h>\n#include <string.h>\n")
file(WRITE ${OUT}/src/vram/zz_sdl.c "#include <SDL.h>\n")
file(WRITE ${OUT}/src/trace/zz_relative.c "#include \"../engine/replay.h\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${OUT}/src -P ${SRC}/tools/layers.cmake
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the layer check passed a tree with wrong includes:\n${out}")
endif()
foreach(want
    "src/engine/zz_upward.c:3: \"render/render.h\": layer engine may not use layer render"
    "src/alloc/zz_libc.c:2: <string.h>: freestanding code"
    "src/vram/zz_sdl.c:1: <SDL.h>: layer vram does not link SDL2"
    "src/trace/zz_relative.c:1: \"../engine/replay.h\": name a header by its folder"
    "4 include(s) cross a layer")
  string(FIND "${out}" "${want}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the layer check did not say '${want}':\n${out}")
  endif()
endforeach()

# the build refuses the same include
file(WRITE ${OUT}/upward.c "#include \"render/render.h\"\nint upward(void);\nint upward(void) { return 0; }\n")
execute_process(COMMAND ${CC} -std=c99 -fsyntax-only -I${LAYERS}/engine -I${SRC}/include ${OUT}/upward.c
  RESULT_VARIABLE rc OUTPUT_VARIABLE cout ERROR_VARIABLE cout)
if(rc EQUAL 0 OR NOT cout MATCHES "render/render.h")
  message(FATAL_ERROR "the engine's include root let it include render/render.h:\n${cout}")
endif()
# and takes a header of a layer the engine may use
file(WRITE ${OUT}/downward.c "#include \"trace/trace.h\"\nint downward(void);\nint downward(void) { return 0; }\n")
execute_process(COMMAND ${CC} -std=c99 -fsyntax-only -I${LAYERS}/engine -I${SRC}/include ${OUT}/downward.c
  RESULT_VARIABLE rc OUTPUT_VARIABLE cout ERROR_VARIABLE cout)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the engine's include root refused trace/trace.h:\n${cout}")
endif()
