// What one thread of the `smem-hw-judged` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code. A warpgroup runs one
// wgmma tile: its layout is an entry of the launch's table (two descriptors drawn on the host by
// the smem-hw generator), its values follow from its case seed (oracle/wgmma/device_drawn_tile.h).
// Each thread places its share of A and B in the shared-memory image at the byte the oracle's
// address map names for the decoded descriptor (oracle/smem/address_map.h, the code the host
// oracle maps with), every other byte holding poison (all ones: NaN in f16 and bf16), and keeps
// the decoded values; after the instruction it judges its accumulators through the bit-exact
// model's 64-bit path (oracle/numerics/fast_dot.h) and wgmma's accumulator fragment
// (oracle/wgmma/wgmma_mma.h MapD). The harness holds no layout rule itself.
#pragma once

#include <cstdint>

#include "oracle/numerics/fast_dot.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/swizzle.h"
#include "oracle/wgmma/device_drawn_tile.h"
#include "oracle/wgmma/smem_descriptor.h"
#include "oracle/wgmma/wgmma_mma.h"

namespace tcfuzz::harness {

// One entry of a launch's layout table: a dense m64nNk16 f16/bf16 -> f32 tile's descriptors,
// their start addresses relative to the image (the kernel adds the buffer's shared address).
struct WgmmaJudgedLayout {
  uint64_t desc_a = 0, desc_b = 0;
  uint16_t n = 64;
  uint8_t bf16 = 0;
  uint8_t mn_a = 0, mn_b = 0;  // MN-major (imm-trans 1)
};

inline constexpr int kWgmmaJudgedM = 64, kWgmmaJudgedK = 16, kWgmmaJudgedMaxN = 256;
inline constexpr int kWgmmaJudgedThreads = 128;
// The N the kernel spells (wgmma's N is an immediate: one instruction each), those smem-hw draws.
inline constexpr int kWgmmaJudgedNs[] = {64, 8, 16, 128, 256, 24};
inline constexpr uint8_t kWgmmaJudgedPoison = 0xFF;

// A decoded finite operand (the recipe draws no Inf or NaN for wgmma) in one word (m: 12 bits,
// e + 512: 10 bits, sign), so a tile's A and B
// fit beside the image in shared memory (20 KiB instead of 60).
constexpr uint32_t PackOperand(const oracle::num::fast::Operand& o) {
  return o.m | (static_cast<uint32_t>(o.e + 512) << 12) | (static_cast<uint32_t>(o.neg) << 31);
}
constexpr oracle::num::fast::Operand UnpackOperand(uint32_t w) {
  return {w & 0xFFFu, static_cast<int32_t>((w >> 12) & 0x3FFu) - 512, (w >> 31) != 0};
}

struct WgmmaJudgedValues {
  uint32_t a[kWgmmaJudgedM][kWgmmaJudgedK] = {};     // row, k
  uint32_t b[kWgmmaJudgedMaxN][kWgmmaJudgedK] = {};  // n, k
};

// The view of A (rows M) or B (rows N): 32 bytes of 16-bit K.
constexpr oracle::smem::OperandView JudgedView(const WgmmaJudgedLayout& l, bool b) {
  using oracle::smem::Major;
  return {(b ? l.mn_b : l.mn_a) ? Major::kMN : Major::kK,
          l.bf16 ? oracle::smem::DType::kBF16 : oracle::smem::DType::kF16, b ? l.n : kWgmmaJudgedM,
          32};
}

// The image byte of element (row, k) of a descriptor's operand, as the oracle maps it.
constexpr uint64_t ElementByte(const oracle::smem::SmemMatrix& m,
                               const oracle::smem::OperandView& v, int row, int k) {
  const uint64_t off = oracle::smem::CanonicalOffsetBits(m, v, row, k);
  return oracle::smem::SwizzleAddress(m.start + off / 8, m.swizzle, m.base_offset);
}

// Thread `thread` of the warpgroup places A elements thread, thread + 128, ... and then B's, into
// the image through `store(byte, bits)` (a 16-bit little-endian store; bytes past `image_bytes`
// are skipped, as the host's placement skips them), and their decoded values into `v`. The image
// must already hold the poison.
template <class Store16>
constexpr void PlaceShare(const WgmmaJudgedLayout& l, uint64_t cs, int thread, uint64_t image_bytes,
                          const Store16& store, WgmmaJudgedValues& v) {
  namespace wd = oracle::wgmma::drawn;
  const oracle::num::Format f = l.bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16;
  const oracle::mma::drawn::Mode mode = wd::ModeOf(cs);
  for (int which = 0; which < 2; ++which) {
    const oracle::smem::SmemMatrix m = oracle::wgmma::DecodeMatrix(which ? l.desc_b : l.desc_a);
    const oracle::smem::OperandView view = JudgedView(l, which != 0);
    const int elements = view.rows * kWgmmaJudgedK;
    for (int i = thread; i < elements; i += kWgmmaJudgedThreads) {
      const int row = i / kWgmmaJudgedK, k = i % kWgmmaJudgedK;
      const uint32_t bits =
          which ? wd::BBits(cs, row, k, l.bf16, mode) : wd::ABits(cs, row, k, l.bf16, mode);
      oracle::num::fast::Operand o;
      oracle::num::fast::DecodeFinite(f, bits, o);  // finite by the recipe
      (which ? v.b[row][k] : v.a[row][k]) = PackOperand(o);
      const uint64_t byte = ElementByte(m, view, row, k);
      if (byte + 2 <= image_bytes) store(byte, bits);
    }
  }
}

// Accumulator `index` of thread `thread`: D(row, col) = A(row, :) · B(col, :) with scale-d false.
constexpr uint32_t ExpectedWgmmaD(const WgmmaJudgedLayout& l, const WgmmaJudgedValues& v,
                                  int thread, int index, const oracle::num::fast::Params& p) {
  namespace fast = oracle::num::fast;
  const oracle::wgmma::Coord d = oracle::wgmma::MapD(thread, index);
  const uint32_t* a = v.a[d.row];
  const uint32_t* b = v.b[d.col];
  const int frac =
      2 * fast::FracBits(l.bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16);
  // Finite operands (the recipe draws no Inf or NaN for wgmma): the check for them is skipped.
  const auto at = [a, b](int k) {
    return fast::FactorValues{UnpackOperand(a[k]), UnpackOperand(b[k])};
  };
  return fast::DotOf<false>(at, kWgmmaJudgedK, frac, 0u, p);
}

}  // namespace tcfuzz::harness
