# `cmake --install`: the tcfuzz binary, the oracle and generator libraries with their headers
# (under include/tcfuzz/), the built-in emulator a backend plug-in may wrap with the plug-in ABI
# (include/tcfuzz/backend.h), the data files tcfuzz reads (share/tcfuzz/), an exported, versioned
# CMake package (find_package(tcfuzz 0.3) -> tcfuzz::oracle, tcfuzz::generators) and a
# pkg-config file. docs/library.md shows both in use.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(tcfuzz_oracle PROPERTIES EXPORT_NAME oracle)
set_target_properties(tcfuzz_generators PROPERTIES EXPORT_NAME generators)
add_library(tcfuzz::oracle ALIAS tcfuzz_oracle)
add_library(tcfuzz::generators ALIAS tcfuzz_generators)

install(TARGETS tcfuzz_oracle tcfuzz_generators EXPORT tcfuzzTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET tcfuzz_emulator)  # not in a libraries-only build
  set_target_properties(tcfuzz_emulator PROPERTIES EXPORT_NAME emulator)
  install(TARGETS tcfuzz_emulator EXPORT tcfuzzTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
foreach(layer oracle generators)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcfuzz/${layer}
          FILES_MATCHING PATTERN "*.h"
          PATTERN "json_reader.h" EXCLUDE)  # internal: it needs nlohmann/json
endforeach()
# The device-backend ABI a plug-in is built against (docs/backends.md).
install(FILES ${PROJECT_SOURCE_DIR}/include/tcfuzz/backend.h
              ${PROJECT_BINARY_DIR}/generated/tcfuzz/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcfuzz)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/emulator/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcfuzz/harness/emulator FILES_MATCHING PATTERN "*.h")
# Their includes of each other as "tcfuzz/...": the package exports include/ alone.
configure_file(${PROJECT_SOURCE_DIR}/cmake/RewriteIncludes.cmake
               ${PROJECT_BINARY_DIR}/RewriteIncludes.cmake @ONLY)
install(SCRIPT ${PROJECT_BINARY_DIR}/RewriteIncludes.cmake)
install(FILES ${PROJECT_SOURCE_DIR}/corpus/toolchain/expectations.txt
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tcfuzz/toolchain)
install(FILES ${PROJECT_SOURCE_DIR}/corpus/mutants/catalogue.txt
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tcfuzz/mutants)
# The deciding tiles `tcfuzz discover` turns into programs.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/smem_hw/deciding
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tcfuzz/smem_hw)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/tcgen05_hw/deciding
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tcfuzz/tcgen05_hw)
if(TARGET tcfuzz)
  install(TARGETS tcfuzz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The tiler `tcfuzz run`'s tiling-fuzz suite drives by default (suites/tiling/tiling_suite.h).
if(TARGET example_tiler)
  install(TARGETS example_tiler RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/tcfuzz)
endif()

set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tcfuzz)
install(EXPORT tcfuzzTargets NAMESPACE tcfuzz:: DESTINATION ${cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tcfuzzConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tcfuzzConfig.cmake
                              INSTALL_DESTINATION ${cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tcfuzzConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tcfuzzConfig.cmake ${PROJECT_BINARY_DIR}/tcfuzzConfigVersion.cmake
        DESTINATION ${cmake_dir})
configure_file(${PROJECT_SOURCE_DIR}/cmake/tcfuzz.pc.in ${PROJECT_BINARY_DIR}/tcfuzz.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tcfuzz.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
