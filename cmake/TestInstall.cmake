# ctest package.install_relocated: `cmake --install` into a prefix, the prefix moved elsewhere,
# then what a user of the package does with it:
#  - the moved `tcfuzz toolchain scan` of sm_90a's mma.sp forms (where known deviations are) knows
#    the same deviations as the build tree's (its data found beside it; skipped, exit 3, without a
#    CUDA toolkit);
#  - every installed header compiles alone in a C++17 translation unit (-Wpedantic -Werror) with
#    only <prefix>/include on the path, and none includes a generic root ("oracle/...");
#  - examples/find_package configured against it with find_package(tcfuzz 0.3), built as C++17
#    and run, its answer equal to the CLI's;
#  - examples/backend_plugin, a device-backend plug-in, built against it and reported by a
#    campaign of the moved binary;
#  - the pkg-config file compiles and links the same program;
#  - add_subdirectory of the source tree builds the libraries without tcfuzz's test and CLI
#    dependencies and adds no test (as one unity translation unit: a third of the CPU time, and
#    it keeps the oracle's file-local names from colliding).
# Arguments: -DBUILD=<build dir> -DSOURCE=<source dir> -DWORK=<scratch dir> -DCXX=<compiler>
cmake_minimum_required(VERSION 3.25)

function(run)
  cmake_parse_arguments(R "" "OUT;RC;DIR" "COMMAND" ${ARGN})
  execute_process(COMMAND ${R_COMMAND} WORKING_DIRECTORY ${R_DIR} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(R_RC)
    set(${R_RC} ${rc} PARENT_SCOPE)
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${R_COMMAND}\n${out}\n${err}")
  endif()
  if(R_OUT)
    set(${R_OUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
run(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/stage DIR ${WORK})
file(RENAME ${WORK}/stage ${WORK}/moved)
set(prefix ${WORK}/moved)
foreach(f bin/tcfuzz libexec/tcfuzz/example_tiler lib/libtcfuzz_oracle.a lib/libtcfuzz_generators.a
        include/tcfuzz/oracle/smem/smem_case.h share/tcfuzz/toolchain/expectations.txt
        lib/cmake/tcfuzz/tcfuzzConfig.cmake lib/cmake/tcfuzz/tcfuzzConfigVersion.cmake
        lib/pkgconfig/tcfuzz.pc)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()

# The headers of a C++17 test tree (CUTLASS's minimum), included as <tcfuzz/...> only: the
# package exports include/ and nothing below it.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include ${prefix}/include/tcfuzz/*.h)
list(LENGTH headers header_count)
if(header_count LESS 60)
  message(FATAL_ERROR "only ${header_count} headers installed")
endif()
foreach(h ${headers})
  file(READ ${prefix}/include/${h} text)
  if(text MATCHES "#include \"(oracle|generators|harness|suites)/")
    message(FATAL_ERROR "${h} includes a generic root: ${CMAKE_MATCH_0}")
  endif()
  file(WRITE ${WORK}/one_header.cc "#include <${h}>\n")
  run(COMMAND ${CXX} -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only
              -I${prefix}/include ${WORK}/one_header.cc DIR ${WORK})
endforeach()
file(READ ${prefix}/lib/cmake/tcfuzz/tcfuzzTargets.cmake targets)
string(REGEX MATCHALL "INTERFACE_INCLUDE_DIRECTORIES \"[^\"]*\"" roots "${targets}")
list(REMOVE_DUPLICATES roots)
if(NOT roots STREQUAL "INTERFACE_INCLUDE_DIRECTORIES \"\${_IMPORT_PREFIX}/include\"")
  message(FATAL_ERROR "the package exports include roots besides include/: ${roots}")
endif()

# A GPU runner may have only the driver: no CUDA runtime library among the binary's needs.
find_program(LDD ldd)
if(LDD)
  run(COMMAND ${LDD} ${prefix}/bin/tcfuzz OUT needed DIR ${WORK})
  if(needed MATCHES "libcudart")
    message(FATAL_ERROR "the installed tcfuzz needs the CUDA runtime library:\n${needed}")
  endif()
endif()

# The relocated binary finds its data: the same known deviations as the build tree.
run(COMMAND ${BUILD}/tcfuzz toolchain scan --targets sm_90a --forms mma.sp* RC tree_rc OUT tree DIR ${WORK})
if(tree_rc EQUAL 3)
  message(STATUS "no CUDA toolkit: the relocated toolchain scan is not compared")
else()
  run(COMMAND env -u TCFUZZ_DATA_DIR ${prefix}/bin/tcfuzz toolchain scan --targets sm_90a --forms mma.sp*
      RC moved_rc OUT moved DIR ${WORK})
  string(REGEX REPLACE "[0-9.]+ s" "" tree "${tree}")
  string(REGEX REPLACE "[0-9.]+ s" "" moved "${moved}")
  if(NOT moved_rc EQUAL tree_rc OR NOT moved STREQUAL tree)
    message(FATAL_ERROR "relocated scan (exit ${moved_rc}) differs from the build tree's "
                        "(exit ${tree_rc}):\n${moved}\n---\n${tree}")
  endif()
  if(NOT tree MATCHES "expected")
    message(FATAL_ERROR "the scan names no known deviation:\n${tree}")
  endif()
endif()
# Without its data the binary says so (exit 2), never scans as if nothing were known.
file(REMOVE ${prefix}/share/tcfuzz/toolchain/expectations.txt)
file(COPY ${prefix}/bin/tcfuzz DESTINATION ${WORK}/lonely/bin)
run(COMMAND env -u TCFUZZ_DATA_DIR ${WORK}/lonely/bin/tcfuzz toolchain scan --targets sm_90a --forms mma.sp*
    RC lonely_rc DIR ${WORK})
file(COPY ${SOURCE}/corpus/toolchain/expectations.txt
     DESTINATION ${prefix}/share/tcfuzz/toolchain)

# find_package: the consumer's answer equals the CLI's.
run(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/examples/find_package -B ${WORK}/consumer
            -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} DIR ${WORK})
run(COMMAND ${CMAKE_COMMAND} --build ${WORK}/consumer --verbose OUT consumer_build DIR ${WORK})
if(NOT consumer_build MATCHES "-std=c\\+\\+17" OR consumer_build MATCHES "-std=(c|gnu)\\+\\+2")
  message(FATAL_ERROR "the find_package consumer was not built as C++17:\n${consumer_build}")
endif()
set(desc 0x4000004000010000)
run(COMMAND ${WORK}/consumer/descriptor_check ${desc} 9 10 OUT answer DIR ${WORK})
run(COMMAND ${BUILD}/tcfuzz explain smem --arch sm_90a --operand a --major k --dtype f16
            --rows 64 --kbytes 32 --json ${desc} OUT cli DIR ${WORK})
string(JSON byte GET "${cli}" addresses 9 10)
if(NOT answer STREQUAL "legal; element (9, 10) at byte ${byte}\n")
  message(FATAL_ERROR "find_package consumer said '${answer}', the CLI byte ${byte}")
endif()
run(COMMAND ${WORK}/consumer/descriptor_check --version OUT header_version DIR ${WORK})
run(COMMAND ${prefix}/bin/tcfuzz --version OUT cli_version DIR ${WORK})
if(NOT header_version STREQUAL cli_version)
  message(FATAL_ERROR "<tcfuzz/version.h> says '${header_version}', tcfuzz --version '${cli_version}'")
endif()
run(COMMAND ${WORK}/consumer/descriptor_check --zcm 0x0 128 64 OUT mask DIR ${WORK})
if(NOT mask STREQUAL "mask 0x0000000000000000\n")
  message(FATAL_ERROR "zero-column mask: '${mask}'")
endif()

# The backend plug-in example, built out of tree against the package: the moved tcfuzz runs a
# campaign on it and reports the one behaviour it changed (D[0][0]) as failures, exit 1.
run(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/examples/backend_plugin -B ${WORK}/plugin
            -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} DIR ${WORK})
run(COMMAND ${CMAKE_COMMAND} --build ${WORK}/plugin DIR ${WORK})
run(COMMAND ${prefix}/bin/tcfuzz run --device plugin:${WORK}/plugin/flipped_plugin.so
            --suite sparse-mma --cases 256 --seed 1 --no-progress --report ${WORK}/plugin-report
    RC plugin_rc OUT plugin_out DIR ${WORK})
file(READ ${WORK}/plugin-report/summary.json plugin_summary)
string(JSON plugin_failed GET "${plugin_summary}" suites 0 failed)
string(JSON plugin_backend GET "${plugin_summary}" provenance backend)
if(NOT plugin_rc EQUAL 1 OR plugin_failed LESS 200 OR NOT plugin_backend STREQUAL "plugin"
   OR NOT plugin_summary MATCHES "D\\[0\\]\\[0\\]")
  message(FATAL_ERROR "the flipped plug-in's campaign: exit ${plugin_rc}, ${plugin_failed} failed, "
                      "backend ${plugin_backend}:\n${plugin_out}")
endif()

# pkg-config: the same program, compiled by hand.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  run(COMMAND env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig ${PKG_CONFIG} --cflags --libs tcfuzz
      OUT flags DIR ${WORK})
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(COMMAND ${CXX} -std=c++17 ${SOURCE}/examples/find_package/main.cc ${flags} -o ${WORK}/pc_check
      DIR ${WORK})
  run(COMMAND ${WORK}/pc_check ${desc} 9 10 OUT pc_answer DIR ${WORK})
  if(NOT pc_answer STREQUAL answer)
    message(FATAL_ERROR "pkg-config build said '${pc_answer}'")
  endif()
