// D of a whole MMA tile through the bit-exact model: element (i, j) is the dot product (floats;
// integers: the exact sum, wrapped or clamped) of row i's stored A elements and the B elements
// they meet in column j, plus C. Each float operand is decoded once per tile, not once per output
// it feeds (a tile meets every A element n times and every B element m times): the oracle's
// share of a GPU campaign is mostly this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oracle/core/span.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::oracle::num {

struct TileMmaSpec {
  Format fa = Format::kF16, fb = Format::kF16, cd = Format::kF32;
  bool satfinite = false;  // integer forms
  DotParams params;
  int m = 0, n = 0, stored = 0;  // D is m x n; each row sums `stored` products
  Span<const uint64_t> a;        // m x stored, row-major
  Span<const uint64_t> b;        // B(k, col) at b[k * b_k_stride + col * b_n_stride]
  std::size_t b_k_stride = 0, b_n_stride = 1;
  Span<const int> meets;  // m x stored: the k of B each A element meets (empty: its index)
  Span<const int>
      b_column;            // n: the column of B that D's column j reads, < 0 reads zeros (empty: j)
  Span<const uint32_t> c;  // m x n, row-major (empty: zeros)
  // The general 128-bit model for every output, never the fast path (fast_dot.h): a judge that
  // must not share code with what it checks (the device-judged suites run the fast path).
  bool general_only = false;
};

// The spec of an mma.sync tile (DenseTile, SparseTile): D 16 x 8, B as K x 8 and C as 16 x 8,
// row-major; A and `stored` are the caller's (dense K, or the kept half and its `meets`).
template <class WarpTile>
TileMmaSpec WarpTileSpec(const WarpTile& t, const DotParams& p) {
  TileMmaSpec s;
  s.fa = t.a_type;
  s.fb = t.b_type;
  s.cd = t.cd;
  s.satfinite = t.satfinite;
  s.params = p;
  s.m = 16;
  s.n = 8;
  s.b = t.b;
  s.b_k_stride = 8;
  s.c = t.c;
  return s;
}

// D, m x n row-major. The spans must cover what the spec indexes (callers check their shapes).
std::vector<uint32_t> TileMma(const TileMmaSpec& s);

}  // namespace tcfuzz::oracle::num
