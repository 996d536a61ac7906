# Runs one golden case: cmake -DHETEROPIPE=<binary> -DCASES=<cases.txt>
#   -DCASE=<name> -DGOLDEN_DIR=<dir> -DACTUAL_DIR=<dir> -P run_case.cmake
# The case's command line is run by /bin/sh exactly as a user would type it,
# with its leading word "heteropipe" replaced by the binary under test.
# With the environment variable HETEROPIPE_UPDATE_GOLDENS=1 the golden file is
# (re)written instead of compared.
foreach(required HETEROPIPE CASES CASE GOLDEN_DIR ACTUAL_DIR ROOT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_case.cmake needs -D${required}=...")
  endif()
endforeach()

file(READ "${CASES}" cases_text)
string(REGEX MATCH "(^|\n)${CASE}:[ \t]*([^\n]*)" found "${cases_text}")
if(NOT found)
  message(FATAL_ERROR "no case named '${CASE}' in ${CASES}")
endif()
set(command_line "${CMAKE_MATCH_2}")
if(NOT command_line MATCHES "^heteropipe( |$)")
  message(FATAL_ERROR "case '${CASE}' must start with the word heteropipe: ${command_line}")
endif()
string(REGEX REPLACE "^heteropipe" "\"${HETEROPIPE}\"" shell_line "${command_line}")

# From the repository root, so that a case names its input files by their
# paths there (tests/cli/plans/...), as the Python parity test does.
execute_process(COMMAND /bin/sh -c "${shell_line}"
  WORKING_DIRECTORY "${ROOT}"
  RESULT_VARIABLE exit_status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

set(actual "# command: ${command_line}\n# exit: ${exit_status}\n# stdout:\n${out}# stderr:\n${err}")
set(golden "${GOLDEN_DIR}/${CASE}.txt")

if("$ENV{HETEROPIPE_UPDATE_GOLDENS}" STREQUAL "1")
  file(WRITE "${golden}" "${actual}")
  message(STATUS "wrote ${golden}")
  return()
endif()

if(NOT EXISTS "${golden}")
  message(FATAL_ERROR "missing ${golden}; create it with HETEROPIPE_UPDATE_GOLDENS=1 and review it by hand")
endif()
file(READ "${golden}" expected)
if(NOT actual STREQUAL expected)
  set(actual_file "${ACTUAL_DIR}/${CASE}.txt")
  file(WRITE "${actual_file}" "${actual}")
  # diff writes straight to the test log; message() would rewrap its lines.
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u "${golden}" "${actual_file}")
  endif()
  message(FATAL_ERROR "case '${CASE}' differs from ${golden} (actual: ${actual_file})")
endif()
