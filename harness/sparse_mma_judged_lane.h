// What one lane of the `sparse-mma-judged` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code: draw the lane's register
// elements and metadata nibbles of case `case_seed` from the recipe (oracle/sparse/
// device_drawn_sparse.h, float values) into the warp's shared copy of the case, pack its registers,
// and compute the D elements it will hold through the bit-exact model's 64-bit path
// (oracle/numerics/fast_dot.h): C plus the kept products in stored order, L at a time, each stored
// A element meeting the B row its chunk's nibble names. Where each element sits comes from the
// same tables as the small-integer kernel's (SparseExactTables, filled from the oracle's fragment
// maps and metadata rules): the harness holds no layout or legality rule itself.
#pragma once

#include <cstdint>

#include "harness/sparse_mma_exact_lane.h"
#include "oracle/mma/device_drawn_dense.h"
#include "oracle/numerics/fast_dot.h"
#include "oracle/sparse/device_drawn_sparse.h"

namespace tcfuzz::harness {

// One case's operands, shared by the warp: each element is held by exactly one lane's registers
// (and each metadata nibble by one selected lane), so the lanes' draws together are the whole case,
// each element drawn and decoded once.
struct SparseJudgedValues {
  uint32_t c[16][8] = {};
  oracle::num::fast::Operand a[16][16] = {};  // row, stored column j (K / 2 <= 16)
  oracle::num::fast::Operand b[8][32] = {};   // [column][k]: a D element reads one column
  uint8_t nibble[16][8] = {};                 // (row, chunk): index into table.nibbles
};

constexpr SparseExactLane DrawJudgedLane(const SparseExactTable& t, uint64_t cs, int lane,
                                         SparseJudgedValues& v) {
  namespace dense = oracle::mma::drawn;
  namespace fast = oracle::num::fast;
  const uint32_t bf16 = t.instruction.bf16;
  const dense::Mode mode = oracle::sparse::drawn::FloatModeOf(cs);
  const oracle::num::Format f = bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16;
  SparseExactLane r;
  for (int x = 0; x < t.per_lane; ++x) {
    const uint32_t shift = 16u * static_cast<uint32_t>(x % 2);
    const int row = t.a_row[lane][x], j = t.a_col[lane][x];
    const uint32_t a = dense::HalfBits(cs, dense::kA, row, j, bf16, mode);
    fast::Decode(f, a, v.a[row][j]);
    r.a[x / 2] |= a << shift;
    const int k = t.b_row[lane][x], col = t.b_col[lane][x];
    const uint32_t b = dense::HalfBits(cs, dense::kB, k, col, bf16, mode);
    fast::Decode(f, b, v.b[col][k]);
    r.b[x / 2] |= b << shift;
  }
  for (int x = 0; x < 4; ++x) {
    const int row = t.cd_row[lane][x], col = t.cd_col[lane][x];
    r.c[x] = v.c[row][col] = dense::F32Bits(cs, row, col, mode);
  }
  r.e = oracle::sparse::drawn::UnselectedMeta(cs, lane);
  for (int x = 0; x < t.meta_count[lane]; ++x) {
    const int row = t.meta_row[lane][x], chunk = t.meta_chunk[lane][x];
    const uint32_t index = NibbleIndex(t, cs, row, chunk), bit = t.meta_bit[lane][x];
    v.nibble[row][chunk] = static_cast<uint8_t>(index);
    r.e = (r.e & ~(0xFu << bit)) | (static_cast<uint32_t>(t.nibbles[index]) << bit);
  }
  return r;
}

// Every lane's share: the whole case (the host's way to the values a warp shares).
constexpr SparseJudgedValues DrawJudgedCase(const SparseExactTable& t, uint64_t cs) {
  SparseJudgedValues v;
  for (int lane = 0; lane < 32; ++lane) DrawJudgedLane(t, cs, lane, v);
  return v;
}

// D(row, col) through the row `p`.
constexpr uint32_t ExpectedJudgedD(const SparseExactTable& t, const SparseJudgedValues& v, int row,
                                   int col, const oracle::num::fast::Params& p) {
  namespace fast = oracle::num::fast;
  const int frac = 2 * fast::FracBits(t.instruction.bf16 ? oracle::num::Format::kBF16
                                                         : oracle::num::Format::kF16);
  const int kept = t.kept, log_kept = Log2(kept);  // kept is 2 (16-bit types)
  const fast::Operand* a = v.a[row];
  const fast::Operand* b = v.b[col];
  const uint8_t* nibble = v.nibble[row];
  const auto at = [&](int j) {
    const int chunk = j >> log_kept;
    return fast::Factors{a + j, b + chunk * t.chunk + t.kept_pos[nibble[chunk]][j & (kept - 1)]};
  };
  return fast::DotOf(at, 2 * t.per_lane, frac, v.c[row][col], p);
}

}  // namespace tcfuzz::harness
