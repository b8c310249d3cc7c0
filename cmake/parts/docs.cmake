# SPDX-License-Identifier: Zlib
# The README's pictures are what the quick start's render command writes:
# make them again and compare byte for byte.
add_test(NAME readme_pictures
  COMMAND ${CMAKE_COMMAND} -DVRAMSIM=$<TARGET_FILE:vramsim> -DSRC=${PROJECT_SOURCE_DIR}
          -DOUT=${PROJECT_BINARY_DIR}/readme-pictures -P ${PROJECT_SOURCE_DIR}/cmake/readme_pictures.cmake)
set_tests_properties(readme_pictures PROPERTIES TIMEOUT 60) # ctest's default would be 1500 s
