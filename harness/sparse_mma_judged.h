// The `sparse-mma-judged` launch (harness/judged_launch.h): mma.sp cases of every instruction
// variant the small-integer suite runs, in float value modes, drawn on the device and judged there
// by the bit-exact model's 64-bit path (harness/sparse_mma_judged_lane.h) with the device's
// numerics row; case w's table is tables[Pick(case seed, kVariant)].
#pragma once

#include <span>

#include "harness/judged_launch.h"
#include "harness/sparse_mma_judged_lane.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

struct SparseJudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "sparse-mma-judged";
  struct Kernel;  // harness/sparse_mma_judged.cu
  std::span<const SparseExactTable> tables;
  oracle::num::fast::Params f16, bf16;  // the row for each input type
};

}  // namespace tcfuzz::harness
