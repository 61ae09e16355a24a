// The T-FDPA model against the discriminating vectors T1-T9 of the numerics reference §8
// (predictions derived there with an exact rational implementation), and its special values.
#include "oracle/numerics/dot_product.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "oracle/core/backing.h"

namespace tcfuzz::oracle::num {
namespace {

std::vector<uint64_t> Enc(Format f, const std::vector<double>& v) {
  std::vector<uint64_t> out;
  for (double x : v) out.push_back(FromDouble(f, x));
  return out;
}

uint32_t Dot(Gpu g, Instr i, Format ab, Format cd, const std::vector<double>& a,
             const std::vector<double>& b, double c = 0) {
  const DotParams p = *ParamsFor(g, i, ab, cd);
  return DotProduct(Enc(ab, a), Enc(ab, b), static_cast<uint32_t>(FromDouble(cd, c)), ab, ab, cd,
                    p);
}

std::vector<double> Rep(double first, double rest, int n) {
  std::vector<double> v(1, first);
  v.insert(v.end(), n, rest);
  return v;
}

const double k2m13 = std::ldexp(1.0, -13), k2m12 = std::ldexp(1.0, -12),
             k2m15 = std::ldexp(1.0, -15);

// Element bits wider than their format are named, never dropped: f16 holds 16 bits, e2m1 4,
// f32 32 (so C of an f16 -> f32 dot takes any 32-bit word).
TEST(BitsAboveStorage, NamesTheFirstWideValue) {
  const std::vector<uint64_t> ok = {0x3C00, 0xFFFF}, wide = {0x3C00, 0x13C00};
  EXPECT_EQ(BitsAboveStorage(ok, ok, 0xFFFFFFFF, Format::kF16, Format::kF32), std::nullopt);
  EXPECT_EQ(BitsAboveStorage(ok, wide, 0, Format::kF16, Format::kF32),
            "b[1]: 0x13c00 has bits above the 16 of f16");
  EXPECT_EQ(BitsAboveStorage(wide, wide, 0, Format::kF16, Format::kF32),
            "a[1]: 0x13c00 has bits above the 16 of f16");
  EXPECT_EQ(BitsAboveStorage(ok, ok, 0x10000, Format::kF16, Format::kF16),
            "c: 0x10000 has bits above the 16 of f16");
  const std::vector<uint64_t> fp4 = {0xF, 0x12};
  EXPECT_EQ(BitsAboveStorage(fp4, fp4, 0, Format::kE2M1, Format::kF32),
            "a[1]: 0x12 has bits above the 4 of e2m1");
}

TEST(DotProductVectors, T1_FractionBits25vs24) {
  const auto a = Rep(1, k2m13, 5), b = Rep(1, k2m12, 5);
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32, a, b), 0x3F800001u);
  EXPECT_EQ(Dot(Gpu::kSm80, Instr::kMma, Format::kF16, Format::kF32, a, b), 0x3F800000u);
}

TEST(DotProductVectors, T2_PerTermTruncationNotRzOfTheSum) {
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32, {1, -k2m15}, {1, k2m15}),
            0x3F800000u);
}

TEST(DotProductVectors, T3_Fp8KeepsThirteenBitsOnHopperTwentyFiveOnBlackwell) {
  const double x = std::ldexp(1.0, -7);
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kWgmma, Format::kE4M3, Format::kF32, {1, x}, {1, x}),
            0x3F800000u);
  EXPECT_EQ(Dot(Gpu::kSm100, Instr::kTcgen05, Format::kE4M3, Format::kF32, {1, x}, {1, x}),
            0x3F800200u);
}

TEST(DotProductVectors, T4_StickyBitsLostBeforeRne) {
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF16, {std::ldexp(1.0, -11), k2m15},
                {1, k2m15}, 1.0),
            0x3C00u);
}

TEST(DotProductVectors, T5_Fp8TruncatesEvenC) {
  const double c = 1 + std::ldexp(1.0, -20);
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kWgmma, Format::kE4M3, Format::kF32, {0}, {0}, c), 0x3F800000u);
  EXPECT_EQ(Dot(Gpu::kSm100, Instr::kTcgen05, Format::kE4M3, Format::kF32, {0}, {0}, c),
            0x3F800008u);
}

TEST(DotProductVectors, T6_ExponentOfZeroTerms) {
  const double a0 = std::ldexp(1.0, -70), a1 = -std::ldexp(1.0, -80), b1 = std::ldexp(1.0, -80);
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kBF16, Format::kF32, {a0, a1}, {a0, b1}),
            0x00000200u);
  EXPECT_EQ(Dot(Gpu::kSm80, Instr::kMma, Format::kBF16, Format::kF32, {a0, a1}, {a0, b1}),
            0x00000200u);
}

