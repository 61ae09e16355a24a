// Each GPU kind's `repro --emit-cu` (its CaseKind::emit_cu): one standalone CUDA file for a case
// (a reproducer or corpus file) whose main() prints each element of D the device returns next to
// the oracle's and, when the file has one, the value the device returned when the case was found.
// Sparse cases: the lanes' registers as constants and the instruction as inline asm; dense
// mma.sync and descriptor tiles: the harness's PTX module through the driver API
// (suites/emit/launch_cu.h). Needs nothing of tcfuzz to build: something a vendor bug report can
// carry. The command itself (reading, writing, messages) is suites/cli/repro_cu.h.
#pragma once

#include <string>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::suites {

struct EmittedCu {
  std::string text;         // the .cu file
  std::string instruction;  // what it runs, for the command's one line
};

// row_name: the numerics row of the expected D ("sm_90"). Error: one line naming the file.
oracle::Result<EmittedCu> EmitSparseCu(const std::string& file, const oracle::TextDoc& doc,
                                       const std::string& row_name);
oracle::Result<EmittedCu> EmitDenseCu(const std::string& file, const oracle::TextDoc& doc,
                                      const std::string& row_name);
oracle::Result<EmittedCu> EmitTileCu(const std::string& file, const oracle::TextDoc& doc,
                                     const std::string& row_name);

}  // namespace tcfuzz::suites
