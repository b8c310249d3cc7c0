# SPDX-License-Identifier: Zlib
# flags.cmake - the project's compiler flags, in one place. Every target of
# the project links vs_flags; test programs link vs_test_flags instead (the
# same, with what tests relax). Nothing here is set globally, so the ROMs,
# the install tests and other projects built beside vramsim are untouched.
#
#  VS_WERROR    warnings are errors (on)
#  VS_SANITIZE  AddressSanitizer and UndefinedBehaviorSanitizer, for every
#               target: the modules vramsim loads are instrumented like it
#  VS_UBSAN_MESSAGES  with VS_SANITIZE: UBSan's runtime and its messages
#               instead of a trap (off: faster, see below)
#  VS_FUZZ      libFuzzer's coverage, with the same sanitizers (clang)
#  VS_USE_LLD   link with LLVM's ld.lld when it is installed (on)
set(VS_WARN -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes)
if(VS_WERROR)
  list(APPEND VS_WARN -Werror)
endif()
set(VS_SAN_COMPILE)
set(VS_SAN_LINK)
set(VS_SAN_ENV)
if(VS_SANITIZE)
  # UndefinedBehaviorSanitizer traps instead of calling its runtime: every
  # process of the tests (vramsim runs by the thousand) then starts and
  # exits without libubsan, whose 6 MB of globals LeakSanitizer would scan
  # at each exit (94 ms a process here, 55 ms without). Undefined behaviour
  # still stops the run: ASan reports the trap as "ILL" with the stack and
  # line (handle_sigill); -DVS_UBSAN_MESSAGES=ON links the runtime back for
  # its wording ("signed integer overflow: ...").
  list(APPEND VS_SAN_COMPILE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  list(APPEND VS_SAN_LINK -fsanitize=address)
  if(VS_UBSAN_MESSAGES)
    list(APPEND VS_SAN_LINK -fsanitize=undefined)
  else()
    list(APPEND VS_SAN_COMPILE -fsanitize-undefined-trap-on-error)
  endif()
  # What every test runs with (tests/CMakeLists.txt): leaks are errors, a
  # report ends the process, the trap is reported with its stack.
  set(VS_SAN_ENV "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:handle_sigill=1"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  # The same without LeakSanitizer, for the few tests named in
  # tests/CMakeLists.txt (VS_NO_LEAK_SCAN) whose processes boot an emulator.
  set(VS_SAN_ENV_NO_LEAKS "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_sigill=1"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  # A Debug build optimises at -O1, the level ASan recommends: several
  # times faster than -O0, and still without NDEBUG, so assert() checks.
  # GCC's flow-based warnings are unreliable on instrumented code (its
  # manual advises against -Werror with sanitizers): here they stay
  # warnings; the normal build, the same sources, keeps them errors.
  list(APPEND VS_SAN_COMPILE $<$<CONFIG:Debug>:-O1>)
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU") # GCC's warnings: clang has neither
    list(APPEND VS_SAN_COMPILE $<$<CONFIG:Debug>:-Wno-error=maybe-uninitialized>
      $<$<CONFIG:Debug>:-Wno-error=format-truncation>)
  endif()
endif()
if(VS_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "VS_FUZZ needs clang (libFuzzer): configure with CC=clang, as tools/fuzz does")
  endif()
  list(APPEND VS_SAN_COMPILE -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
  list(APPEND VS_SAN_LINK -fsanitize=address,undefined)
endif()

# LLVM's linker when it is installed: a tree links about a hundred programs
# (the suites), and ld.lld takes a fraction of GNU ld's time for each
# (docs/developing.md, "Test suite time"). Not for the programs linked with
# GCC's link-time optimisation (vs_lto), which needs GNU ld's plugin.
option(VS_USE_LLD "Link with ld.lld when it is installed (not the LTO links)" ON)
find_program(VS_LLD ld.lld)
set(VS_LINKER)
if(VS_USE_LLD AND VS_LLD AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set(VS_LINKER "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:VS_LTO_LINK>>>:-fuse-ld=lld>")
endif()

add_library(vs_flags INTERFACE)
target_compile_options(vs_flags INTERFACE ${VS_WARN} ${VS_SAN_COMPILE})
# The heaps' stores into their arena are seen by the replay (heap_common.h)
target_compile_definitions(vs_flags INTERFACE HEAP_WATCH_STORES)
target_link_options(vs_flags INTERFACE ${VS_SAN_LINK} ${VS_LINKER})

# Tests: prototypes are not asked of a suite's own functions, and messages
# built in tests may be cut (that is never what a test checks; GCC's
# warning, which clang 14 does not know).
add_library(vs_test_flags INTERFACE)
target_compile_options(vs_test_flags INTERFACE ${VS_WARN} -Wno-missing-prototypes ${VS_SAN_COMPILE})
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  target_compile_options(vs_test_flags INTERFACE -Wno-format-truncation)
endif()
target_compile_definitions(vs_test_flags INTERFACE HEAP_WATCH_STORES)
target_link_options(vs_test_flags INTERFACE ${VS_SAN_LINK} ${VS_LINKER})
