# cmake -DCOMMAND=<arguments separated by |> -DEXPECT=<regex> [-DEXPECT2=<regex>] [-DREJECT=<regex>]
#       -P expect_fail.cmake
# Runs COMMAND; passes only if it exits non-zero, its output matches EXPECT
# (and EXPECT2) and does not match REJECT: a test that must fail, and fail
# for the right reason.
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expect_fail: the command passed; it must fail")
endif()
foreach(re IN ITEMS "${EXPECT}" "${EXPECT2}")
  if(re AND NOT out MATCHES "${re}")
    message(FATAL_ERROR "expect_fail: no output line matches '${re}'")
  endif()
endforeach()
if(REJECT AND out MATCHES "${REJECT}")
  message(FATAL_ERROR "expect_fail: an output line matches '${REJECT}'")
endif()
message("expect_fail: failed as expected (exit ${rc})")
