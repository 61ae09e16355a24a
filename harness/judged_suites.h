// Every device-judged suite's launch (harness/judged_launch.h): what the host hands its kernel
// besides the range. Each derives JudgedRange, names its suite and declares its Kernel traits,
// defined beside its device code in harness/<suite>.cu; RunJudged and JudgedUnsupported take
// any of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "harness/dense_judged_lane.h"
#include "harness/judged_launch.h"
#include "harness/sparse_mma_exact_lane.h"
#include "harness/sparse_mma_judged_lane.h"
#include "harness/tcgen05_judged_lane.h"
#include "harness/wgmma_judged_lane.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

// dense-mma-judged: m16n8k16 f16/bf16 -> f32 cases in float value modes, drawn on the device and
// judged there by the bit-exact model's 64-bit path (dense_judged_lane.h) with the device's
// numerics row.
struct DenseJudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "dense-mma-judged";
  struct Kernel;  // harness/dense_judged.cu
  const DenseJudgedTable* table = nullptr;
  oracle::num::fast::Params f16, bf16;  // the row for each input type
};

// sparse-mma-exact: every case drawn on the device and checked there against its exact sum
// (sparse_mma_exact_lane.h); case w's table is tables[Pick(case seed, kVariant)].
struct SparseExactLaunch : JudgedRange {
  static constexpr const char* kSuite = "sparse-mma-exact";
  struct Kernel;  // harness/sparse_mma_exact.cu
  std::span<const SparseExactTable> tables;
};

// sparse-mma-judged: mma.sp cases of every instruction variant the small-integer suite runs, in
// float value modes, drawn on the device and judged there by the bit-exact model's 64-bit path
// (sparse_mma_judged_lane.h) with the device's numerics row; tables as sparse-mma-exact's.
struct SparseJudgedLaunch : JudgedRange {
  static constexpr const char* kSuite = "sparse-mma-judged";
  struct Kernel;  // harness/sparse_mma_judged.cu
  std::span<const SparseExactTable> tables;
  oracle::num::fast::Params f16, bf16;  // the row for each input type
};

// What the two descriptor-tile suites hand their kernels: the layouts a case picks from by its
// case seed, the device's rows for f16 and bf16 inputs, the image every layout was drawn inside.
template <class Layout>
struct TileJudgedLaunch : JudgedRange {
  std::span<const Layout> layouts;
  oracle::num::fast::Params f16, bf16;
  uint32_t image_bytes = 64 * 1024;
};

// smem-hw-judged: dense wgmma.mma_async m64nNk16 f16/bf16 -> f32 tiles with both operands in
// shared memory (sm_90a), one warpgroup per case. Each case picks its layout by its case seed,
// builds its shared-memory image on the device (poison, then every element where the oracle's
// map puts it: wgmma_judged_lane.h), issues the instruction with scale-d false, and judges every
// accumulator with the bit-exact model's finite path and the device's wgmma row. A kept case's D
// comes back thread-major: thread t's accumulator x at t * N/2 + x (WgmmaJudgedD unpacks it).
struct WgmmaJudgedLaunch : TileJudgedLaunch<WgmmaJudgedLayout> {
  static constexpr const char* kSuite = "smem-hw-judged";
  struct Kernel;  // harness/wgmma_judged.cu
};

// Whether n is one of kWgmmaJudgedNs.
bool WgmmaJudgedSpells(int n);

// D [64][n] row-major from a kept case's registers (thread-major, n/2 per thread).
std::vector<uint32_t> WgmmaJudgedD(std::span<const uint32_t> regs, int n);

// tcgen05-judged: dense tcgen05.mma and tcgen05.mma.ws (kind::f16, cta_group::1) M = 128,
// N = 8..128 f16/bf16 -> f32 tiles with both operands in shared memory (sm_100a), one CTA of four
// warps per case. Each case picks its layout by its case seed, builds its image on the device as
// smem-hw-judged does (tcgen05_judged_lane.h), allocates tensor memory, issues the instruction
// from one thread with enable-input-d false, commits to an mbarrier, reads D back with
// tcgen05.ld (warp w: lanes 32w..32w+31), judges every element with the bit-exact model's finite
// path and the device's tcgen05 row, and frees the tensor memory. Compiled and assembled
// everywhere; runs only where the device reports compute capability 10.0. A kept case's D comes
// back row-major, N words a row (thread t's columns).
struct Tcgen05JudgedLaunch : TileJudgedLaunch<Tcgen05JudgedLayout> {
  static constexpr const char* kSuite = "tcgen05-judged";
  struct Kernel;  // harness/tcgen05_judged.cu
};

}  // namespace tcfuzz::harness
