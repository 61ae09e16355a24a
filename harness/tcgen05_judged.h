// The `tcgen05-judged` launch (harness/judged_launch.h): dense tcgen05.mma and tcgen05.mma.ws
// (kind::f16, cta_group::1) M = 128, N = 8..128 f16/bf16 -> f32 tiles with both operands in shared
// memory (sm_100a), one CTA of four warps per case. Each case picks its layout from `layouts` by
// its case seed, builds its shared-memory image on the device (poison, then every element where
// the oracle's map puts it: harness/tcgen05_judged_lane.h), allocates tensor memory, issues the
// instruction from one thread with enable-input-d false, commits to an mbarrier, reads D back with
// tcgen05.ld (warp w: lanes 32w..32w+31), judges every element with the bit-exact model's finite
// path and the device's tcgen05 row, and frees the tensor memory. Compiled and assembled
// everywhere; runs only where the device reports compute capability 10.0. A kept case's D comes
// back row-major, N words a row (thread t's columns).
#pragma once

#include <cstdint>
#include <span>

#include "harness/judged_launch.h"
#include "harness/tcgen05_judged_lane.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

struct Tcgen05JudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "tcgen05-judged";
  struct Kernel;  // harness/tcgen05_judged.cu
  std::span<const Tcgen05JudgedLayout> layouts;
  oracle::num::fast::Params f16, bf16;  // the device's tcgen05 row for each input type
  uint32_t image_bytes = 64 * 1024;     // the image every layout was drawn inside
};

}  // namespace tcfuzz::harness
