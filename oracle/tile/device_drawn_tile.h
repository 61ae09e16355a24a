// The recipe of a device-judged wgmma tile (the `smem-hw-judged` suite): which layout of the
// launch's table case `index` runs, its value mode, and every A and B element follow from its
// case seed through CounterDraw, one draw per element, so a kernel builds the case's shared-memory
// image on its own and the host rebuilds the same tile for the oracle and the reproducer. The
// layouts themselves (two descriptors, N, the types) are drawn on the host by the `smem-hw`
// generator from the base seed alone (suites/kinds/judged_device.h). constexpr, no library
// calls: device code calls it.
//
// Values are finite f16 or bf16 patterns in the dense recipe's three finite modes
// (oracle/mma/device_drawn_dense.h); D = A·B with scale-d false, as the `smem-hw` tiles.
#pragma once

#include <cstdint>

#include "oracle/core/counter_hash.h"
#include "oracle/mma/device_drawn_dense.h"

namespace tcfuzz::oracle::tile::drawn {

// Streams apart from the value streams (the dense recipe's operands 1..5).
inline constexpr uint32_t kLayoutStream = 6u << 24, kModeStream = 7u << 24;

// Which of `count` layouts case `case_seed` runs.
constexpr uint32_t LayoutIndex(uint64_t case_seed, uint32_t count) {
  return CounterDraw(case_seed, kLayoutStream) % count;
}
// Finite modes only: no hardware run has yet shown what wgmma makes of Inf and NaN operands
// (smem-hw draws finite values), so the device model is not asked to say it.
constexpr mma::drawn::Mode ModeOf(uint64_t case_seed) {
  return static_cast<mma::drawn::Mode>(CounterDraw(case_seed, kModeStream) %
                                       mma::drawn::kFiniteModeCount);
}

// A (row, k) and B (n, k), n < 256: finite 16-bit patterns.
constexpr uint32_t ABits(uint64_t case_seed, int row, int k, uint32_t bf16, mma::drawn::Mode mode) {
  return mma::drawn::HalfBits(case_seed, mma::drawn::kA, row, k, bf16, mode);
}
constexpr uint32_t BBits(uint64_t case_seed, int n, int k, uint32_t bf16, mma::drawn::Mode mode) {
  return mma::drawn::HalfBits(case_seed, mma::drawn::kB, n, k, bf16, mode);
}

}  // namespace tcfuzz::oracle::tile::drawn
