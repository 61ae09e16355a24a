// What one lane of the `sparse-mma-exact` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code: build the lane's
// registers of case `case_seed` from the recipe (oracle/sparse/device_drawn_sparse.h) and a table
// of where each register element sits, and compute the exact D elements the lane will hold.
// The table is filled on the host from the oracle's fragment maps and metadata rules
// (SparseExactTables in suites/kinds/judged_device.h): the harness holds no layout or
// legality rule itself.
#pragma once

#include <cstdint>

#include "oracle/sparse/device_drawn_sparse.h"

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

// Every value of one case, each drawn once: a lane draws its share (DrawShare), the warp shares
// them (shared memory on the device), then each lane reads what its registers and D elements
// need. Drawing every element once instead of once per use is what bounds the kernel's work by
// the case's size (docs/performance.md).
struct SparseExactValues {
  int8_t a[16][16] = {};       // row, stored column j (K/2 <= 16)
  int8_t b[32][8] = {};        // k, n
  int8_t c[16][8] = {};        // row, col
  uint8_t nibble[16][8] = {};  // (row, chunk): index into table.nibbles (K / chunk <= 8)
};

// The lane's defined nibble index (into table.nibbles) of (row, chunk).
constexpr uint32_t NibbleIndex(const SparseExactTable& t, uint64_t cs, int row, int chunk) {
  return oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kNibble, row, chunk,
                                     t.nibble_count);
}

// log2 of a power of two (the kernel's shapes: K/2 is 8 or 16, K/chunk 4 or 8), so that the
// lanes split their shares with shifts rather than divisions by a runtime value.
constexpr int Log2(int pow2) {
  int n = 0;
  while ((1 << n) < pow2) ++n;
  return n;
}

// Lane `lane` of 32 draws elements lane, lane + 32, ... of each operand into `v`.
constexpr void DrawShare(const SparseExactTable& t, uint64_t cs, int lane, SparseExactValues& v) {
  namespace d = oracle::sparse::drawn;
  const int ls = Log2(2 * t.per_lane), lc = Log2(4 * t.per_lane / t.chunk);
  const int stored = 1 << ls, chunks = 1 << lc, k = 2 * stored;
  for (int i = lane; i < 16 * stored; i += 32) {
    const int row = i >> ls, j = i & (stored - 1);
    v.a[row][j] = static_cast<int8_t>(d::Value(cs, d::kA, row, j));
  }
  for (int i = lane; i < k * 8; i += 32)
    v.b[i >> 3][i & 7] = static_cast<int8_t>(d::Value(cs, d::kB, i >> 3, i & 7));
  for (int i = lane; i < 128; i += 32)
    v.c[i >> 3][i & 7] = static_cast<int8_t>(d::Value(cs, d::kC, i >> 3, i & 7));
  for (int i = lane; i < 16 * chunks; i += 32) {
    const int row = i >> lc, chunk = i & (chunks - 1);
    v.nibble[row][chunk] = static_cast<uint8_t>(NibbleIndex(t, cs, row, chunk));
  }
}

// Every lane's share: the whole case (the host's way to the values a warp shares).
constexpr SparseExactValues DrawCase(const SparseExactTable& t, uint64_t cs) {
  SparseExactValues v;
  for (int lane = 0; lane < 32; ++lane) DrawShare(t, cs, lane, v);
  return v;
}

constexpr SparseExactLane BuildLane(const SparseExactTable& t, const SparseExactValues& v,
                                    uint64_t cs, int lane) {
  namespace d = oracle::sparse::drawn;
  SparseExactLane r;
  for (int x = 0; x < t.per_lane; ++x) {
    const uint32_t shift = 16u * static_cast<uint32_t>(x % 2);
    const int av = v.a[t.a_row[lane][x]][t.a_col[lane][x]];
    r.a[x / 2] |= static_cast<uint32_t>(t.element_bits[av - d::kMinValue]) << shift;
    const int bv = v.b[t.b_row[lane][x]][t.b_col[lane][x]];
    r.b[x / 2] |= static_cast<uint32_t>(t.element_bits[bv - d::kMinValue]) << shift;
  }
  for (int x = 0; x < 4; ++x) r.c[x] = d::F32BitsOfInt(v.c[t.cd_row[lane][x]][t.cd_col[lane][x]]);
  r.e = d::UnselectedMeta(cs, lane);
  for (int x = 0; x < t.meta_count[lane]; ++x) {
    const uint32_t nib = t.nibbles[v.nibble[t.meta_row[lane][x]][t.meta_chunk[lane][x]]];
    const uint32_t bit = t.meta_bit[lane][x];
    r.e = (r.e & ~(0xFu << bit)) | (nib << bit);
  }
  return r;
}

// D(row, col) as an integer: C plus the kept products, each stored A element meeting the B row
// its chunk's nibble names.
constexpr int ExpectedD(const SparseExactTable& t, const SparseExactValues& v, int row, int col) {
  int sum = v.c[row][col];
  const int chunks = 2 * t.per_lane / t.kept;  // K / chunk, each with `kept` stored elements
  for (int chunk = 0, j = 0; chunk < chunks; ++chunk) {
    const uint8_t* kept = t.kept_pos[v.nibble[row][chunk]];
    for (int s = 0; s < t.kept; ++s, ++j) sum += v.a[row][j] * v.b[chunk * t.chunk + kept[s]][col];
  }
  return sum;
}

}  // namespace tcfuzz::harness
