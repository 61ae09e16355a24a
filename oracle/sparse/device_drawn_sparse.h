// The recipe of a device-drawn sparse case (the `sparse-mma-exact` suite): every value, nibble
// choice and the instruction variant of case `index` follow from its case seed through
// CounterDraw, one draw per element, so a kernel can draw any element of any case on its own and
// the host can rebuild the same case for the oracle and the reproducer. It lives in the oracle
// because both halves, the generator (host) and the harness (device), must compute it
// identically and may both depend only on the oracle. constexpr, no library calls: device code
// calls it (nvcc --expt-relaxed-constexpr).
//
// Values are the small integers -4..4 in every operand, so every partial sum of a 16-bit-float
// m16n8k16/k32 sparse product is exact in f32 (at most 16 products of magnitude 16, plus C):
// D is the exact integer sum under any rounding or block structure. The float suite
// (`sparse-mma-judged`) draws the same variants and nibbles with float values instead: the dense
// recipe's patterns and modes (oracle/mma/device_drawn_dense.h), its mode from a stream of its own
// (A is drawn by row and stored column).
#pragma once

#include <cstdint>

#include "oracle/core/counter_hash.h"
#include "oracle/mma/device_drawn_dense.h"

namespace tcfuzz::oracle::sparse::drawn {

enum Operand : uint32_t {
  kA = 1,
  kB = 2,
  kC = 3,
  kNibble = 4,
  kVariant = 5,
  kUnselectedMeta = 6,
  kFloatMode = 7
};

// The stream of one draw: operand, then two coordinates of up to 12 bits each.
constexpr uint32_t Stream(Operand what, uint32_t x, uint32_t y) {
  return (static_cast<uint32_t>(what) << 24) | (x << 12) | y;
}

inline constexpr int kMinValue = -4, kMaxValue = 4;
inline constexpr int kValueCount = kMaxValue - kMinValue + 1;

// A (row, stored column j), B (k, n) or C (row, col): a small integer.
constexpr int Value(uint64_t case_seed, Operand what, int x, int y) {
  return static_cast<int>(CounterDraw(case_seed, Stream(what, static_cast<uint32_t>(x),
                                                        static_cast<uint32_t>(y))) %
                          kValueCount) +
         kMinValue;
}

// Which of `n` choices: the nibble of (row, chunk) among the form's defined nibbles, or the
// instruction variant (x = y = 0).
constexpr uint32_t Pick(uint64_t case_seed, Operand what, int x, int y, uint32_t n) {
  return CounterDraw(case_seed, Stream(what, static_cast<uint32_t>(x), static_cast<uint32_t>(y))) %
         n;
}

// A lane's metadata register before the selected lanes' nibbles are written: drawn bits, so a
// device that reads an unselected lane reads garbage, as with the host generator.
constexpr uint32_t UnselectedMeta(uint64_t case_seed, int lane) {
  return CounterDraw(case_seed, Stream(kUnselectedMeta, static_cast<uint32_t>(lane), 0));
}

// The value mode of a float case: a stream apart from the variant's, so the two are independent.
constexpr mma::drawn::Mode FloatModeOf(uint64_t case_seed) {
  return static_cast<mma::drawn::Mode>(Pick(case_seed, kFloatMode, 0, 0, mma::drawn::kModeCount));
}

// The f32 bit pattern of an integer of magnitude below 2^24 (exact; 0 is +0).
constexpr uint32_t F32BitsOfInt(int v) {
  if (v == 0) return 0;
  const uint32_t sign = v < 0 ? 0x80000000u : 0;
  uint32_t m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = 0;
  while ((m >> (e + 1)) != 0) ++e;  // floor(log2 m)
  return sign | (static_cast<uint32_t>(e + 127) << 23) | ((m << (23 - e)) & 0x7FFFFFu);
}

}  // namespace tcfuzz::oracle::sparse::drawn
