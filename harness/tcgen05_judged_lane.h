// What one thread of the `tcgen05-judged` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code. A CTA of four warps runs
// one tcgen05.mma (or .ws) M = 128 tile: its layout is an entry of the launch's table (two
// descriptors drawn on the host by the tcgen05 generator, the instruction descriptor and, for .ws,
// the zero-column mask with the column map the oracle expands it to), its values follow from its
// case seed. Placing them and judging D are the descriptor-tile kernels' shared code
// (harness/tile_judged_lane.h), here with tcgen05's descriptor decode; thread t holds D's row t
// (tensor memory lane t), its columns in order.
#pragma once

#include <cstdint>

#include "harness/tile_judged_lane.h"
#include "oracle/tcgen05/smem_descriptor.h"

namespace tcfuzz::harness {

inline constexpr int kTcgen05JudgedM = 128, kTcgen05JudgedMaxN = 128;
inline constexpr int kTcgen05JudgedThreads = 128;  // thread t reads tensor memory lane t

// One entry of a launch's layout table: a dense M = 128 f16/bf16 -> f32 tile's descriptors (start
// addresses relative to the image: the kernel adds the buffer's shared address), its instruction
// descriptor (which carries N, the types and the majors), and for .ws its zero-column mask.
struct Tcgen05JudgedLayout {
  uint64_t desc_a = 0, desc_b = 0;
  uint64_t mask = 0;   // .ws: the zero-column mask operand
  uint32_t idesc = 0;  // oracle::tcgen05::EncodeInstrDescriptor
  uint16_t n = 64;     // 8..128, a multiple of 8
  uint8_t bf16 = 0;
  uint8_t mn_a = 0, mn_b = 0;  // MN-major (the descriptor's transpose bits)
  uint8_t ws = 0;
  // D column j is A · B row b_column[j]; -1: a column the mask zeroes (B reads +0). The identity
  // without .ws; with it, the oracle's expansion of the mask (oracle/tcgen05/zero_column_mask.h).
  int16_t b_column[kTcgen05JudgedMaxN] = {};
};

// The instructions the kernel spells (kind::f16, one CTA): macros, so the kernel's inline asm and
// the host test that holds them to the oracle's spellings read the same text.
#define TCFUZZ_TCGEN05_JUDGED_MMA "tcgen05.mma.cta_group::1.kind::f16"
#define TCFUZZ_TCGEN05_JUDGED_MMA_WS "tcgen05.mma.ws.cta_group::1.kind::f16"
inline constexpr const char* kTcgen05JudgedOpcode = TCFUZZ_TCGEN05_JUDGED_MMA;
inline constexpr const char* kTcgen05JudgedWsOpcode = TCFUZZ_TCGEN05_JUDGED_MMA_WS;

using Tcgen05JudgedValues = TileJudgedValues<kTcgen05JudgedM, kTcgen05JudgedMaxN>;

// Thread `thread`'s share of the image and of the decoded values (PlaceTileShare).
template <class Store16>
constexpr void PlaceTcgen05Share(const Tcgen05JudgedLayout& l, uint64_t cs, int thread,
                                 uint64_t image_bytes, const Store16& store,
                                 Tcgen05JudgedValues& v) {
  PlaceTileShare(oracle::tcgen05::DecodeMatrix(l.desc_a), TileView(l.mn_a, l.bf16, kTcgen05JudgedM),
                 oracle::tcgen05::DecodeMatrix(l.desc_b), TileView(l.mn_b, l.bf16, l.n), l.bf16, cs,
                 thread, kTcgen05JudgedThreads, image_bytes, store, v);
}

// D(row, col), enable-input-d false: A's row against the B row the column reads, or against +0
// where the mask zeroes the column (what the oracle's reference multiplies, so one model judges
// both).
constexpr uint32_t ExpectedTcgen05D(const Tcgen05JudgedLayout& l, const Tcgen05JudgedValues& v,
                                    int row, int col, const oracle::num::fast::Params& p) {
  const int from = l.b_column[col];
  if (from >= 0) return ExpectedTileD(v.a[row], v.b[from], l.bf16, p);
  oracle::num::fast::Operand zero;
  oracle::num::fast::DecodeFinite(l.bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16,
                                  0, zero);
  uint32_t zeros[kTileJudgedK] = {};
  for (uint32_t& z : zeros) z = PackOperand(zero);
  return ExpectedTileD(v.a[row], zeros, l.bf16, p);
}

}  // namespace tcfuzz::harness
