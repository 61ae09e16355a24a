// The text form of one dense mma.sync case, with what a GPU returned for it (the dense-mma GPU
// suite's reproducer):
//
//   kind = dense_mma
//   form = m16n8k16.f16        b_type = f16     cd = f32     satfinite = 0
//   a.0 .. a.15 = the K values of row r of A (hex, space-separated)
//   b.0 .. b.<K-1> = the 8 values of row k of B;  c.0 .. c.15 = the 8 values of row r of C
//   observed.0 .. observed.15 = D as the device wrote it (optional); origin.* = provenance
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/mma/dense_mma.h"

namespace tcfuzz::oracle::mma {

inline constexpr std::string_view kDenseKind = "dense_mma";

struct DenseCaseFile {
  DenseTile tile;
  std::optional<std::vector<uint32_t>> observed;  // D [16][8]
};

void AppendDenseCase(TextWriter& w, const DenseTile& t,
                     const std::vector<uint32_t>* observed = nullptr);
Result<DenseCaseFile> DenseCaseFromDoc(const TextDoc& doc);

}  // namespace tcfuzz::oracle::mma
