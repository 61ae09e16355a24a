# Run by `cmake --install` after the headers are copied: tcfuzz's sources include each other as
# "oracle/...", "generators/..." and "harness/...", which would need include/tcfuzz itself on a
# consumer's path, where those generic roots could shadow the consumer's own folders (issue 35).
# Installed, every such include names "tcfuzz/..." instead, so the package exports include/ alone
# and a consumer writes <tcfuzz/...> only.
set(includedir "@CMAKE_INSTALL_INCLUDEDIR@")
if(NOT IS_ABSOLUTE "${includedir}")
  set(includedir "${CMAKE_INSTALL_PREFIX}/${includedir}")
endif()
set(root "$ENV{DESTDIR}${includedir}/tcfuzz")
file(GLOB_RECURSE headers "${root}/*.h")
foreach(header ${headers})
  file(READ "${header}" text)
  string(REGEX REPLACE "#include \"(oracle|generators|harness)/" "#include \"tcfuzz/\\1/" rewritten
                       "${text}")
  if(NOT rewritten STREQUAL text)
    file(WRITE "${header}" "${rewritten}")
  endif()
endforeach()
