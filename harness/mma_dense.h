// Dense `mma.sync` on the GPU for the shapes sparse MMA reuses: the instruction and its batch
// module (harness/warp_mma_ptx.h), lanes' registers packed by the oracle's dense fragment maps
// (oracle/mma/dense_mma.h), D unpacked the same way.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"
#include "oracle/mma/dense_mma.h"

namespace tcfuzz::harness {

struct MmaDenseSpec {
  const oracle::mma::DenseForm* form = nullptr;
  oracle::num::Format a_type = oracle::num::Format::kF16;
  oracle::num::Format b_type = oracle::num::Format::kF16;
  oracle::num::Format cd = oracle::num::Format::kF32;  // f32, f16 or s32
  bool satfinite = false;
};

// "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, ...}, {%a0, ...}, {%b0, %b1}, {%c0,
// ...};"
std::string MmaDenseInstruction(const MmaDenseSpec& s);
// The module with entry `tcfuzz_mma_dense(a, b, c, d, n)` for `target`.
std::string MmaDenseModule(const MmaDenseSpec& s, const std::string& target);

// Per-lane registers, case-major then lane (as harness/sparse_mma_exec.h packs sparse cases).
struct PackedMmaDense {
  std::vector<uint32_t> a, b, c;
};
PackedMmaDense PackMmaDense(const MmaDenseSpec& spec,
                            std::span<const oracle::mma::DenseTile> tiles);

// The packed batch as a call of the backend ABI (harness/backend.h).
WarpMmaCall WarpMmaCallOf(const MmaDenseSpec& spec, const PackedMmaDense& p);

// The batch as a launch of the module for `target` ("sm_90"), one warp per case.
PreparedLaunch PrepareMmaDense(const MmaDenseSpec& spec,
                               std::span<const oracle::mma::DenseTile> tiles,
                               const std::string& target);

// D [16][8] per case on device 0. Every tile must share `spec`.
oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaDense(
    const MmaDenseSpec& spec, std::span<const oracle::mma::DenseTile> tiles);

}  // namespace tcfuzz::harness
