# Build options of the robustness work (docs/robustness.md), included by
# the top-level CMakeLists.txt before any target:
#   MPICOLL_SANITIZE=ON  everything built with AddressSanitizer and
#                        UndefinedBehaviorSanitizer (gcc or clang)
#   MPICOLL_FUZZ=ON      clang only: the library instrumented for libFuzzer
#                        (and the sanitizers), and the targets of fuzz/
option(MPICOLL_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(MPICOLL_FUZZ "Build the libFuzzer targets of fuzz/ (clang)" OFF)

if(MPICOLL_SANITIZE OR MPICOLL_FUZZ)
  # a UB report fails the program, as an ASan report does
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(MPICOLL_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MPICOLL_FUZZ needs clang: configure with -DCMAKE_C_COMPILER=clang")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
