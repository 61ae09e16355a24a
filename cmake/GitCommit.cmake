# cmake -DSRC=<source dir> -DOUT=<header> -P GitCommit.cmake, at every build: writes the commit
# `git describe` gives now ("-dirty" with uncommitted changes) as TCFUZZ_GIT_COMMIT, rewriting the
# header only when that changes, so a new commit recompiles the one file that records it
# (suites/engine/report.cc) and nothing else. Outside a git checkout the header defines nothing.
execute_process(COMMAND git describe --always --dirty --abbrev=12 WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(text "// Written by cmake/GitCommit.cmake at build time.\n")
if(commit)
  string(APPEND text "#define TCFUZZ_GIT_COMMIT \"${commit}\"\n")
endif()
file(WRITE ${OUT}.tmp "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