TEST(DotProductVectors, T7_AmpereSplitsK16IntoTwoBlocks) {
  std::vector<double> v(16, 0);
  for (int k = 0; k < 8; ++k) v[k] = k2m13;
  v[8] = 1;
  EXPECT_EQ(Dot(Gpu::kSm80, Instr::kMma, Format::kF16, Format::kF32, v, v), 0x3F800001u);
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32, v, v), 0x3F800000u);
}

TEST(DotProductVectors, T8_ProductsNotRenormalisedBeforeAlignment) {
  EXPECT_EQ(Dot(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32, Rep(1.5, k2m13, 15),
                Rep(1.5, k2m12, 15)),
            0x40100001u);
  EXPECT_EQ(Dot(Gpu::kSm80, Instr::kMma, Format::kF16, Format::kF32, Rep(1.5, k2m12, 7),
                Rep(1.5, k2m12, 7)),
            0x40100001u);
}

TEST(DotProductVectors, T9_SaturationOnceOnTheFinalSum) {
  std::vector<uint64_t> a(32), b(32);
  for (int k = 0; k < 32; ++k) {
    a[k] = 127;
    b[k] = k < 16 ? 127 : static_cast<uint64_t>(static_cast<uint8_t>(-127));
  }
  EXPECT_EQ(IntDotProduct(a, b, 2147483547, Format::kS8, Format::kS8, true), 2147483547);
  EXPECT_EQ(IntDotProduct(a, b, 2147483547, Format::kS8, Format::kS8, false), 2147483547);
  // Overflow: wrap without .satfinite, clamp with it.
  const std::vector<uint64_t> big(1, 127);
  EXPECT_EQ(IntDotProduct(big, big, 2147483647, Format::kS8, Format::kS8, true), 2147483647);
  EXPECT_EQ(IntDotProduct(big, big, 2147483647, Format::kS8, Format::kS8, false), -2147467520);
  const std::vector<uint64_t> f(1, 0xF);
  EXPECT_EQ(IntDotProduct(f, f, 0, Format::kU4, Format::kS4, false), -15);
}

// sm_90 and sm_100 mma.sync with fp8 are two f16 MMAs from +0 and an add of C (R90-mma-fp8,
// R100-mma-fp8). Values derived by hand, each chosen so that the nearest wrong reading differs.
TEST(DotProductVectors, Fp8MmaIsTwoF16MmasThenCRoundedToNearest) {
  for (Gpu g : {Gpu::kSm90, Gpu::kSm100}) {
    const auto f32 = ParamsFor(g, Instr::kMma, Format::kE4M3, Format::kF32);
    const auto f16 = ParamsFor(g, Instr::kMma, Format::kE4M3, Format::kF16);
    ASSERT_TRUE(f32 && f16) << Name(g);
    // C added last, rounded to nearest: 1.0 + 1.5 * 2^-24 is 0.75 of f32's ulp at 1, so RN gives
    // 1 + 2^-23 (0x3F800001); C fused into the block and truncated (RZ) would give 1.0.
    std::vector<uint64_t> a(32, 0), b(32, 0);
    a[0] = b[0] = 0x38;  // e4m3 1.0
    EXPECT_EQ(DotProduct(a, b, 0x33C00000u, Format::kE4M3, Format::kE4M3, Format::kF32, *f32),
              0x3F800001u)
        << Name(g);
    // The groups are k / 2 even then odd, not k < 16 then k >= 16: 2048 (32 x 64 at k = 0) and
    // 1s at k = 2, 16 and 17, f16 D with C = +0. Groups by k / 2: {2048, 1, 1} = 2050 exact, then
    // 2050 + 1 = 2051, a tie between 2050 and 2052 that goes to even 2052 (0x6802). Halves would
    // give 2048 + 1 -> 2048 (tie to even), then 2048 + 2 = 2050 (0x6801).
    a.assign(32, 0);
    b.assign(32, 0);
    a[0] = 0x60;  // 32
    b[0] = 0x68;  // 64
    for (int k : {2, 16, 17}) a[k] = b[k] = 0x38;
    EXPECT_EQ(DotProduct(a, b, 0, Format::kE4M3, Format::kE4M3, Format::kF16, *f16), 0x6802u)
        << Name(g);
  }
}

