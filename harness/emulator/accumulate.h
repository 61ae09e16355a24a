// The emulator's steps shared by every instruction it executes. Select element (sparse forms):
// which K each kept A element meets. Multiply, align, accumulate and round: D[i][j] = C[i][j] + the
// products of row i's stored A elements with the B elements they meet in column j, each output one
// dot product through the numerics row the instruction decoded (integers: the exact sum, wrapped or
// clamped). Operands are decoded once per tile.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/emulator/mutant.h"
#include "oracle/core/span.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::harness::emulator {

// Select element: chunk `chunk` of row `row` keeps the elements its metadata nibble names, each
// meeting the dense K its index gives, written to meets (m x stored, row-major). Mutant points:
// metadata.nibble_order (the two indices swapped), select.chunk_shift (a position further).
void SelectKept(const oracle::sparse::SparseForm& s, uint8_t nibble, const Mutant& mutant, int row,
                int chunk, int stored, std::vector<int>& meets);

struct Products {
  oracle::num::Format a = oracle::num::Format::kF16, b = a, cd = oracle::num::Format::kF32;
  oracle::num::DotParams params;  // float forms
  bool satfinite = false;         // integer forms
};

// A: m x stored, row-major. B: column j's K elements at b[j * kb + k] (n x kb). meets: m x stored,
// the k each A element meets. b_column: per D column, the B column it reads (< 0: zeros). C:
// m x n row-major (empty: zeros). Returns D, m x n row-major.
struct TileOperands {
  int m = 0, n = 0, stored = 0, kb = 0;
  oracle::Span<const uint64_t> a, b;
  oracle::Span<const int> meets, b_column;
  oracle::Span<const uint32_t> c;
};
std::vector<uint32_t> Accumulate(const Products& p, const TileOperands& x);

// The numerics row as the mutant's numerics.* points change it (the align, accumulate, round and
// multiply steps), for an instruction of A type `a` and C/D type `cd`.
void PlantNumerics(const Mutant& mutant, oracle::num::Format a, oracle::num::Format cd,
                   oracle::num::DotParams& p);

}  // namespace tcfuzz::harness::emulator
