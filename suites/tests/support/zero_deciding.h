// The deciding vectors of docs/doc-vs-hardware.md rows N5 (the exponent of a zero product) and
// N6 (the sign of an exact-zero D), one table for the oracle test
// (suites/tests/oracle/zero_deciding_test.cc, which also derives each prediction by hand) and the
// GPU test (suites/tests/gpu/zero_deciding_test.cc). The vector sits in row 0 of A and column 0 of
// B at the last K positions, the others +0: rows that chain blocks of 8 (sm_80, sm_89) then meet it
// in their last block, so a -0 is not turned into +0 by a later block of +0 products, and every row
// predicts the same D.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "oracle/numerics/dot_product.h"

namespace tcfuzz::test {

struct ZeroVector {
  std::string_view name;
  std::string_view question;  // N5 or N6
  oracle::num::Format ab;     // A and B
  oracle::num::Format cd;     // C and D
  std::vector<uint64_t> a, b;
  uint32_t c;
  bool every_k = false;  // a[0], b[0] repeated over every K position (all products alike)
  uint32_t ieee;         // D under tcfuzz's rows with IEEE zero signs (every row but sm_90's)
  uint32_t sm90;         // D under the sm_90 mma and wgmma rows (N4, N6: a zero D is +0)
  uint32_t other;        // D under the other reading the row decides between
};

inline std::vector<ZeroVector> ZeroVectors() {
  using oracle::num::Format;
  return {
      // N5: -0 x 2^118 would be aligned at -126 + 118 = -8 by the other reading, truncating the
      // tiny product (-73 * 2^-133) away.
      {"bf16_tiny_product_beside_a_zero_product",
       "N5",
       Format::kBF16,
       Format::kF32,
       {0x0049, 0x8000},
       {0xbf80, 0x7ab8},
       0x00000000,
       false,
       0x80490000,
       0x80490000,
       0x00000000},
      {"tf32_tiny_product_beside_a_zero_product",
       "N5",
       Format::kTF32,
       Format::kF32,
       {0x00800000, 0x80000000},
       {0xbf800000, 0x7f000000},
       0x00000000,
       false,
       0x80800000,
       0x80800000,
       0x00000000},
      // N6: a negative sum below the smallest subnormal, C = +0 (what wgmma can run: scale-d 0).
      {"bf16_negative_sum_rounds_to_zero",
       "N6",
       Format::kBF16,
       Format::kF32,
       {0x1a00},
       {0x9a00},
       0x00000000,
       false,
       0x80000000,
       0x00000000,
       0x00000000},
      {"f16_negative_sum_rounds_to_zero_f16",
       "N6",
       Format::kF16,
       Format::kF16,
       {0x0800},
       {0x8800},
       0x0000,
       false,
       0x8000,
       0x0000,
       0x0000},
      // N6: every product -0 and C = -0 (mma only: the wgmma kernels take C = +0).
      {"f16_all_terms_minus_zero",
       "N6",
       Format::kF16,
       Format::kF32,
       {0x8000},
       {0x3c00},
       0x80000000,
       true,
       0x80000000,
       0x00000000,
       0x00000000},
      {"f16_all_terms_minus_zero_f16",
       "N6",
       Format::kF16,
       Format::kF16,
       {0x8000},
       {0x3c00},
       0x8000,
       true,
       0x8000,
       0x0000,
       0x0000},
  };
}

// The vector over K positions 0..k-1 of one operand (row 0 of A or column 0 of B): at the end.
inline std::vector<uint64_t> Spread(const ZeroVector& v, const std::vector<uint64_t>& x, int k) {
  std::vector<uint64_t> out(static_cast<std::size_t>(k), v.every_k ? x[0] : 0);
  if (!v.every_k) std::copy(x.begin(), x.end(), out.end() - static_cast<std::ptrdiff_t>(x.size()));
  return out;
}

}  // namespace tcfuzz::test
