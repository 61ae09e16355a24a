// Number formats of tensor-core operands: exact decode of every bit pattern (special values
// included) and correctly rounded encode.
//
// A finite value is (-1)^neg * m * 2^(e - p): m the integer significand with its hidden bit, p
// the fraction bits, e the unbiased exponent clamped to at least emin (so subnormals have
// e = emin and m < 2^p). Nothing is flushed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tcfuzz::oracle::num {

// 128-bit integers for exact sums and significands (a GCC/Clang extension, said once here).
__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

// Bits needed to write x (0 for 0).
inline int BitLength(uint128 x) {
  const auto hi = static_cast<uint64_t>(x >> 64), lo = static_cast<uint64_t>(x);
  // __builtin_clzll (C++17 has no std::countl_zero) is undefined for 0.
  return hi != 0 ? 128 - __builtin_clzll(hi) : lo != 0 ? 64 - __builtin_clzll(lo) : 0;
}

enum class Format {
  kF16,
  kBF16,
  kTF32,
  kF32,  // IEEE-style
  kE4M3,
  kE5M2,
  kE3M2,
  kE2M3,
  kE2M1,  // OCP 8/6/4-bit floats
  kS8,
  kU8,
  kS4,
  kU4,
  kS32,  // integers
};
inline constexpr std::size_t kFormatCount = 14;  // tables indexed by Format

std::string_view Name(Format f);
std::optional<Format> ParseFormat(std::string_view s);
bool IsFloat(Format f);
bool IsSigned(Format f);    // integers
int StorageBits(Format f);  // bits in the operand register (tf32: 32, its fp32 container)

// The classes the PTX ISA's type rules speak of (e.g. "e4m3/e5m2", ".kind::f8f6f4").
constexpr bool IsFp8(Format f) { return f == Format::kE4M3 || f == Format::kE5M2; }
constexpr bool IsFp6Fp4(Format f) {
  return f == Format::kE3M2 || f == Format::kE2M3 || f == Format::kE2M1;
}
constexpr bool IsInt8(Format f) { return f == Format::kS8 || f == Format::kU8; }
constexpr bool IsInt4(Format f) { return f == Format::kS4 || f == Format::kU4; }

// Float layout: exponent and fraction widths, bias, and which special values exist.
struct FloatSpec {
  int exp_bits;
  int frac_bits;  // p
  int bias;
  bool has_inf;   // IEEE Inf at the all-ones exponent
  bool ieee_nan;  // NaN = all-ones exponent, non-zero fraction
  bool e4m3_nan;  // NaN = S.1111.111 only (e4m3 "FN")
  int emin() const { return 1 - bias; }
};
FloatSpec SpecOf(Format f);  // float formats only

struct Decoded {
  enum class Kind { kFinite, kInf, kNaN };
  Kind kind = Kind::kFinite;
  bool neg = false;
  uint64_t m = 0;  // integer significand (hidden bit included)
  int e = 0;       // unbiased exponent, >= emin
  int p = 0;       // fraction bits
  bool is_zero() const { return kind == Kind::kFinite && m == 0; }
};

// Decodes `bits` (the low StorageBits of it). tf32 ignores the low 13 bits of its fp32
// container (the hardware truncates, it does not round). Float formats only.
Decoded Decode(Format f, uint64_t bits);

// The value as a double (exact for every format but f32/tf32 extremes, which doubles also hold
// exactly): NaN and Inf as such.
double ToDouble(Format f, uint64_t bits);

enum class Round { kNearestEven, kTowardZero };

// Encodes the exact value (-1)^neg * mag * 2^exp2 in `f`, rounding as asked. Overflow gives
// Inf where the format has it, else its largest finite value (e4m3 included: saturation, the
// behaviour of the CUDA conversions with __NV_SATFINITE).
uint64_t EncodeExact(Format f, bool neg, uint128 mag, int exp2, Round r);

// A double in `f` (NaN -> the format's canonical NaN, or 0 for formats without NaN).
uint64_t FromDouble(Format f, double x, Round r = Round::kNearestEven);

// Canonical NaN bit patterns of accumulator outputs (what MMA-Sim writes).
inline constexpr uint32_t kF32NaN = 0x7FFFFFFFu;
inline constexpr uint16_t kF16NaN = 0x7FFFu;

// Integers: the signed value of the low StorageBits of `bits`.
int64_t DecodeInt(Format f, uint64_t bits);

}  // namespace tcfuzz::oracle::num
