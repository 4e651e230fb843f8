# How the tests launch MPI programs: MPICOLL_LAUNCH_FLAGS, extra mpiexec
# flags placed after MPIEXEC_PREFLAGS. MPICOLL_MPIEXEC_PREFLAGS overrides
# them (even empty); left undefined they are detected: with Open MPI's
# mpiexec "--oversubscribe --allow-run-as-root --mca mpi_yield_when_idle 1
# --mca odls_base_sigkill_timeout 0" (tests run up to 8 ranks on any
# machine, possibly as root in containers; a job with a failed rank ends at
# once, not 2 s later), with any other MPI (MPICH, ...) none. The scripts
# that tests run get them as TEST_LAUNCH_FLAGS (mpicoll_launch_env). MPICOLL_LAUNCH_OPENMPI: whether
# mpiexec is Open MPI's (its flags differ from MPICH's hydra: -x VAR=value
# against -genv VAR value).
set(MPICOLL_LAUNCH_OPENMPI OFF)
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version
                  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc TIMEOUT 30)
  if("${_out}${_err}" MATCHES "Open MPI|OpenRTE")
    set(MPICOLL_LAUNCH_OPENMPI ON)
  endif()
endif()
if(DEFINED MPICOLL_MPIEXEC_PREFLAGS)
  string(REPLACE ";" " " _flags "${MPICOLL_MPIEXEC_PREFLAGS}")
  separate_arguments(MPICOLL_LAUNCH_FLAGS UNIX_COMMAND "${_flags}")
else()
  set(MPICOLL_LAUNCH_FLAGS)
  if(MPICOLL_LAUNCH_OPENMPI)
    set(MPICOLL_LAUNCH_FLAGS --oversubscribe --allow-run-as-root --mca mpi_yield_when_idle 1
        --mca odls_base_sigkill_timeout 0)
  endif()
endif()
string(REPLACE ";" " " MPICOLL_LAUNCH_FLAGS_TEXT "${MPICOLL_LAUNCH_FLAGS}")
set(MPICOLL_MPI_TEST_MAX_NP 8 CACHE STRING
    "The MPI tests (sweep, datatypes) run on this many ranks: communicators of 1..this many")

# mpicoll_test_env(<test> [VAR=value...]): the test's environment (with
# TEST_LAUNCH_FLAGS, for the scripts that launch programs), and the
# MPICOLL_ variables it does not set cleared (CMake >= 3.22), so that a
# developer's shell does not change what a test tests.
set(MPICOLL_TEST_KNOBS MPICOLL_ALLGATHER MPICOLL_ALLTOALL MPICOLL_ALLREDUCE MPICOLL_REDUCE
    MPICOLL_BCAST MPICOLL_REDUCE_SCATTER_BLOCK MPICOLL_FALLBACK MPICOLL_RULES
    MPICOLL_RANKS_PER_NODE MPICOLL_MODE MPICOLL_VERBOSE MPICOLL_TEST_FAULT MPICOLL_CMA_REFUSE)
function(mpicoll_test_env name)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT
                       "TEST_LAUNCH_FLAGS=${MPICOLL_LAUNCH_FLAGS_TEXT};${ARGN}")
  if(NOT CMAKE_VERSION VERSION_LESS 3.22)
    set(_mods)
    foreach(_knob IN LISTS MPICOLL_TEST_KNOBS)
      if(NOT "${ARGN}" MATCHES "(^|;)${_knob}=")
        list(APPEND _mods "${_knob}=unset:")
      endif()
    endforeach()
    set_tests_properties(${name} PROPERTIES ENVIRONMENT_MODIFICATION "${_mods}")
  endif()
endfunction()
