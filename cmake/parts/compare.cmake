# SPDX-License-Identifier: Zlib
# compare.cmake - vramsim's own CI compares every strategy on the bundled traces against the
# committed baseline (baselines/vramsim.json) and budgets (baselines/budgets.txt). Regenerate the baseline with
#   build/vramsim compare traces --no-timing --write-baseline baselines/vramsim.json
# from the source tree (docs/ci.md).

if(BUILD_TESTING OR NOT DEFINED BUILD_TESTING)
  enable_testing()
  add_test(NAME compare_bundled_baseline
    COMMAND vramsim compare traces --no-timing --baseline baselines/vramsim.json
            --budgets baselines/budgets.txt --out junit=${PROJECT_BINARY_DIR}/compare-bundled.xml
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(compare_bundled_baseline PROPERTIES TIMEOUT 60) # 3 s of CPU under the sanitizers
  # The DS demo ROM's capture (traces/captured/, traces/README.md) against its own baseline, every strategy.
  # Regenerate with the same command and --write-baseline baselines/ds-demo-capture.json.
  add_test(NAME compare_ds_demo_capture
    COMMAND vramsim compare traces/captured/ds-demo-capture.trace --no-timing --baseline baselines/ds-demo-capture.json
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(compare_ds_demo_capture PROPERTIES TIMEOUT 60)
endif()
