# SPDX-License-Identifier: Zlib
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${VRAMSIM} render ${SRC}/traces/obj-quickstart.trace --strategy gba-obj-map -o ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vramsim render exited ${rc}")
endif()
foreach(kind occupancy heatmap chart)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/obj-quickstart-${kind}.png
    ${SRC}/docs/img/obj-quickstart-${kind}.png RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "docs/img/obj-quickstart-${kind}.png differs from what the quick start makes; "
      "regenerate: build/vramsim render traces/obj-quickstart.trace --strategy gba-obj-map -o docs/img")
  endif()
endforeach()
message(STATUS "3 passed, 0 failed")