endif()

# add_subdirectory: the libraries only, with none of GoogleTest, RapidCheck, CLI11, Benchmark.
file(WRITE ${WORK}/sub/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)
project(sub LANGUAGES CXX)
enable_testing()
add_subdirectory(${SOURCE} tcfuzz)
add_executable(descriptor_check ${SOURCE}/examples/find_package/main.cc)
target_link_libraries(descriptor_check PRIVATE tcfuzz::oracle)
")
run(COMMAND ${CMAKE_COMMAND} -S ${WORK}/sub -B ${WORK}/sub/build -DCMAKE_CXX_COMPILER=${CXX}
            -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0
            -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON
            -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
            -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON DIR ${WORK})
run(COMMAND ${CMAKE_COMMAND} --build ${WORK}/sub/build --target descriptor_check DIR ${WORK})
run(COMMAND ${WORK}/sub/build/descriptor_check ${desc} 9 10 OUT sub_answer DIR ${WORK})
if(NOT sub_answer STREQUAL answer)
  message(FATAL_ERROR "add_subdirectory build said '${sub_answer}'")
endif()
run(COMMAND ${CMAKE_CTEST_COMMAND} -N OUT listed DIR ${WORK}/sub/build)
if(NOT listed MATCHES "Total Tests: 0")
  message(FATAL_ERROR "add_subdirectory added tests to the consumer:\n${listed}")
endif()
if(NOT lonely_rc EQUAL 2)
  message(FATAL_ERROR "a tcfuzz without its data exited ${lonely_rc}, not 2")
endif()
message(STATUS "install, relocation, find_package, pkg-config and add_subdirectory: ok")
