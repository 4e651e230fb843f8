# The Fortran test program, tests/component/app.F90 (every collective, in
# place, derived datatypes, an operation of its own, every root), built for
# each Fortran binding of the MPI library: include 'mpif.h', use mpi and
# use mpi_f08. The component's tests and the preload library's run it
# (tests/component, tests/preload).

# The Fortran compiler and the MPI's Fortran bindings (MPI_Fortran_FOUND):
# the MPI's own wrapper compiler, mpif90 beside mpicc, mpif90.mpich beside
# mpicc.mpich. A macro: enable_language needs the caller's file scope.
macro(mpicoll_fortran_find)
  if(NOT MPI_Fortran_COMPILER AND MPI_C_COMPILER)
    get_filename_component(_mpicoll_cc "${MPI_C_COMPILER}" NAME)
    string(REPLACE "mpicc" "mpif90" _mpicoll_fc "${_mpicoll_cc}")
    find_program(MPICOLL_MPI_FORTRAN ${_mpicoll_fc})
    if(MPICOLL_MPI_FORTRAN)
      set(MPI_Fortran_COMPILER ${MPICOLL_MPI_FORTRAN} CACHE FILEPATH
          "the MPI's Fortran wrapper compiler")
    endif()
  endif()
  include(CheckLanguage)
  check_language(Fortran)
  if(CMAKE_Fortran_COMPILER)
    enable_language(Fortran)
    find_package(MPI COMPONENTS Fortran)
  endif()
endmacro()

# mpicoll_fortran_apps(PREFIX OUT): one program PREFIX_<binding> for each
# binding the MPI has (mpifh, usempi, f08), whose names go in OUT.
function(mpicoll_fortran_apps prefix out)
  set(_bindings)
  set(_langs)
  if(MPI_Fortran_HAVE_F77_HEADER)
    list(APPEND _bindings mpifh:MPIFH)
  endif()
  if(MPI_Fortran_HAVE_F90_MODULE)
    list(APPEND _bindings usempi:USEMPI)
  endif()
  if(MPI_Fortran_HAVE_F08_MODULE)
    list(APPEND _bindings f08:F08)
  endif()
  # MPICH 4.0 (its mpi.h)
  find_file(MPICOLL_MPI_H mpi.h PATHS ${MPI_C_INCLUDE_DIRS} NO_DEFAULT_PATH)
  set(_mpich40)
  if(MPICOLL_MPI_H)
    file(STRINGS "${MPICOLL_MPI_H}" _mpich40 REGEX "^#define MPICH_VERSION +\"4\\.0\\.")
  endif()
  foreach(_b IN LISTS _bindings)
    string(REPLACE ":" ";" _b "${_b}")
    list(GET _b 0 _lang)
    list(GET _b 1 _macro)
    list(APPEND _langs ${_lang})
    set(_app ${prefix}_${_lang})
    add_executable(${_app} ${PROJECT_SOURCE_DIR}/tests/component/app.F90)
    target_compile_definitions(${_app} PRIVATE ${_macro})
    if(NOT MPI_C_VERSION_MAJOR LESS 4)
      target_compile_definitions(${_app} PRIVATE MPI4_PERSISTENT) # MPI_<Name>_init
    endif()
    if(_mpich40)
      # its use mpi_f08 MPI_Waitany & co. return 0-based indices (the
      # preload library's 1-based ones would differ from the reference run)
      target_compile_definitions(${_app} PRIVATE F08_INDICES_FROM_0)
    endif()
    target_link_libraries(${_app} PRIVATE MPI::MPI_Fortran)
    # each program its own app_m module; the dispatch macros expand to
    # long lines
    set_target_properties(${_app} PROPERTIES Fortran_PREPROCESS ON
      Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mod_${_app})
    if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
      # gfortran's warnings about the MPI's bindings are not the library's:
      # not errors under MPICOLL_WERROR
      target_compile_options(${_app} PRIVATE -ffree-line-length-none -Wno-error)
      # mpif.h, and MPICH's use mpi, declare no interfaces of the
      # collectives: gfortran >= 10 rejects one buffer passed as arrays of
      # different types (and MPI_IN_PLACE) unless told
      if(NOT _lang STREQUAL "f08" AND NOT CMAKE_Fortran_COMPILER_VERSION VERSION_LESS 10)
        target_compile_options(${_app} PRIVATE -fallow-argument-mismatch)
      endif()
    endif()
  endforeach()
  set(${out} ${_langs} PARENT_SCOPE)
endfunction()
