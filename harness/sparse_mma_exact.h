// The `sparse-mma-exact` launch (harness/judged_launch.h): every case drawn on the device and
// checked there against its exact sum (harness/sparse_mma_exact_lane.h); case w's table is
// tables[Pick(case seed, kVariant)].
#pragma once

#include <span>

#include "harness/judged_launch.h"
#include "harness/sparse_mma_exact_lane.h"

namespace tcfuzz::harness {

struct SparseExactLaunch : JudgedRange {
  static constexpr const char* kSuite = "sparse-mma-exact";
  struct Kernel;  // harness/sparse_mma_exact.cu
  std::span<const SparseExactTable> tables;
};

}  // namespace tcfuzz::harness
