// What one thread of the `smem-hw-judged` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code. A warpgroup runs one
// wgmma tile: its layout is an entry of the launch's table (two descriptors drawn on the host by
// the smem-hw generator), its values follow from its case seed; placing them and judging D are the
// descriptor-tile kernels' shared code (harness/tile_judged_lane.h), here with wgmma's descriptor
// decode and accumulator fragment (oracle/tile/descriptor_tile.h MapD).
#pragma once

#include <cstdint>

#include "harness/tile_judged_lane.h"
#include "oracle/tile/descriptor_tile.h"
#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::harness {

// One entry of a launch's layout table: a dense m64nNk16 f16/bf16 -> f32 tile's descriptors,
// their start addresses relative to the image (the kernel adds the buffer's shared address).
struct WgmmaJudgedLayout {
  uint64_t desc_a = 0, desc_b = 0;
  uint16_t n = 64;
  uint8_t bf16 = 0;
  uint8_t mn_a = 0, mn_b = 0;  // MN-major (imm-trans 1)
};

inline constexpr int kWgmmaJudgedM = 64, kWgmmaJudgedK = kTileJudgedK, kWgmmaJudgedMaxN = 256;
inline constexpr int kWgmmaJudgedThreads = 128;
// The N the kernel spells (wgmma's N is an immediate: one instruction each), those smem-hw draws.
inline constexpr int kWgmmaJudgedNs[] = {64, 8, 16, 128, 256, 24};
inline constexpr uint8_t kWgmmaJudgedPoison = kTileJudgedPoison;

using WgmmaJudgedValues = TileJudgedValues<kWgmmaJudgedM, kWgmmaJudgedMaxN>;

// Thread `thread` of the warpgroup's share of the image and of the decoded values
// (PlaceTileShare).
template <class Store16>
constexpr void PlaceShare(const WgmmaJudgedLayout& l, uint64_t cs, int thread, uint64_t image_bytes,
                          const Store16& store, WgmmaJudgedValues& v) {
  PlaceTileShare(oracle::wgmma::DecodeMatrix(l.desc_a), TileView(l.mn_a, l.bf16, kWgmmaJudgedM),
                 oracle::wgmma::DecodeMatrix(l.desc_b), TileView(l.mn_b, l.bf16, l.n), l.bf16, cs,
                 thread, kWgmmaJudgedThreads, image_bytes, store, v);
}

// Accumulator `index` of thread `thread`: D(row, col) = A(row, :) · B(col, :) with scale-d false.
constexpr uint32_t ExpectedWgmmaD(const WgmmaJudgedLayout& l, const WgmmaJudgedValues& v,
                                  int thread, int index, const oracle::num::fast::Params& p) {
  const oracle::tile::Coord d = oracle::tile::MapD(thread, index);
  return ExpectedTileD(v.a[d.row], v.b[d.col], l.bf16, p);
}

}  // namespace tcfuzz::harness
