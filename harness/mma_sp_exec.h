// Running batches of sparse MMA cases on the GPU: operands packed into each lane's registers
// exactly as the oracle's fragment maps say, one warp per case, D unpacked the same way.
#pragma once

#include <span>
#include <vector>

#include "harness/mma_sp_ptx.h"
#include "oracle/core/result.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::harness {

struct MmaSpCase {
  oracle::sparse::SparseOp op;      // the metadata register of every lane
  oracle::sparse::SparseTile tile;  // A (compressed), B, C as logical matrices
};

// D [16][8] (row-major bit patterns) per case. Every case must share `spec`.
oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaSp(const MmaSpSpec& spec, std::span<const MmaSpCase> cases);

}  // namespace tcfuzz::harness
