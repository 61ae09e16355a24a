// The `sparse-mma-exact` launch: one warp per case, every case drawn on the device from
// (suite key, index) and checked there against its exact sum (harness/sparse_exact_lane.h), so
// only the indices of failing cases, and the D of a few, travel back. Case w of a launch is
// index first + w * stride; its table is tables[Pick(case seed, kVariant)].
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "harness/sparse_exact_lane.h"
#include "oracle/core/result.h"

namespace tcfuzz::harness {

struct SparseExactLaunch {
  std::span<const SparseExactTable> tables;
  uint64_t suite_key = 0;  // oracle::SuiteKey of (base seed, suite)
  uint64_t first = 0, stride = 1, count = 0;
  uint64_t sample_every = 0;       // > 0: cases whose case seed is a multiple of it (one in that
                                   // many, whatever the stride) send their D back
  uint32_t keep_mismatches = 256;  // the D of at most this many failing cases comes back
};

struct SparseExactCase {
  uint64_t index = 0;
  std::vector<uint32_t>
      d_regs;  // the lanes' D registers, lane-major (harness::UnpackD reads D from them)
};

struct SparseExactResult {
  std::vector<uint64_t> failed;       // every index whose D differed from its exact sum
  std::vector<SparseExactCase> kept;  // D of the sampled cases and of the first failing ones
};

oracle::Result<SparseExactResult> RunSparseExact(const SparseExactLaunch& launch);

// Why this device cannot run the kernel (no image of it for the device's architecture), or empty.
std::string SparseExactUnsupported();

}  // namespace tcfuzz::harness
