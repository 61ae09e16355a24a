// The integer arithmetic the tiling rules, simulator and tiler share. Tiling fields are int32,
// so a product of three of them can pass 2^63 on a raw image (K5): products and sums saturate
// at INT64_MAX, which still compares correctly with any buffer size or tile budget.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>

namespace tcfuzz::oracle::ascend {

// ceil(a / b) for a >= 0; 0 when b is not positive (callers report that case themselves).
inline int64_t CeilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

// a rounded up to a multiple of b (b > 0).
inline int64_t AlignUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }

// The product of non-negative factors, saturated.
inline int64_t SatMul(std::initializer_list<int64_t> factors) {
  int64_t r = 1;
  for (const int64_t x : factors) {
    if (__builtin_mul_overflow(r, x, &r)) return std::numeric_limits<int64_t>::max();
  }
  return r;
}

// The sum of two non-negative values, saturated.
inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

}  // namespace tcfuzz::oracle::ascend
