// `tcfuzz repro FILE --emit-cu OUT.cu`: one standalone CUDA file for a GPU case (a reproducer or
// corpus file) with a main() that prints each element of D the device returns next to the
// oracle's and, when the file has one, the value the device returned when the case was found.
// Sparse cases: the lanes' registers as constants and the instruction as inline asm; dense
// mma.sync and descriptor tiles: the harness's PTX module through the driver API
// (suites/cli/launch_cu.h). Needs nothing of tcfuzz to build: something a vendor bug report can
// carry.
#pragma once

#include <string>

#include "oracle/core/text_format.h"

namespace tcfuzz::suites {

// gpu_row: the numerics row for the expected values when the file names none ("sm_90").
// Exit code 0; bad input is a one-line error with exit code 2.
int ReproEmitCu(const std::string& file, const std::string& out_path, const std::string& gpu_row);

// Each GPU kind's emitter (its CaseKind::emit_cu); row_name: the numerics row of the expected D.
int EmitSparseCu(const std::string& file, const oracle::TextDoc& doc, const std::string& out_path,
                 const std::string& row_name);
int EmitDenseCu(const std::string& file, const oracle::TextDoc& doc, const std::string& out_path,
                const std::string& row_name);
int EmitTileCu(const std::string& file, const oracle::TextDoc& doc, const std::string& out_path,
               const std::string& row_name);

}  // namespace tcfuzz::suites
