// The `sparse-mma-exact` launch (harness/judged_launch.h): every case drawn on the device and
// checked there against its exact sum (harness/sparse_exact_lane.h); case w's table is
// tables[Pick(case seed, kVariant)].
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "harness/judged_launch.h"
#include "harness/sparse_exact_lane.h"
#include "oracle/core/result.h"

namespace tcfuzz::harness {

struct SparseExactLaunch : JudgedRange {
  std::span<const SparseExactTable> tables;
};
using SparseExactCase = JudgedCase;
using SparseExactResult = JudgedResult;

oracle::Result<SparseExactResult> RunSparseExact(const SparseExactLaunch& launch);

// Why this device cannot run the kernel (no image of it for the device's architecture), or empty.
std::string SparseExactUnsupported();

}  // namespace tcfuzz::harness
