// Running batches of sparse MMA cases on the GPU: operands packed into each lane's registers
// exactly as the oracle's fragment maps say, one warp per case, D unpacked the same way.
#pragma once

#include <span>
#include <vector>

#include "harness/backend.h"
#include "harness/sparse_mma_ptx.h"
#include "oracle/core/result.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::harness {

struct MmaSpCase {
  oracle::sparse::SparseOp op;      // the metadata register of every lane
  oracle::sparse::SparseTile tile;  // A (compressed), B, C as logical matrices
};

// One .b32 operand register: per_reg elements of elem_bits each, element `pos` (the value
// at(pos) returns, cut to elem_bits) at bit pos * elem_bits.
template <class ElementAt>
uint32_t PackRegister(int per_reg, int elem_bits, ElementAt at) {
  const uint64_t mask = elem_bits >= 32 ? 0xFFFFFFFFull : (uint64_t{1} << elem_bits) - 1;
  uint32_t word = 0;
  for (int pos = 0; pos < per_reg; ++pos)
    word |= static_cast<uint32_t>((at(pos) & mask) << (pos * elem_bits));
  return word;
}

// Each lane's registers for a batch, case-major then lane: a[(case * 32 + lane) * a_regs + reg],
// likewise b, c (CdRegisters of them) and e (one). Pure packing: no device needed.
struct PackedMmaSp {
  std::vector<uint32_t> a, b, c, e;
};
PackedMmaSp PackMmaSp(const MmaSpSpec& spec, std::span<const MmaSpCase> cases);

// C and D use one lane map for every warp-level mma (sparse and dense; tested equal):
// the lane's c registers for C [16][8], and D [16][8] of case i from the lanes' d registers.
void PackC(oracle::num::Format cd, std::span<const uint32_t> c, int lane, uint32_t* regs);
std::vector<uint32_t> UnpackD(oracle::num::Format cd, std::span<const uint32_t> d_regs,
                              std::size_t i);

// The packed batch as a call of the backend ABI (harness/backend.h).
WarpMmaCall WarpMmaCallOf(const MmaSpSpec& spec, const PackedMmaSp& p);

// D [16][8] (row-major bit patterns) per case. Every case must share `spec`.
oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaSp(const MmaSpSpec& spec,
                                                            std::span<const MmaSpCase> cases);

}  // namespace tcfuzz::harness
