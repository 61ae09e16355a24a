// Exact dot products (a 768-bit fixed-point accumulator, enough for every input format's
// products and any K up to 2^20) and a rigorous bound on how far the T-FDPA model may be from
// them: the tolerance mode of comparisons, and a cross-check of the bit-exact model.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oracle/core/span.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::oracle::num {

// A signed fixed-point number: value = raw * 2^-kFracBits, raw in two's complement.
class Exact {
 public:
  static constexpr int kLimbs = 12;
  static constexpr int kFracBits = 400;

  // Adds (-1)^neg * m * 2^exp2 exactly (exp2 >= -kFracBits).
  void Add(bool neg, uint64_t m, int exp2);
  void AddValue(Format f, uint64_t bits);  // a finite value of format f
  Exact Minus(const Exact& other) const;
  Exact Abs() const;
  bool Negative() const { return (limbs_[kLimbs - 1] >> 63) != 0; }
  bool LessOrEqual(const Exact& other) const;  // signed comparison
  bool IsZero() const;
  double ToDouble() const;  // approximate, for messages

 private:
  std::array<uint64_t, kLimbs> limbs_{};
};

// C + sum a*b exactly; nullopt when any input is NaN or Inf (no finite exact value).
std::optional<Exact> ExactDotProduct(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c,
                                     Format fa, Format fb, Format cd);

// The model result with its error bound: |d - exact| <= bound, summed over the blocks:
// each block truncates n+1 terms to F bits below emax (< (n+1) * 2^(emax-F)) and rounds once
// (< one unit in the last place of its output).
struct BoundedResult {
  uint32_t d;
  bool finite;  // false: NaN or Inf came out, no bound applies
  Exact bound;
};
BoundedResult DotProductWithBound(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c,
                                  Format fa, Format fb, Format cd, const DotParams& p);

}  // namespace tcfuzz::oracle::num
