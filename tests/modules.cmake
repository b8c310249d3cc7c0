# SPDX-License-Identifier: Zlib
# Commands in modules (src/cli/module.c), run by ctest as cli_modules:
#  - vramsim itself links neither libmgba nor SDL2, and few libraries;
#  - a module that cannot load (none in VRAMSIM_MODULE_DIR, a file there
#    that is no shared object, or one whose library is missing) or was not
#    built: its commands exit 2 naming what to install and why, every other
#    command works;
#  - a module that was built loads from beside vramsim and runs its help.
# VRAMSIM, SRC, OUT; ABSENT: the folder of tests/module_absent.c's module;
# GBA and VIEW: 1 when that module was built.
set(failed 0)
function(fail what)
  message(STATUS "FAIL ${what}")
  math(EXPR n "${failed}+1")
  set(failed ${n} PARENT_SCOPE)
endfunction()

# vramsim(<expected exit> <args...>): runs it; its output in `out` and `err`.
macro(vramsim code)
  execute_process(COMMAND ${VRAMSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    fail("vramsim ${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
endmacro()

# expect(<text> <needle>...): each needle occurs in text.
function(expect text)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" at)
    if(at EQUAL -1)
      fail("no '${needle}' in:\n${text}")
    endif()
  endforeach()
  set(failed ${failed} PARENT_SCOPE)
endfunction()

find_program(LDD ldd)
if(LDD)
  execute_process(COMMAND ${LDD} ${VRAMSIM} OUTPUT_VARIABLE libs)
  string(REGEX MATCHALL "\n" lines "\n${libs}")
  list(LENGTH lines n)
  if(libs MATCHES "mgba|SDL2" OR n GREATER 20)
    fail("vramsim links ${n} libraries (at most 20, neither libmgba nor SDL2):\n${libs}")
  endif()
endif()

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/empty ${OUT}/broken)
file(WRITE ${OUT}/broken/vramsim-gba.so "not a shared object\n")
file(WRITE ${OUT}/broken/vramsim-view.so "not a shared object\n")
set(trace ${SRC}/traces/obj-quickstart.trace)

foreach(case empty broken absent)
  set(ENV{VRAMSIM_MODULE_DIR} ${OUT}/${case})
  set(cmds cycles record view)
  if(case STREQUAL "absent")
    set(ENV{VRAMSIM_MODULE_DIR} ${ABSENT})
    set(cmds cycles)
  endif()
  foreach(cmd ${cmds})
    if(cmd STREQUAL "view")
      set(module view)
      set(built ${VIEW})
      set(package libsdl2-dev)
    else()
      set(module gba)
      set(built ${GBA})
      set(package libmgba-dev)
    endif()
    vramsim(2 ${cmd} ${trace})
    if(NOT built)
      expect("${err}" "vramsim ${cmd}: not built:" "install ${package} and rebuild")
    elseif(case STREQUAL "empty")
      expect("${err}" "cannot load the ${module} module: ${OUT}/empty/vramsim-${module}.so: cannot open"
        "install ${package}" "VRAMSIM_MODULE_DIR")
    elseif(case STREQUAL "absent")
      expect("${err}" "cannot load the gba module: libvs_absent.so: cannot open shared object file"
        "install libmgba-dev")
    else()
      # dlerror's words for a file that is not ELF vary: its path is there.
      expect("${err}" "cannot load the ${module} module: ${OUT}/broken/vramsim-${module}.so"
        "install ${package}")
    endif()
  endforeach()
endforeach()

# Without its modules vramsim lists the commands as unavailable, and the
# others run.
set(ENV{VRAMSIM_MODULE_DIR} ${OUT}/empty)
vramsim(0 --help)
expect("${out}" "(unavailable: ")
vramsim(0 replay ${trace})
vramsim(0 strategies)
expect("${out}" "gba-obj-map")

# Built modules load from beside vramsim.
unset(ENV{VRAMSIM_MODULE_DIR})
vramsim(0 --help)
if(GBA AND VIEW)
  string(FIND "${out}" "unavailable" at)
  if(NOT at EQUAL -1)
    fail("vramsim --help lists a built module as unavailable:\n${out}")
  endif()
endif()
if(GBA)
  vramsim(0 cycles --help)
  expect("${out}" "usage: vramsim cycles" "this build: libmgba: yes")
  vramsim(0 record --help)
  expect("${out}" "usage: vramsim record")
endif()
if(VIEW)
  vramsim(0 view --help)
  expect("${out}" "usage: vramsim view")
endif()

if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
message(STATUS "all passed")
