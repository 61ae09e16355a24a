// The recipe of a device-judged dense case (the `dense-mma-judged` suite): every operand bit
// pattern and the instruction type of case `index` follow from its case seed through
// CounterDraw, one draw per element, so a kernel draws and judges a case on its own and the host
// rebuilds the same case for the oracle and the reproducer (as oracle/sparse/device_drawn_sparse.h
// does for the small-integer suite). constexpr, no library calls: device code calls it.
//
// Values are f16 or bf16 patterns (A, B) and f32 patterns (C) in four modes, so that the sums
// exercise what the bit-exact model decides: alignment and truncation across the whole exponent
// range, cancellation near 1, subnormals and the largest exponents, and the edge mode with one
// element in 64 an Inf or NaN (oracle/numerics/fast_dot.h follows the general model's rules for
// them). NaN operands are the quiet patterns the host suites draw (FromDouble(NaN): f16 0x7E00,
// bf16 0x7FC0, f32 0x7FC00000, either sign): those are what the H100 runs of `dense-mma` and
// `sparse-mma` checked against the model; other payloads are not drawn.
#pragma once

#include <cstdint>

#include "oracle/core/counter_hash.h"

namespace tcfuzz::oracle::mma::drawn {

enum Operand : uint32_t { kA = 1, kB = 2, kC = 3, kType = 4, kMode = 5 };

// Value modes: exponents anywhere, near 1 (sums that cancel and round), at the edges, at the edges
// with Inf and NaN. A recipe that stays finite draws among the first kFiniteModeCount.
enum Mode : uint32_t { kAnywhere = 0, kNearOne = 1, kEdge = 2, kNonFinite = 3 };
inline constexpr uint32_t kModeCount = 4, kFiniteModeCount = 3;

constexpr uint32_t Stream(Operand what, uint32_t x, uint32_t y) {
  return (static_cast<uint32_t>(what) << 24) | (x << 12) | y;
}

// 1: the case is bf16, 0: f16 (A and B, f32 C and D).
constexpr uint32_t Bf16(uint64_t case_seed) {
  return CounterDraw(case_seed, Stream(kType, 0, 0)) & 1;
}
constexpr Mode ModeOf(uint64_t case_seed) {
  return static_cast<Mode>(CounterDraw(case_seed, Stream(kMode, 0, 0)) % kModeCount);
}

// A biased exponent field for `bits` drawn bits: eb exponent bits, never all ones (finite).
constexpr uint32_t ExponentField(uint32_t r, Mode mode, int eb) {
  const uint32_t top = (1u << eb) - 2, bias = (1u << (eb - 1)) - 1;  // largest finite field
  switch (mode) {
    case kNearOne:
      return bias - 3 + r % 7;  // 2^-3 .. 2^3: products overlap, sums cancel and round
    case kEdge:
    case kNonFinite: {
      const uint32_t pick = r % 4;
      if (pick == 0) return 0;                   // zero or subnormal
      if (pick == 1) return 1 + (r >> 2) % 3;    // smallest normals
      if (pick == 2) return top - (r >> 2) % 3;  // largest exponents
      return 1 + (r >> 2) % top;                 // anywhere
    }
    default:
      return 1 + r % top;
  }
}

// In mode kNonFinite, one draw in 64 (its top six bits zero) is an Inf or a quiet NaN: which, by
// the next bit.
constexpr bool Special(uint32_t r, Mode mode) { return mode == kNonFinite && (r >> 26) == 0; }

// A or B element (row, col) of a f16 (bf16 = 0) or bf16 case: a 16-bit pattern.
constexpr uint32_t HalfBits(uint64_t case_seed, Operand what, int x, int y, uint32_t bf16,
                            Mode mode) {
  const uint32_t r =
      CounterDraw(case_seed, Stream(what, static_cast<uint32_t>(x), static_cast<uint32_t>(y)));
  const int p = bf16 ? 7 : 10, eb = bf16 ? 8 : 5;
  const uint32_t frac = r & ((1u << p) - 1), sign = (r >> p) & 1;
  if (Special(r, mode)) {
    const uint32_t inf = ((1u << eb) - 1) << p;
    return (sign << 15) | inf | ((r >> 25) & 1 ? 1u << (p - 1) : 0);  // quiet NaN or Inf
  }
  return (sign << 15) | (ExponentField(r >> (p + 1), mode, eb) << p) | frac;
}

// C element (row, col): an f32 pattern in the same mode (two draws: 23 fraction bits, a sign and
// an exponent).
constexpr uint32_t F32Bits(uint64_t case_seed, int row, int col, Mode mode) {
  const uint32_t r = CounterDraw(
                     case_seed, Stream(kC, static_cast<uint32_t>(row), static_cast<uint32_t>(col))),
                 s = CounterDraw(case_seed, Stream(kC, static_cast<uint32_t>(row),
                                                   static_cast<uint32_t>(col) + 64));
  if (Special(s, mode)) return ((s & 1) << 31) | 0x7F800000u | ((s >> 25) & 1 ? 0x400000u : 0u);
  return ((s & 1) << 31) | (ExponentField(s >> 1, mode, 8) << 23) | (r & 0x7FFFFFu);
}

}  // namespace tcfuzz::oracle::mma::drawn