// One IEEE addition rounded to nearest even (FADD, HADD2), derived by hand.
TEST(DotProductSpecials, AddRoundedToNearest) {
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x3F800000u, 0x33800000u),
            0x3F800000u);  // 1 + 2^-24: tie, even
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x3F800001u, 0x33800000u),
            0x3F800002u);  // tie, up to even
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x3F800000u, 0xB3000000u), 0x3F800000u);  // 1 - 2^-25
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x3F800000u, 0x0B800000u), 0x3F800000u);  // far apart
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x7F7FFFFFu, 0x7F7FFFFFu),
            0x7F800000u);                                                      // overflow: Inf
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x3F800000u, 0xBF800000u), 0u);  // x - x = +0
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x80000000u, 0x80000000u), 0x80000000u);  // -0 + -0
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x80000000u, 0u), 0u);
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x00000001u, 0x00000001u),
            0x00000002u);  // subnormals
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x7F800000u, 0xFF800000u), kF32NaN);
  EXPECT_EQ(AddRoundedToNearest(Format::kF32, 0x7FC00001u, 0u), kF32NaN);
  EXPECT_EQ(AddRoundedToNearest(Format::kF16, 0x6800u, 0x3C00u), 0x6800u);  // 2048 + 1: tie, even
  EXPECT_EQ(AddRoundedToNearest(Format::kF16, 0x6801u, 0x3C00u), 0x6802u);  // 2050 + 1: tie, up
  EXPECT_EQ(AddRoundedToNearest(Format::kF16, 0x7BFFu, 0x7BFFu), 0x7C00u);  // 65504 * 2: Inf
  EXPECT_EQ(AddRoundedToNearest(Format::kF16, 0xFC00u, 0x3C00u), 0xFC00u);
}

TEST(DotProductSpecials, NaNInfAndSignedZero) {
  const DotParams p = *ParamsFor(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32);
  const auto dot = [&](std::vector<uint64_t> a, std::vector<uint64_t> b, uint32_t c) {
    return DotProduct(a, b, c, Format::kF16, Format::kF16, Format::kF32, p);
  };
  EXPECT_EQ(dot({0x7E00}, {0x3C00}, 0), kF32NaN);                  // NaN input
  EXPECT_EQ(dot({0x7C00}, {0x0000}, 0), kF32NaN);                  // Inf x 0
  EXPECT_EQ(dot({0x7C00, 0xFC00}, {0x3C00, 0x3C00}, 0), kF32NaN);  // +Inf + -Inf
  EXPECT_EQ(dot({0x7C00}, {0xBC00}, 0), 0xFF800000u);              // -Inf
  EXPECT_EQ(dot({0x3C00}, {0x3C00}, 0xFF800000u), 0xFF800000u);    // C = -Inf
  EXPECT_EQ(dot({0x8000}, {0x3C00}, 0x80000000u),
            0x00000000u);  // -0 + -0 = +0 on sm_90 mma (H100, N4)
  EXPECT_EQ(dot({0x8000}, {0x3C00}, 0x00000000u), 0x00000000u);  // -0 + +0 = +0
  EXPECT_EQ(dot({0x3C00}, {0x3C00}, 0xBF800000u), 0x00000000u);  // 1 - 1 = +0
  // The IEEE sign where a row keeps it (sm_100 mma: the models' choice, not measured).
  const DotParams w = *ParamsFor(Gpu::kSm100, Instr::kMma, Format::kF16, Format::kF32);
  EXPECT_TRUE(w.negative_zero);
  EXPECT_EQ(DotProduct(std::vector<uint64_t>{0x8000}, std::vector<uint64_t>{0x3C00}, 0x80000000u,
                       Format::kF16, Format::kF16, Format::kF32, w),
            0x80000000u);  // -0 + -0 = -0
  // sm_90 wgmma gives +0 like mma (H100, N6).
  EXPECT_FALSE(ParamsFor(Gpu::kSm90, Instr::kWgmma, Format::kF16, Format::kF32)->negative_zero);
  // A negative sum below the smallest f32 subnormal: -0 under RZ, +0 from the H100's mma
  // (corpus/sparse_mma/h100/n4_tf32_m16n8k8_signed_zero.txt, D[12][0]). tf32 subnormals
  // 2^-136 * -2^-136 = -2^-272.
  const std::vector<uint64_t> tiny{0x00002000}, minus_tiny{0x80002000};
  const DotParams mma_tf32 = *ParamsFor(Gpu::kSm90, Instr::kMma, Format::kTF32, Format::kF32);
  const DotParams ieee_tf32 = *ParamsFor(Gpu::kSm100, Instr::kMma, Format::kTF32, Format::kF32);
  EXPECT_EQ(DotProduct(tiny, minus_tiny, 0x80000000u, Format::kTF32, Format::kTF32, Format::kF32,
                       ieee_tf32),
            0x80000000u);
  EXPECT_EQ(DotProduct(tiny, minus_tiny, 0x80000000u, Format::kTF32, Format::kTF32, Format::kF32,
                       mma_tf32),
            0x00000000u);
  // e4m3 has no Inf: its NaN is S.1111.111.
  const DotParams q = *ParamsFor(Gpu::kSm90, Instr::kWgmma, Format::kE4M3, Format::kF32);
  EXPECT_EQ(DotProduct(std::vector<uint64_t>{0x7F}, std::vector<uint64_t>{0x38}, 0, Format::kE4M3,
                       Format::kE4M3, Format::kF32, q),
            kF32NaN);
}

