// What the descriptor-tile judged kernels (`smem-hw-judged` on wgmma, `tcgen05-judged`) share, as
// plain constexpr C++ that the kernels (nvcc --expt-relaxed-constexpr) and the host tests run: a
// case's A (M x K) and B (N x K) f16/bf16 elements follow from its case seed
// (oracle/tile/device_drawn_tile.h); each thread of the case's block places its share in the
// shared-memory image at the byte the oracle's address map names for the decoded descriptor
// (oracle/smem/address_map.h), every other byte holding poison (all ones: NaN in f16 and bf16), and
// keeps the decoded values, from which it judges its D elements through the bit-exact model's
// 64-bit path (oracle/numerics/fast_dot.h). The harness holds no layout rule itself.
#pragma once

#include <cstdint>

#include "oracle/numerics/fast_dot.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/swizzle.h"
#include "oracle/tile/device_drawn_tile.h"

namespace tcfuzz::harness {

inline constexpr int kTileJudgedK = 16;  // dense f16/bf16: 32 bytes of K
inline constexpr uint8_t kTileJudgedPoison = 0xFF;

// A decoded finite operand (the recipe draws no Inf or NaN for descriptor tiles) in one word
// (m: 12 bits, e + 512: 10 bits, sign), so a tile's A and B fit beside the image in shared memory.
constexpr uint32_t PackOperand(const oracle::num::fast::Operand& o) {
  return o.m | (static_cast<uint32_t>(o.e + 512) << 12) | (static_cast<uint32_t>(o.neg) << 31);
}
constexpr oracle::num::fast::Operand UnpackOperand(uint32_t w) {
  return {w & 0xFFFu, static_cast<int32_t>((w >> 12) & 0x3FFu) - 512, (w >> 31) != 0};
}

// A case's decoded operands: A row-major (row, k), B (n, k).
template <int M, int MaxN>
struct TileJudgedValues {
  uint32_t a[M][kTileJudgedK] = {};
  uint32_t b[MaxN][kTileJudgedK] = {};
};

// The view of A (`rows` = M) or B (`rows` = N): 32 bytes of 16-bit K.
constexpr oracle::smem::OperandView TileView(bool mn_major, bool bf16, int rows) {
  using oracle::smem::Major;
  return {mn_major ? Major::kMN : Major::kK,
          bf16 ? oracle::smem::DType::kBF16 : oracle::smem::DType::kF16, rows, 32};
}

// The image byte of element (row, k) of a descriptor's operand, as the oracle maps it (relative
// LBO mode: the layouts a judged table holds).
constexpr uint64_t ElementByte(const oracle::smem::SmemMatrix& m,
                               const oracle::smem::OperandView& v, int row, int k) {
  const uint64_t off = oracle::smem::CanonicalOffsetBits(m, v, row, k);
  return oracle::smem::SwizzleAddress(m.start + off / 8, m.swizzle, m.base_offset);
}

// Thread `thread` of `threads` places A elements thread, thread + threads, ... and then B's, into
// the image through `store(byte, bits)` (a 16-bit little-endian store; bytes past `image_bytes`
// are skipped, as the host's placement skips them), and their decoded values into `v`. The image
// must already hold the poison. `ma`, `mb`: the decoded descriptors; `va`, `vb`: their views.
template <class Values, class Store16>
constexpr void PlaceTileShare(const oracle::smem::SmemMatrix& ma,
                              const oracle::smem::OperandView& va,
                              const oracle::smem::SmemMatrix& mb,
                              const oracle::smem::OperandView& vb, uint32_t bf16, uint64_t cs,
                              int thread, int threads, uint64_t image_bytes, const Store16& store,
                              Values& v) {
  namespace wd = oracle::tile::drawn;
  const oracle::num::Format f = bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16;
  const oracle::mma::drawn::Mode mode = wd::ModeOf(cs);
  for (int which = 0; which < 2; ++which) {
    const oracle::smem::SmemMatrix& m = which ? mb : ma;
    const oracle::smem::OperandView& view = which ? vb : va;
    const int elements = view.rows * kTileJudgedK;
    for (int i = thread; i < elements; i += threads) {
      const int row = i / kTileJudgedK, k = i % kTileJudgedK;
      const uint32_t bits =
          which ? wd::BBits(cs, row, k, bf16, mode) : wd::ABits(cs, row, k, bf16, mode);
      oracle::num::fast::Operand o;
      oracle::num::fast::DecodeFinite(f, bits, o);  // finite by the recipe
      (which ? v.b[row][k] : v.a[row][k]) = PackOperand(o);
      const uint64_t byte = ElementByte(m, view, row, k);
      if (byte + 2 <= image_bytes) store(byte, bits);
    }
  }
}

// D(row, col) = A(row, :) · B(col, :) with the accumulator input off, from the packed rows.
constexpr uint32_t ExpectedTileD(const uint32_t* a, const uint32_t* b, uint32_t bf16,
                                 const oracle::num::fast::Params& p) {
  namespace fast = oracle::num::fast;
  const int frac =
      2 * fast::FracBits(bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16);
  // Finite operands (the recipe draws no Inf or NaN for descriptor tiles): the check is skipped.
  const auto at = [a, b](int k) {
    return fast::FactorValues{UnpackOperand(a[k]), UnpackOperand(b[k])};
  };
  return fast::DotOf<false>(at, kTileJudgedK, frac, 0u, p);
}

}  // namespace tcfuzz::harness
