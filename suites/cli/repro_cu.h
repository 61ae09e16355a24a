// `tcfuzz repro FILE --emit-cu OUT.cu`: one standalone CUDA file for a GPU case (a reproducer or
// corpus file) with a main() that prints each element of D the device returns next to the
// oracle's and, when the file has one, the value the device returned when the case was found.
// Sparse cases: the lanes' registers as constants and the instruction as inline asm; dense
// mma.sync and descriptor tiles: the harness's PTX module through the driver API
// (suites/cli/launch_cu.h). Needs nothing of tcfuzz to build: something a vendor bug report can
// carry.
#pragma once

#include <string>

namespace tcfuzz::suites {

// gpu_row: the numerics row for the expected values when the file names none ("sm_90").
// Exit code 0; bad input is a one-line error with exit code 2.
int ReproEmitCu(const std::string& file, const std::string& out_path, const std::string& gpu_row);

}  // namespace tcfuzz::suites
