// The `dense-mma-judged` launch (harness/judged_launch.h): m16n8k16 f16/bf16 -> f32 cases in
// float value modes, drawn on the device and judged there by the bit-exact model's 64-bit path
// (harness/dense_judged_lane.h) with the device's numerics row.
#pragma once

#include "harness/dense_judged_lane.h"
#include "harness/judged_launch.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

struct DenseJudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "dense-mma-judged";
  struct Kernel;  // harness/dense_judged.cu
  const DenseJudgedTable* table = nullptr;
  oracle::num::fast::Params f16, bf16;  // the row for each input type
};

}  // namespace tcfuzz::harness
