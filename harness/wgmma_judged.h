// The `smem-hw-judged` launch (harness/judged_launch.h): dense wgmma.mma_async m64nNk16 f16/bf16
// -> f32 tiles with both operands in shared memory (sm_90a), one warpgroup per case. Each case
// picks its layout from `layouts` by its case seed, builds its shared-memory image on the device
// (poison, then every element where the oracle's map puts it: harness/wgmma_judged_lane.h),
// issues the instruction with scale-d false, and judges every accumulator with the bit-exact
// model's finite path and the device's wgmma row. A kept case's D comes back thread-major:
// thread t's accumulator x at t * N/2 + x (WgmmaJudgedD unpacks it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "harness/judged_launch.h"
#include "harness/wgmma_judged_lane.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

struct WgmmaJudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "smem-hw-judged";
  struct Kernel;  // harness/wgmma_judged.cu
  std::span<const WgmmaJudgedLayout> layouts;
  oracle::num::fast::Params f16, bf16;  // the device's wgmma row for each input type
  uint32_t image_bytes = 64 * 1024;     // the image every layout was drawn inside
};

// Whether n is one of kWgmmaJudgedNs.
bool WgmmaJudgedSpells(int n);

// D [64][n] row-major from a kept case's registers (thread-major, n/2 per thread).
std::vector<uint32_t> WgmmaJudgedD(std::span<const uint32_t> regs, int n);

}  // namespace tcfuzz::harness
