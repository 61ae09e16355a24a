# One way to declare each kind of target, so every test carries a layer label.

# "tcfuzz/oracle/..." resolves in the build tree as it does installed: a link named tcfuzz to
# the source root (tcfuzz's own sources write "oracle/...").
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include)
if(NOT EXISTS ${PROJECT_BINARY_DIR}/include/tcfuzz)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/include/tcfuzz SYMBOLIC)
endif()
# <tcfuzz/version.h>, written from the project's version (beside the link: nothing generated
# goes into the source tree).
configure_file(${PROJECT_SOURCE_DIR}/include/tcfuzz/version.h.in
               ${PROJECT_BINARY_DIR}/generated/tcfuzz/version.h @ONLY)

# tcfuzz_add_library(NAME SOURCES... DEPS...)
function(tcfuzz_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  # Installed, the headers live under include/tcfuzz/ and include each other as "tcfuzz/..."
  # (cmake/RewriteIncludes.cmake), so consumers get include/ alone and write <tcfuzz/...>;
  # tcfuzz's own sources write "oracle/...".
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                            $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
                                            $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>
                                            $<INSTALL_INTERFACE:include>)
  # C++20 inside; the headers a consumer includes are C++17 (CUTLASS's minimum: issue 35).
  target_compile_features(${name} PRIVATE cxx_std_20 INTERFACE cxx_std_17)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${TCFUZZ_WARNINGS}>)
endfunction()

# tcfuzz_add_test(NAME LABEL layer SOURCES... DEPS...)
# A gtest binary; each test is discovered so ctest reports GTEST_SKIP as "Not Run".
function(tcfuzz_add_test name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} tcfuzz_test_main)
  # Test code unoptimized (after the build type's -O2, so it wins): what a test spends its time
  # in is the libraries, built optimized, while optimizing gtest's and RapidCheck's templates
  # was half of CI's compile time (report_test.cc: 26 s -> 11 s with g++, 37 s -> 13 s with
  # clang, ASan and UBSan).
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${TCFUZZ_WARNINGS} -O0>)
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${ARG_LABEL}" TIMEOUT 300)
endfunction()

# tcfuzz_add_fuzzer(NAME SOURCE src CORPUS dir [SMOKE_RUNS n] DEPS...)
# The same source builds a libFuzzer binary (fuzz preset) and a plain replay binary
# (every build); ctest replays the corpus folder's seed/ and regression/ through it.
function(tcfuzz_add_fuzzer name)
  cmake_parse_arguments(ARG "" "SOURCE;CORPUS;SMOKE_RUNS" "DEPS" ${ARGN})
  if(NOT ARG_SMOKE_RUNS)
    set(ARG_SMOKE_RUNS 200000)
  endif()
  add_executable(${name}_replay ${ARG_SOURCE} ${PROJECT_SOURCE_DIR}/suites/fuzz/replay_main.cc)
  target_link_libraries(${name}_replay PRIVATE ${ARG_DEPS})
  target_compile_options(${name}_replay PRIVATE ${TCFUZZ_WARNINGS})
  add_test(NAME fuzz_replay.${name}
           COMMAND ${name}_replay ${ARG_CORPUS}/seed ${ARG_CORPUS}/regression)
  set_tests_properties(fuzz_replay.${name} PROPERTIES LABELS "fuzz-replay" TIMEOUT 300)
  if(TCFUZZ_FUZZ)
    add_executable(${name} ${ARG_SOURCE})
    target_link_libraries(${name} PRIVATE ${ARG_DEPS})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    # A short coverage-guided run from the corpus: a smoke test, not the long campaign
    # (docs/fuzzing.md says how to run that).
    # New inputs go to a scratch folder in the build tree (libFuzzer writes into the first
    # corpus folder), never into corpus/.
    set(scratch ${CMAKE_BINARY_DIR}/fuzz-scratch/${name})
    file(MAKE_DIRECTORY ${scratch} ${CMAKE_BINARY_DIR}/fuzz-artifacts)
    add_test(NAME fuzz_smoke.${name}
             COMMAND ${name} -runs=${ARG_SMOKE_RUNS} -seed=1 -error_exitcode=77 -timeout_exitcode=78
                     -artifact_prefix=${CMAKE_BINARY_DIR}/fuzz-artifacts/
                     ${scratch} ${ARG_CORPUS}/seed ${ARG_CORPUS}/regression)
    set_tests_properties(fuzz_smoke.${name} PROPERTIES LABELS "fuzz-smoke" TIMEOUT 600)
  endif()
endfunction()
