// The 64-bit dot product (oracle/numerics/fast_dot.h) against the general 128-bit model
// (DotProduct over Decoded operands, which never takes the fast path) on every row it serves:
// random patterns weighted toward the cases where the two could part (subnormals, the largest
// exponents, exact cancellation, every product zero, tiny negative sums, C near overflow, C Inf
// or NaN), over block lengths that are and are not multiples of L. The hardware captures
// (captures_test.cc) and the GPU tests go through the fast path too, since DotProduct and
// TileMma take it.
#include "oracle/numerics/fast_dot.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/tile_mma.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::oracle::num {
namespace {

// A finite pattern of `f` (no Inf/NaN), drawn from a few regimes.
uint64_t Draw(std::mt19937_64& rng, Format f) {
  const int p = fast::FracBits(f), eb = f == Format::kF16 ? 5 : 8;
  const uint32_t emax_field = (1u << eb) - 2;
  const uint64_t sign = rng() & 1, frac = rng() & ((uint64_t{1} << p) - 1);
  uint64_t exp;
  switch (rng() % 6) {
    case 0:
      exp = 0;
      break;  // zero or subnormal
    case 1:
      exp = emax_field - rng() % 3;
      break;  // near overflow
    case 2:
      exp = 1 + rng() % 3;
      break;  // smallest normals
    case 3:
      exp = (1u << (eb - 1)) - 1 + rng() % 5 - 2;
      break;  // near 1
    default:
      exp = 1 + rng() % emax_field;
      break;  // anywhere
  }
  uint64_t bits = (sign << (p + eb)) | (exp << p) | (rng() % 8 == 0 ? 0 : frac);
  if (f == Format::kTF32) bits = (bits << 13) | (rng() & 0x1FFF);  // low bits ignored
  return bits;
}

uint32_t DrawC(std::mt19937_64& rng, Format cd) {
  const bool h = cd == Format::kF16;
  switch (rng() % 8) {
    case 0:
      return 0;
    case 1:
      return h ? 0x8000u : 0x80000000u;
    case 2: {
      const auto sign = static_cast<uint32_t>(rng() & 1);
      return h ? 0x7C00u | (sign << 15) : 0x7F800000u | (sign << 31);  // Inf
    }
    case 3:
      return h ? 0x7E00u : 0x7FC00000u;  // NaN
    case 4:
      return h ? 0x7BFFu : 0x7F7FFFFFu;  // the largest finite
    case 5:
      return static_cast<uint32_t>(rng()) & (h ? 0x83FFu : 0x807FFFFFu);  // subnormal
    default:
      return static_cast<uint32_t>(rng()) & (h ? 0xFFFFu : 0xFFFFFFFFu) &
             (h ? 0xFBFFu : 0xFF7FFFFFu);  // any finite
  }
}

TEST(FastDot, AgreesWithTheGeneralModel) {
  std::mt19937_64 rng(test::Seed());
  int rows = 0;
  for (const NumericsRow& row : NumericsRows()) {
    fast::Params fp;
    if (!fast::Supported(row.ab) || !fast::ParamsOf(row.params, row.cd, fp)) continue;
    ++rows;
    for (int trial = 0; trial < 4000; ++trial) {
      const int n = trial % 4 == 0 ? static_cast<int>(rng() % 65) : 16 * (1 + trial % 2);
      std::vector<uint64_t> a(n), b(n);
      for (int k = 0; k < n; ++k) a[k] = Draw(rng, row.ab), b[k] = Draw(rng, row.ab);
      if (trial % 5 == 1) {  // exact cancellation: b[k + 1] = -b[k], a equal
        for (int k = 0; k + 1 < n; k += 2) {
          a[k + 1] = a[k];
          b[k + 1] = b[k] ^ (row.ab == Format::kTF32 ? 0x80000000u : 0x8000u);
        }
      }
      if (trial % 7 == 3 && n > 0) {  // Inf and NaN among the operands (and Inf x 0)
        const uint64_t inf = row.ab == Format::kF16    ? 0x7C00
                             : row.ab == Format::kBF16 ? 0x7F80
                                                       : 0x7F800000;
        const uint64_t nan = row.ab == Format::kTF32 ? 0x7FC00000 : inf | (inf >> 1 & ~inf);
        const uint64_t sign = row.ab == Format::kTF32 ? 0x80000000 : 0x8000;
        for (int j = 0; j < 1 + static_cast<int>(rng() % 3); ++j) {
          const int k = static_cast<int>(rng() % static_cast<uint64_t>(n));
          const uint64_t pick = rng() % 4;
          (rng() & 1 ? a[k] : b[k]) = (pick == 0   ? nan
                                       : pick == 3 ? 0
                                                   : inf) |
                                      (rng() & 1 ? sign : 0);
        }
      }
      const uint32_t c = DrawC(rng, row.cd);
      std::vector<Decoded> da(n), db(n);
      std::vector<fast::Operand> fa(n), fb(n);
      for (int k = 0; k < n; ++k) {
        da[k] = Decode(row.ab, a[k]), db[k] = Decode(row.ab, b[k]);
        fast::Decode(row.ab, a[k], fa[k]);
        fast::Decode(row.ab, b[k], fb[k]);
      }
      const uint32_t want = DotProduct(da, db, c, row.cd, row.params);
      // Dot (finite operands, the host's path) where they are finite; DotOf (any) always.
      const int frac = 2 * fast::FracBits(row.ab);
      const uint32_t got = fast::DotOf(
          [&](int k) {
            return fast::Factors{fa.data() + k, fb.data() + k};
          },
          n, frac, c, fp);
      if (trial % 7 != 3) {
        ASSERT_EQ(fast::Dot(fa.data(), fb.data(), n, frac, c, fp), got) << "trial " << trial;
      }
      ASSERT_EQ(got, want) << Name(row.gpu) << " " << Name(row.instr) << " " << Name(row.ab) << "->"
                           << Name(row.cd) << " n " << n << " trial " << trial;
    }
  }
  EXPECT_GE(rows, 20);  // every f16/bf16/tf32 row of every GPU
}

// Hand-derived values through the fast path alone (sm_90 f16 -> f32: F 25, L 16, RZ).
TEST(FastDot, HandDerivedValues) {
  const fast::Params p{25, 16, -133, false, false};
  fast::Operand one, two, tiny, neg_one;
  ASSERT_TRUE(fast::DecodeFinite(Format::kF16, 0x3C00, one));      // 1.0
  ASSERT_TRUE(fast::DecodeFinite(Format::kF16, 0x4000, two));      // 2.0
  ASSERT_TRUE(fast::DecodeFinite(Format::kF16, 0x0001, tiny));     // 2^-24
  ASSERT_TRUE(fast::DecodeFinite(Format::kF16, 0xBC00, neg_one));  // -1.0
  const fast::Operand a[2] = {one, two}, b[2] = {two, two};
  EXPECT_EQ(fast::Dot(a, b, 2, 20, 0x3F800000u, p), 0x40E00000u);  // 1 + 1*2 + 2*2 = 7
  // 1*1 + 2^-24*2^-24: the tiny product is 2^-48, 48 bits below the largest exponent, past
  // F = 25: truncated away, D = 1.0 exactly.
  const fast::Operand c[2] = {one, tiny}, d[2] = {one, tiny};
  EXPECT_EQ(fast::Dot(c, d, 2, 20, 0, p), 0x3F800000u);
  // 1*1 + (-1)*1 = 0: +0 (sm_90: a zero D is +0).
  const fast::Operand e[2] = {one, neg_one}, f[2] = {one, one};
  EXPECT_EQ(fast::Dot(e, f, 2, 20, 0, p), 0u);
  // C = +Inf with finite products stays +Inf; C = NaN gives the canonical NaN.
  EXPECT_EQ(fast::Dot(a, b, 2, 20, 0x7F800000u, p), 0x7F800000u);
  EXPECT_EQ(fast::Dot(a, b, 2, 20, 0x7FC00001u, p), kF32NaN);
  // Inf and NaN operands through DotOf (dot_product.cc's rules, spelled out): Inf x 2 + 1 x 2 =
  // +Inf; with C = -Inf, NaN; -Inf x 2 beside +Inf x 2, NaN; Inf x 0, NaN; a NaN operand, NaN.
  fast::Operand inf, neg_inf, zero, qnan;
  fast::Decode(Format::kF16, 0x7C00, inf);
  fast::Decode(Format::kF16, 0xFC00, neg_inf);
  fast::Decode(Format::kF16, 0x0000, zero);
  fast::Decode(Format::kF16, 0x7E00, qnan);
  EXPECT_FALSE(fast::DecodeFinite(Format::kF16, 0x7C00, inf));
  const auto any = [&p](const fast::Operand* xa, const fast::Operand* xb, int n, uint32_t xc) {
    return fast::DotOf([xa, xb](int k) { return fast::Factors{xa + k, xb + k}; }, n, 20, xc, p);
  };
  const fast::Operand g[2] = {inf, one};
  EXPECT_EQ(any(g, b, 2, 0x3F800000u), 0x7F800000u);
  EXPECT_EQ(any(g, b, 2, 0xFF800000u), kF32NaN);
  const fast::Operand h[2] = {inf, neg_inf};
  EXPECT_EQ(any(h, b, 2, 0), kF32NaN);
  const fast::Operand i[2] = {inf, one}, j[2] = {zero, one};
  EXPECT_EQ(any(i, j, 2, 0), kF32NaN);
  const fast::Operand q[2] = {one, qnan};
  EXPECT_EQ(any(q, b, 2, 0), kF32NaN);
  // -Inf in the first block of 16 reaches the second as its C and stays: -Inf.
  std::vector<fast::Operand> x(32, one), y(32, one);
  x[3] = neg_inf;
  EXPECT_EQ(any(x.data(), y.data(), 32, 0), 0xFF800000u);
}

// A tile with an Inf in one row: that row's outputs leave the fast path and match the general
// model; the others stay on it.
TEST(FastDot, TilesWithSpecialValuesFallBack) {
  std::mt19937_64 rng(test::Seed() + 1);
  const auto params = ParamsFor(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32);
  ASSERT_TRUE(params.has_value());
  std::vector<uint64_t> a(16 * 16), b(16 * 8);
  std::vector<uint32_t> c(16 * 8);
  for (auto& x : a) x = Draw(rng, Format::kF16);
  for (auto& x : b) x = Draw(rng, Format::kF16);
  for (auto& x : c) x = static_cast<uint32_t>(rng()) & 0x3FFFFFFFu;
  a[3 * 16 + 5] = 0x7C00;  // +Inf in row 3
  a[7 * 16 + 2] = 0x7E01;  // NaN in row 7
  TileMmaSpec s;
  s.fa = s.fb = Format::kF16;
  s.cd = Format::kF32;
  s.params = *params;
  s.m = 16, s.n = 8, s.stored = 16;
  s.a = a, s.b = b, s.b_k_stride = 8, s.c = c;
  const std::vector<uint32_t> d = TileMma(s);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 8; ++j) {
      std::vector<Decoded> ra(16), cb(16);
      for (int k = 0; k < 16; ++k) {
        ra[k] = Decode(Format::kF16, a[i * 16 + k]);
        cb[k] = Decode(Format::kF16, b[k * 8 + j]);
      }
      ASSERT_EQ(d[i * 8 + j], DotProduct(ra, cb, c[i * 8 + j], Format::kF32, *params))
          << i << "," << j;
    }
  }
  EXPECT_EQ(d[7 * 8] & 0x7FFFFFFFu, kF32NaN);  // the NaN row
  s.general_only = true;                       // the general model alone gives the same tile
  EXPECT_EQ(TileMma(s), d);
}

}  // namespace
}  // namespace tcfuzz::oracle::num
