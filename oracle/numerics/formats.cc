#include "oracle/numerics/formats.h"

#include <array>
#include <bit>
#include <cmath>
#include <utility>

namespace tcfuzz::oracle::num {
namespace {

constexpr std::array<std::pair<Format, std::string_view>, kFormatCount> kNames = {{
    {Format::kF16, "f16"},
    {Format::kBF16, "bf16"},
    {Format::kTF32, "tf32"},
    {Format::kF32, "f32"},
    {Format::kE4M3, "e4m3"},
    {Format::kE5M2, "e5m2"},
    {Format::kE3M2, "e3m2"},
    {Format::kE2M3, "e2m3"},
    {Format::kE2M1, "e2m1"},
    {Format::kS8, "s8"},
    {Format::kU8, "u8"},
    {Format::kS4, "s4"},
    {Format::kU4, "u4"},
    {Format::kS32, "s32"},
}};
static_assert(static_cast<std::size_t>(Format::kS32) + 1 == kFormatCount,
              "kFormatCount counts every Format");

}  // namespace

std::string_view Name(Format f) {
  for (const auto& [g, n] : kNames) {
    if (g == f) return n;
  }
  return "?";
}

std::optional<Format> ParseFormat(std::string_view s) {
  for (const auto& [g, n] : kNames) {
    if (n == s) return g;
  }
  return std::nullopt;
}

bool IsFloat(Format f) {
  switch (f) {
    case Format::kS8:
    case Format::kU8:
    case Format::kS4:
    case Format::kU4:
    case Format::kS32:
      return false;
    default:
      return true;
  }
}

bool IsSigned(Format f) { return f == Format::kS8 || f == Format::kS4 || f == Format::kS32; }

int StorageBits(Format f) {
  switch (f) {
    case Format::kF16:
    case Format::kBF16:
      return 16;
    case Format::kTF32:
    case Format::kF32:
    case Format::kS32:
      return 32;
    case Format::kE3M2:
    case Format::kE2M3:
      return 6;
    case Format::kE2M1:
    case Format::kS4:
    case Format::kU4:
      return 4;
    default:
      return 8;
  }
}

FloatSpec SpecOf(Format f) {
  switch (f) {
    case Format::kF16:
      return {5, 10, 15, true, true, false};
    case Format::kBF16:
      return {8, 7, 127, true, true, false};
    case Format::kTF32:
      return {8, 10, 127, true, true, false};
    case Format::kF32:
      return {8, 23, 127, true, true, false};
    case Format::kE4M3:
      return {4, 3, 7, false, false, true};
    case Format::kE5M2:
      return {5, 2, 15, true, true, false};
    case Format::kE3M2:
      return {3, 2, 3, false, false, false};
    case Format::kE2M3:
      return {2, 3, 1, false, false, false};
    case Format::kE2M1:
      return {2, 1, 1, false, false, false};
    default:
      return {0, 0, 0, false, false, false};
  }
}

Decoded Decode(Format f, uint64_t bits) {
  const FloatSpec s = SpecOf(f);
  if (f == Format::kTF32) bits = (bits & 0xFFFFFFFFu) >> 13;  // the top 19 bits
  const int width = 1 + s.exp_bits + s.frac_bits;
  bits &= (uint64_t{1} << width) - 1;
  Decoded d;
  d.p = s.frac_bits;
  d.neg = (bits >> (width - 1)) & 1;
  const uint64_t exp = (bits >> s.frac_bits) & ((uint64_t{1} << s.exp_bits) - 1);
  const uint64_t frac = bits & ((uint64_t{1} << s.frac_bits) - 1);
  const uint64_t exp_max = (uint64_t{1} << s.exp_bits) - 1;
  if (s.e4m3_nan && exp == exp_max && frac == ((uint64_t{1} << s.frac_bits) - 1)) {
    d.kind = Decoded::Kind::kNaN;
    return d;
  }
  if ((s.has_inf || s.ieee_nan) && exp == exp_max) {
    d.kind = frac == 0 && s.has_inf ? Decoded::Kind::kInf : Decoded::Kind::kNaN;
    return d;
  }
  if (exp == 0) {
    d.m = frac;
    d.e = s.emin();
  } else {
    d.m = frac | (uint64_t{1} << s.frac_bits);
    d.e = static_cast<int>(exp) - s.bias;
  }
  return d;
}

double ToDouble(Format f, uint64_t bits) {
  if (!IsFloat(f)) return static_cast<double>(DecodeInt(f, bits));
  const Decoded d = Decode(f, bits);
  if (d.kind == Decoded::Kind::kNaN) return std::nan("");
  if (d.kind == Decoded::Kind::kInf) return d.neg ? -INFINITY : INFINITY;
  const double v = std::ldexp(static_cast<double>(d.m), d.e - d.p);
  return d.neg ? -v : v;
}

uint64_t EncodeExact(Format f, bool neg, uint128 mag, int exp2, Round r) {
  const FloatSpec s = SpecOf(f);
  const int width = 1 + s.exp_bits + s.frac_bits;
  const uint64_t sign = neg ? uint64_t{1} << (width - 1) : 0;
  const uint64_t exp_max = (uint64_t{1} << s.exp_bits) - 1;
  // The largest finite encoding: exponent field and fraction at their top legal values.
  const uint64_t max_finite =
      s.has_inf || s.ieee_nan ? ((exp_max - 1) << s.frac_bits) | ((uint64_t{1} << s.frac_bits) - 1)
      : s.e4m3_nan            ? (exp_max << s.frac_bits) | ((uint64_t{1} << s.frac_bits) - 2)
                              : (exp_max << s.frac_bits) | ((uint64_t{1} << s.frac_bits) - 1);
  const auto finish = [&](uint64_t body) {
    uint64_t out = sign | body;
    if (f == Format::kTF32) out <<= 13;
    return out;
  };
  if (mag == 0) return finish(0);
  // Exponent of the leading bit, and the exponent of the last kept fraction bit.
  const int lead = exp2 + BitLength(mag) - 1;
  const int e = std::max(lead, s.emin());
  const int shift = (e - s.frac_bits) - exp2;  // drop this many low bits of mag
  uint128 q;
  if (shift <= 0) {
    q = mag << -shift;
  } else if (shift > 128) {
    q = 0;  // below half the quantum: rounds to zero either way
  } else if (shift == 128) {
    q = r == Round::kNearestEven && mag > (static_cast<uint128>(1) << 127) ? 1 : 0;
  } else {
    q = mag >> shift;
    if (r == Round::kNearestEven) {
      const uint128 rem = mag & ((static_cast<uint128>(1) << shift) - 1);
      const uint128 half = static_cast<uint128>(1) << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  int ee = e;
  if (q >> (s.frac_bits + 1)) {  // rounding carried into a new leading bit
    q >>= 1;
    ++ee;
  }
  const bool normal = (q >> s.frac_bits) & 1;
  const uint64_t exp_field = normal ? static_cast<uint64_t>(ee + s.bias) : 0;
  const uint64_t body =
      (exp_field << s.frac_bits) | (static_cast<uint64_t>(q) & ((uint64_t{1} << s.frac_bits) - 1));
  if (body > max_finite) {
    if (s.has_inf && r == Round::kNearestEven) return finish(exp_max << s.frac_bits);
    return finish(max_finite);
  }
  return finish(body);
}

uint64_t FromDouble(Format f, double x, Round r) {
  const FloatSpec s = SpecOf(f);
  const int width = 1 + s.exp_bits + s.frac_bits;
  if (std::isnan(x)) {
    uint64_t nan = 0;
    if (s.ieee_nan)
      nan = (((uint64_t{1} << s.exp_bits) - 1) << s.frac_bits) | (uint64_t{1} << (s.frac_bits - 1));
    if (s.e4m3_nan) nan = (uint64_t{1} << (width - 1)) - 1;
    return f == Format::kTF32 ? nan << 13 : nan;
  }
  const bool neg = std::signbit(x);
  if (std::isinf(x)) {
    return EncodeExact(f, neg, static_cast<uint128>(1), 100000, Round::kNearestEven);
  }
  int exp = 0;
  const double frac = std::frexp(std::fabs(x), &exp);  // |x| = frac * 2^exp, frac in [0.5, 1)
  const auto mag = static_cast<uint128>(std::ldexp(frac, 53));
  return EncodeExact(f, neg, mag, exp - 53, r);
}

int64_t DecodeInt(Format f, uint64_t bits) {
  const int w = StorageBits(f);
  const uint64_t v = w == 64 ? bits : bits & ((uint64_t{1} << w) - 1);
  if (IsSigned(f) && (v >> (w - 1)) & 1) return static_cast<int64_t>(v) - (int64_t{1} << w);
  return static_cast<int64_t>(v);
}

}  // namespace tcfuzz::oracle::num
