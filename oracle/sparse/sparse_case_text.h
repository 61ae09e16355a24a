// The text form of one sparse MMA case, with what a GPU returned for it (corpus/sparse_mma/):
//
//   kind = sparse_mma
//   form = m16n8k32.f16        variant = ordered | sp        selector = 1
//   b_type = f16               cd = f32                      satfinite = 0
//   a.0 .. a.15  = hex values of compressed A, one row per key (row, chunk, slot order)
//   meta.0 .. meta.15 = one hex nibble per chunk of that row
//   b.0 .. b.<K-1> = the 8 values of row k of B;  c.0 .. c.15 = the 8 values of row r of C
//   observed.0 .. observed.15 = D as the device wrote it (optional); origin.* = provenance
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::oracle::sparse {

inline constexpr std::string_view kSparseKind = "sparse_mma";

struct SparseCaseFile {
  SparseOp op;  // metadata placed in the selected lanes (other lanes 0)
  SparseTile tile;
  std::optional<std::vector<uint32_t>> observed;  // D [16][8]
};

void AppendSparseCase(TextWriter& w, const SparseOp& op, const SparseTile& t,
                      const std::vector<uint32_t>* observed = nullptr);
Result<SparseCaseFile> SparseCaseFromDoc(const TextDoc& doc);

}  // namespace tcfuzz::oracle::sparse
