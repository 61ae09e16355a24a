// Number formats against independent paths: every 16-, 8-, 6- and 4-bit pattern decoded and
// compared with the textbook formula (evaluated in long double), the compiler's own _Float16 and
// float conversions, and encode checked as "nearest representable value" by brute force.
#include "oracle/numerics/formats.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

namespace tcfuzz::oracle::num {
namespace {

// The textbook value of a bit pattern, computed from its fields with long double arithmetic.
long double Formula(int exp_bits, int frac_bits, int bias, uint64_t bits) {
  const int width = 1 + exp_bits + frac_bits;
  const bool neg = (bits >> (width - 1)) & 1;
  const uint64_t exp = (bits >> frac_bits) & ((1u << exp_bits) - 1);
  const uint64_t frac = bits & ((uint64_t{1} << frac_bits) - 1);
  const long double f = static_cast<long double>(frac) / std::pow(2.0L, frac_bits);
  const long double v = exp == 0 ? f * std::pow(2.0L, 1 - bias)
                                 : (1 + f) * std::pow(2.0L, static_cast<int>(exp) - bias);
  return neg ? -v : v;
}

struct Small {
  Format f;
  int exp_bits, frac_bits, bias;
};

class SmallFormats : public ::testing::TestWithParam<Small> {};

TEST_P(SmallFormats, EveryPatternDecodesToItsTextbookValue) {
  const Small s = GetParam();
  const int width = 1 + s.exp_bits + s.frac_bits;
  for (uint64_t bits = 0; bits < (uint64_t{1} << width); ++bits) {
    const double got = ToDouble(s.f, bits);
    const uint64_t exp = (bits >> s.frac_bits) & ((1u << s.exp_bits) - 1);
    const uint64_t frac = bits & ((uint64_t{1} << s.frac_bits) - 1);
    const bool top = exp == (1u << s.exp_bits) - 1;
    if (s.f == Format::kE4M3 && top && frac == 7) {
      ASSERT_TRUE(std::isnan(got)) << bits;  // S.1111.111 is e4m3's only NaN, no Inf
    } else if ((s.f == Format::kF16 || s.f == Format::kBF16 || s.f == Format::kE5M2) && top) {
      ASSERT_TRUE(frac == 0 ? std::isinf(got) : std::isnan(got)) << bits;
    } else {
      ASSERT_EQ(static_cast<long double>(got), Formula(s.exp_bits, s.frac_bits, s.bias, bits))
          << bits;
      // Encoding the value again gives the same pattern (zeros keep their sign).
      ASSERT_EQ(FromDouble(s.f, got), bits) << bits;
    }
  }
}

TEST_P(SmallFormats, EncodeIsTheNearestValueTiesToEven) {
  const Small s = GetParam();
  const int width = 1 + s.exp_bits + s.frac_bits;
  std::vector<std::pair<double, uint64_t>> finite;
  for (uint64_t bits = 0; bits < (uint64_t{1} << width); ++bits) {
    const double v = ToDouble(s.f, bits);
    if (std::isfinite(v) && !(v == 0 && std::signbit(v))) finite.push_back({v, bits});
  }
  double max_finite = 0;
  for (const auto& [v, b] : finite) max_finite = std::max(max_finite, v);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  const int iterations = width > 8 ? 1500 : 20000;  // 16-bit formats: a 65536-value scan each
  for (int i = 0; i < iterations; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double x = std::ldexp(static_cast<double>(state >> 11) / 9007199254740992.0,
                                static_cast<int>(state % 40) - 20) *
                     max_finite / 4;
    if (std::fabs(x) > max_finite) continue;
    double best = 0;
    uint64_t best_bits = 0;
    double best_err = INFINITY;
    for (const auto& [v, b] : finite) {
      const double err = std::fabs(v - x);
      const bool even = (b & 1) == 0;
      if (err < best_err || (err == best_err && even)) {
        best_err = err;
        best = v;
        best_bits = b;
      }
    }
    ASSERT_EQ(ToDouble(s.f, FromDouble(s.f, x)), best) << "x = " << x << " best " << best_bits;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Exhaustive, SmallFormats,
    ::testing::Values(Small{Format::kF16, 5, 10, 15}, Small{Format::kBF16, 8, 7, 127},
                      Small{Format::kE4M3, 4, 3, 7}, Small{Format::kE5M2, 5, 2, 15},
                      Small{Format::kE3M2, 3, 2, 3}, Small{Format::kE2M3, 2, 3, 1},
                      Small{Format::kE2M1, 2, 1, 1}),
    [](const auto& p) { return std::string(Name(p.param.f)); });

TEST(Formats, OcpSmallFormatMaxima) {
  EXPECT_EQ(ToDouble(Format::kE4M3, 0x7E), 448.0);
  EXPECT_EQ(ToDouble(Format::kE5M2, 0x7B), 57344.0);
  EXPECT_EQ(ToDouble(Format::kE3M2, 0x1F), 28.0);
  EXPECT_EQ(ToDouble(Format::kE2M3, 0x1F), 7.5);
  EXPECT_EQ(ToDouble(Format::kE2M1, 0x7), 6.0);
  EXPECT_EQ(FromDouble(Format::kE4M3, 1e6), 0x7Eu);  // saturates: e4m3 has no Inf
  EXPECT_EQ(FromDouble(Format::kF16, 1e6), 0x7C00u);
}

// The compiler's own half type as an independent path: g++ has it on x86-64; clang 14 (the fuzz
// preset) does not, and there the exhaustive formula checks above still run.
#if defined(__FLT16_MAX__)
TEST(Formats, F16AgreesWithTheCompilersHalfConversion) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    _Float16 h;
    const uint16_t b16 = static_cast<uint16_t>(bits);
    std::memcpy(&h, &b16, 2);
    const double ours = ToDouble(Format::kF16, bits);
    if (std::isnan(ours)) {
      ASSERT_TRUE(std::isnan(static_cast<double>(h)));
    } else {
      ASSERT_EQ(ours, static_cast<double>(h)) << bits;
    }
  }
}

RC_GTEST_PROP(FormatsProps, F16EncodeMatchesTheCompiler, (float x)) {
  const _Float16 h = static_cast<_Float16>(x);  // the compiler's round-to-nearest-even
  uint16_t want;
  std::memcpy(&want, &h, 2);
  if (std::isnan(x)) return;
  RC_ASSERT(FromDouble(Format::kF16, x) == want);
}
#endif  // __FLT16_MAX__

RC_GTEST_PROP(FormatsProps, F32AndTf32DecodeLikeTheHardwareFloat, (uint32_t bits)) {
  float f;
  std::memcpy(&f, &bits, 4);
  const double ours = ToDouble(Format::kF32, bits);
  const bool f_ok = std::isnan(f) ? std::isnan(ours) : ours == static_cast<double>(f);
  RC_ASSERT(f_ok);
  // tf32 reads the top 19 bits: the fp32 value of bits & 0xFFFFE000.
  const uint32_t top = bits & 0xFFFFE000u;
  float t;
  std::memcpy(&t, &top, 4);
  const double tf = ToDouble(Format::kTF32, bits);
  const bool t_ok = std::isnan(t) ? std::isnan(tf) : tf == static_cast<double>(t);
  RC_ASSERT(t_ok);
}

RC_GTEST_PROP(FormatsProps, F32EncodeRoundsLikeTheCompiler, (double x)) {
  const float f = static_cast<float>(x);  // RNE, overflow to Inf
  uint32_t want;
  std::memcpy(&want, &f, 4);
  if (std::isnan(x)) return;
  RC_ASSERT(FromDouble(Format::kF32, x) == want);
}

TEST(Formats, Tf32IgnoresTheLow13Bits) {
  EXPECT_EQ(ToDouble(Format::kTF32, 0x3F801FFFu), 1.0);
  EXPECT_EQ(ToDouble(Format::kTF32, 0x3F802000u), 1.0 + std::ldexp(1.0, -10));
  // A NaN whose payload lies only in the low 13 bits reads as Inf ([INF] in the reference).
  EXPECT_TRUE(std::isinf(ToDouble(Format::kTF32, 0x7F800001u)));
}

TEST(Formats, Integers) {
  EXPECT_EQ(DecodeInt(Format::kS8, 0x80), -128);
  EXPECT_EQ(DecodeInt(Format::kU8, 0x80), 128);
  EXPECT_EQ(DecodeInt(Format::kS4, 0xF), -1);
  EXPECT_EQ(DecodeInt(Format::kU4, 0xF), 15);
  EXPECT_EQ(DecodeInt(Format::kS32, 0xFFFFFFFF), -1);
}

}  // namespace
}  // namespace tcfuzz::oracle::num
