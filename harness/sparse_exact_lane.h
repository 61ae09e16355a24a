// What one lane of the `sparse-mma-exact` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code: build the lane's
// registers of case `case_seed` from the recipe (oracle/sparse/device_drawn_case.h) and a table
// of where each register element sits, and compute the exact D elements the lane will hold.
// The table is filled on the host from the oracle's fragment maps and metadata rules
// (SparseExactTables in suites/kinds/sparse_exact_device.h): the harness holds no layout or
// legality rule itself.
#pragma once

#include <cstdint>

#include "oracle/sparse/device_drawn_case.h"

namespace tcfuzz::harness {

// The instruction a table's cases run: 16-bit float type, K, spelling and selector.
struct SparseExactInstruction {
  uint8_t bf16 = 0;      // 0: f16, 1: bf16
  uint8_t k32 = 0;       // 0: m16n8k16, 1: m16n8k32
  uint8_t ordered = 0;   // 0: mma.sp, 1: mma.sp::ordered_metadata
  uint8_t selector = 0;  // sparsity selector 0..3
};

// One instruction variant: everything a lane needs to draw its registers and check its D.
struct SparseExactTable {
  SparseExactInstruction instruction;
  uint8_t chunk = 4, kept = 2;  // dense elements per metadata chunk, kept ones
  uint8_t per_lane = 0;         // A elements per lane (= B elements per lane): K / 4
  uint8_t nibble_count = 0;     // the form's defined nibbles, in DefinedNibbles order
  uint8_t nibbles[12] = {};
  uint8_t kept_pos[12][2] = {};   // per defined nibble: dense positions of the kept elements
  uint16_t element_bits[9] = {};  // A and B bit patterns of the integers -4..4
  uint8_t a_row[32][8] = {},
          a_col[32][8] = {};  // lane, element (register * 2 + position): row, stored column
  uint8_t b_row[32][8] = {}, b_col[32][8] = {};  // lane, element: k, n
  uint8_t cd_row[32][4] = {}, cd_col[32][4] = {};
  uint8_t meta_count[32] = {};  // nibbles the lane holds (0: the lane is not selected)
  uint8_t meta_row[32][8] = {}, meta_chunk[32][8] = {}, meta_bit[32][8] = {};
};

struct SparseExactLane {
  uint32_t a[4] = {}, b[4] = {}, c[4] = {};
  uint32_t e = 0;
};

// The lane's defined nibble index (into table.nibbles) of (row, chunk).
constexpr uint32_t NibbleIndex(const SparseExactTable& t, uint64_t cs, int row, int chunk) {
  return oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kNibble, row, chunk,
                                     t.nibble_count);
}

constexpr SparseExactLane BuildLane(const SparseExactTable& t, uint64_t cs, int lane) {
  namespace d = oracle::sparse::drawn;
  SparseExactLane r;
  for (int x = 0; x < t.per_lane; ++x) {
    const uint32_t shift = 16u * static_cast<uint32_t>(x % 2);
    const int av = d::Value(cs, d::kA, t.a_row[lane][x], t.a_col[lane][x]);
    r.a[x / 2] |= static_cast<uint32_t>(t.element_bits[av - d::kMinValue]) << shift;
    const int bv = d::Value(cs, d::kB, t.b_row[lane][x], t.b_col[lane][x]);
    r.b[x / 2] |= static_cast<uint32_t>(t.element_bits[bv - d::kMinValue]) << shift;
  }
  for (int x = 0; x < 4; ++x)
    r.c[x] = d::F32BitsOfInt(d::Value(cs, d::kC, t.cd_row[lane][x], t.cd_col[lane][x]));
  r.e = d::UnselectedMeta(cs, lane);
  for (int x = 0; x < t.meta_count[lane]; ++x) {
    const uint32_t nib = t.nibbles[NibbleIndex(t, cs, t.meta_row[lane][x], t.meta_chunk[lane][x])];
    const uint32_t bit = t.meta_bit[lane][x];
    r.e = (r.e & ~(0xFu << bit)) | (nib << bit);
  }
  return r;
}

// D(row, col) as an integer: C plus the kept products, each stored A element meeting the B row
// its chunk's nibble names.
constexpr int ExpectedD(const SparseExactTable& t, uint64_t cs, int row, int col) {
  namespace d = oracle::sparse::drawn;
  int sum = d::Value(cs, d::kC, row, col);
  const int stored = 2 * t.per_lane;  // K / 2
  for (int j = 0; j < stored; ++j) {
    const int chunk = j / t.kept;
    const int k = chunk * t.chunk + t.kept_pos[NibbleIndex(t, cs, row, chunk)][j % t.kept];
    sum += d::Value(cs, d::kA, row, j) * d::Value(cs, d::kB, k, col);
  }
  return sum;
}

}  // namespace tcfuzz::harness
