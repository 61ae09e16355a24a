// `tcfuzz repro FILE --emit-cu OUT.cu`: the case's kind writes one standalone CUDA file
// (suites/kinds/emit_cu.h); this command reads the file, picks the numerics row, writes the result
// atomically and says what it wrote.
#pragma once

#include <string>

namespace tcfuzz::suites {

// gpu_row: the numerics row for the expected values when the file names none ("sm_90").
// Exit code 0; bad input is a one-line error with exit code 2.
int ReproEmitCu(const std::string& file, const std::string& out_path, const std::string& gpu_row);

}  // namespace tcfuzz::suites
