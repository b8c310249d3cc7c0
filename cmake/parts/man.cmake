# SPDX-License-Identifier: Zlib
# man.cmake - the man page vramsim.1, made at build time from the help
# texts (`vramsim --help` and every `vramsim COMMAND --help`), so it says
# what the built program says; its install rules with the bash completion;
# and a test that the page renders cleanly with a section per command.
#
# One file, two roles: included by CMakeLists.txt it adds the targets; run
# with `cmake -P` it writes the page (-DOUT=) or checks it (-DCHECK=).

if(CMAKE_SCRIPT_MODE_FILE)
  # The commands vramsim --help lists ("  NAME   what it does").
  function(vs_man_commands out help)
    string(REGEX MATCH "\ncommands:\n(.*)" _ "${help}")
    string(REGEX REPLACE "\n\n.*" "" list "${CMAKE_MATCH_1}")
    string(REGEX MATCHALL "(^|\n)  [a-z]+ " names "${list}")
    set(cmds)
    foreach(n ${names})
      string(STRIP "${n}" n)
      list(APPEND cmds ${n})
    endforeach()
    set(${out} ${cmds} PARENT_SCOPE)
  endfunction()

  # Help text as roff lines kept as they are.
  function(vs_man_verbatim out text)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    string(REGEX REPLACE "\n+$" "" text "${text}")
    set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
  endfunction()

  execute_process(COMMAND ${VRAMSIM} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${VRAMSIM} --help exited ${rc}")
  endif()
  vs_man_commands(cmds "${help}")

  if(CHECK)
    # The test: a section per command, and groff renders it without a warning.
    file(READ ${CHECK} page)
    foreach(c ${cmds})
      string(TOUPPER ${c} up)
      string(FIND "${page}" ".SH \"VRAMSIM ${up}\"\n" at)
      if(at LESS 0)
        message(FATAL_ERROR "${CHECK}: no section for the command ${c}")
      endif()
    endforeach()
    if(GROFF)
      execute_process(COMMAND ${GROFF} -man -Tutf8 -ww -z ${CHECK} ERROR_VARIABLE warnings RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0 OR warnings)
        message(FATAL_ERROR "groff on ${CHECK} (exit ${rc}):\n${warnings}")
      endif()
    endif()
    list(LENGTH cmds n)
    message(STATUS "${CHECK}: ${n} command sections")
    return()
  endif()

  string(REGEX REPLACE "^usage:[^\n]*\n\n" "" description "${help}")
  vs_man_verbatim(description "${description}")
  string(CONCAT page ".\\\" Made by cmake/parts/man.cmake from vramsim's help texts: edit those.\n"
    ".TH VRAMSIM 1 \"\" \"vramsim ${VERSION}\" \"User Commands\"\n"
    ".SH NAME\n"
    "vramsim \\- replay GBA and DS video memory allocation traces against allocator strategies\n"
    ".SH SYNOPSIS\n"
    ".B vramsim\n"
    ".RB [ \\-\\-version ]\n"
    ".RB [ \\-\\-help ]\n"
    ".I COMMAND\n"
    ".RI [ ARGS ]\n"
    ".br\n"
    ".B vramsim help\n"
    ".I COMMAND\n"
    ".SH DESCRIPTION\n"
    "${description}")
  foreach(c ${cmds})
    string(TOUPPER ${c} up)
    execute_process(COMMAND ${VRAMSIM} ${c} --help OUTPUT_VARIABLE text ERROR_VARIABLE why RESULT_VARIABLE rc)
    if(rc EQUAL 0)
      vs_man_verbatim(text "${text}")
    else()
      # a command in a module this build could not load
      string(STRIP "${why}" why)
      vs_man_verbatim(why "${why}")
      set(text "This command is unavailable in this build of vramsim:\n${why}")
    endif()
    string(APPEND page ".SH \"VRAMSIM ${up}\"\n${text}")
  endforeach()
  string(APPEND page
    ".SH \"EXIT STATUS\"\n"
    ".TP\n.B 0\nsuccess\n"
    ".TP\n.B 1\na check or budget failed\n"
    ".TP\n.B 2\nusage or input error (messages name the command, and file:line:col where there is one)\n"
    ".SH \"SEE ALSO\"\n"
    "The documentation in the source tree: README.md and docs/*.md (the trace format, the\n"
    "strategy API for plug-ins, comparing in CI, the viewer, on-target measurements).\n"
    ".PP\n"
    "Bash completion: the script vramsim.bash-completion, installed in\n"
    ".IR share/bash-completion/completions/vramsim ,\n"
    "asks\n"
    ".B vramsim complete\n"
    "for its candidates.\n")
  file(WRITE ${OUT}.tmp "${page}")
  file(RENAME ${OUT}.tmp ${OUT})
  return()
endif()

include(GNUInstallDirs)
set(VS_MAN_PAGE ${PROJECT_BINARY_DIR}/vramsim.1)

# The page depends on vramsim and on the command modules (whose --help it
# prints): deferred to the end of the directory, when every module is
# defined (CMakeLists.txt names them vs_module_*).
function(vs_man_page)
  set(deps vramsim)
  get_property(targets DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    if(t MATCHES "^vs_module_")
      list(APPEND deps ${t})
    endif()
  endforeach()
  add_custom_command(OUTPUT ${VS_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -DVRAMSIM=$<TARGET_FILE:vramsim> -DOUT=${VS_MAN_PAGE}
            -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/parts/man.cmake
    DEPENDS ${deps} ${PROJECT_SOURCE_DIR}/cmake/parts/man.cmake
    COMMENT "Man page: vramsim.1 from the help texts" VERBATIM)
  add_custom_target(vs_man ALL DEPENDS ${VS_MAN_PAGE})
endfunction()
vs_at_end(vs_man_page)

install(FILES ${VS_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/src/cli/vramsim.bash-completion
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME vramsim)

if(BUILD_TESTING OR NOT DEFINED BUILD_TESTING)
  enable_testing()
  find_program(VS_GROFF groff)
  if(NOT VS_GROFF)
    message(STATUS "groff not found: the man page test checks its sections only")
  endif()
  add_test(NAME man_page
    COMMAND ${CMAKE_COMMAND} -DVRAMSIM=$<TARGET_FILE:vramsim> -DCHECK=${VS_MAN_PAGE}
            -DGROFF=${VS_GROFF} -P ${PROJECT_SOURCE_DIR}/cmake/parts/man.cmake)
  set_tests_properties(man_page PROPERTIES TIMEOUT 60) # ctest's default would be 1500 s
endif()