TEST(DotProductSpecials, RzOverflowIsInfinity) {
  const DotParams p = *ParamsFor(Gpu::kSm90, Instr::kMma, Format::kBF16, Format::kF32);
  const uint64_t big = FromDouble(Format::kBF16, std::ldexp(1.0, 100));
  EXPECT_EQ(DotProduct(std::vector<uint64_t>{big, big}, std::vector<uint64_t>{big, big}, 0,
                       Format::kBF16, Format::kBF16, Format::kF32, p),
            0x7F800000u);
}

// Past the hardware's rows: F = 61 keeps every bit of these products (exponents within [-8, 8],
// 22-bit significands), and one block of 130 (past the stack buffers) sums them exactly, so D is
// the exact sum (a double holds it) truncated toward zero to f32.
TEST(DotProductWide, EveryBitKeptIsTheExactSumTruncated) {
  DotParams p;
  p.F = 61;
  p.L = 130;
  std::vector<double> a, b;
  double sum = 0;
  for (int k = 0; k < 130; ++k) {
    const double x =
        std::ldexp(1 + ((k * 37) % 1024) / 1024.0, (k % 9) - 4) * (k % 3 == 0 ? -1 : 1);
    const double y = std::ldexp(1 + ((k * 91) % 1024) / 1024.0, (k % 7) - 3);
    a.push_back(x);
    b.push_back(y);
    sum += x * y;
  }
  float rz = static_cast<float>(sum);
  if (std::fabs(static_cast<double>(rz)) > std::fabs(sum)) rz = std::nextafter(rz, 0.0f);
  ASSERT_NE(static_cast<double>(rz), sum);  // the truncation to f32 matters here
  const uint32_t d = DotProduct(Enc(Format::kF16, a), Enc(Format::kF16, b), 0, Format::kF16,
                                Format::kF16, Format::kF32, p);
  EXPECT_EQ(ToDouble(Format::kF32, d), static_cast<double>(rz));
}

TEST(DotProductParams, OpenRowsAreMarked) {
  const auto backing = [](Gpu g, Instr i, Format ab, Format cd) {
    return BackingOf(ParamsFor(g, i, ab, cd)->row, Name(g));
  };
  // H100 (2026-11-25): mma.sync fp8 is two f16 MMAs and an add; wgmma fp8 with a nonzero C agreed
  // with its rows for f32 and f16 D.
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kMma, Format::kE4M3, Format::kF32), Backing::kHardware);
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kMma, Format::kE5M2, Format::kF16), Backing::kHardware);
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kWgmma, Format::kE4M3, Format::kF32), Backing::kHardware);
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kWgmma, Format::kE4M3, Format::kF16), Backing::kHardware);
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kWgmma, Format::kE5M2, Format::kF16), Backing::kHardware);
  EXPECT_EQ(backing(Gpu::kSm100, Instr::kTcgen05, Format::kF16, Format::kF32),
            Backing::kHypothesis);  // no run
  EXPECT_EQ(backing(Gpu::kSm100, Instr::kMma, Format::kTF32, Format::kF32),
            Backing::kHardware);  // B200 captures
  EXPECT_EQ(backing(Gpu::kSm100, Instr::kMma, Format::kE4M3, Format::kF32),
            Backing::kHardware);  // B200 captures
  EXPECT_EQ(backing(Gpu::kSm90, Instr::kMma, Format::kE4M3, Format::kF32) == Backing::kHardware,
            BackingOf("R90-mma-fp8", "sm_100") == Backing::kHypothesis);  // seen where seen only
  EXPECT_FALSE(ParamsFor(Gpu::kSm80, Instr::kMma, Format::kBF16, Format::kF16).has_value());
}

// Every row names a numerics reading of the one table; a hardware row is hardware on its own
// target and on no other.
TEST(DotProductParams, EveryRowNamesItsReading) {
  ASSERT_FALSE(NumericsRows().empty());
  for (const NumericsRow& r : NumericsRows()) {
    const BackedReading* reading = FindReading(r.params.row);
    ASSERT_NE(reading, nullptr) << Name(r.gpu) << " " << Name(r.instr) << " " << Name(r.ab);
    EXPECT_EQ(reading->topic, "numerics") << reading->id;
    if (reading->backing == Backing::kHardware) {
      EXPECT_EQ(BackingOf(reading->id, Name(r.gpu)), Backing::kHardware) << reading->id;
      for (Gpu other : {Gpu::kSm70, Gpu::kSm80, Gpu::kSm89, Gpu::kSm90, Gpu::kSm100}) {
        if (other != r.gpu) {
          EXPECT_EQ(BackingOf(reading->id, Name(other)), Backing::kHypothesis) << reading->id;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::num
