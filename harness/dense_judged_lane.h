// What one lane of the `dense-mma-judged` kernel does, as plain constexpr C++ so the kernel
// (nvcc --expt-relaxed-constexpr) and the host tests run the same code: draw the lane's register
// elements of case `case_seed` from the recipe (oracle/mma/device_drawn_dense.h) into the warp's
// shared copy of the case, pack its registers, and compute the D elements it will hold through
// the bit-exact model's 64-bit path (oracle/numerics/fast_dot.h). The table of where each
// register element sits is filled on the host from the oracle's fragment maps
// (suites/kinds/judged_device.h): the harness holds no layout rule itself.
#pragma once

#include <cstdint>

#include "oracle/mma/device_drawn_dense.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::harness {

// m16n8k16 with f16 or bf16 A/B and f32 C/D: per lane 8 A elements (4 registers of 2), 4 B
// elements (2 of 2), 4 C/D elements; element x of A and B sits in register x / 2, half x % 2.
struct DenseJudgedTable {
  uint8_t a_row[32][8] = {}, a_col[32][8] = {};
  uint8_t b_row[32][4] = {}, b_col[32][4] = {};
  uint8_t cd_row[32][4] = {}, cd_col[32][4] = {};
};

// One case's operands, shared by the warp: every lane writes its own register elements, which
// together are the whole tile.
struct DenseJudgedValues {
  uint32_t c[16][8] = {};
  // A by row and B by column, decoded once by the lane that drew each element: a D element's
  // dot product reads two contiguous runs (no per-thread arrays, which would live in local
  // memory on the device).
  oracle::num::fast::Operand a[16][16] = {};
  oracle::num::fast::Operand b[8][16] = {};  // [column][k]
};

struct DenseJudgedLane {
  uint32_t a[4] = {}, b[2] = {}, c[4] = {};
};

constexpr DenseJudgedLane DrawLane(const DenseJudgedTable& t, uint64_t cs, int lane,
                                   DenseJudgedValues& v) {
  namespace d = oracle::mma::drawn;
  const uint32_t bf16 = d::Bf16(cs);
  const d::Mode mode = d::ModeOf(cs);
  const oracle::num::Format f = bf16 ? oracle::num::Format::kBF16 : oracle::num::Format::kF16;
  DenseJudgedLane r;
  for (int x = 0; x < 8; ++x) {
    const int row = t.a_row[lane][x], col = t.a_col[lane][x];
    const uint32_t bits = d::HalfBits(cs, d::kA, row, col, bf16, mode);
    oracle::num::fast::Decode(f, bits, v.a[row][col]);
    r.a[x / 2] |= bits << (16 * (x % 2));
  }
  for (int x = 0; x < 4; ++x) {
    const int k = t.b_row[lane][x], col = t.b_col[lane][x];
    const uint32_t bits = d::HalfBits(cs, d::kB, k, col, bf16, mode);
    oracle::num::fast::Decode(f, bits, v.b[col][k]);
    r.b[x / 2] |= bits << (16 * (x % 2));
  }
  for (int x = 0; x < 4; ++x) {
    const int row = t.cd_row[lane][x], col = t.cd_col[lane][x];
    r.c[x] = v.c[row][col] = d::F32Bits(cs, row, col, mode);
  }
  return r;
}

// Every lane's share: the whole case (the host's way to the values a warp shares).
constexpr DenseJudgedValues DrawCase(const DenseJudgedTable& t, uint64_t cs) {
  DenseJudgedValues v;
  for (int lane = 0; lane < 32; ++lane) DrawLane(t, cs, lane, v);
  return v;
}

// D(row, col) of a case of `bf16` type through the row `p`.
constexpr uint32_t ExpectedD(const DenseJudgedValues& v, uint32_t bf16, int row, int col,
                             const oracle::num::fast::Params& p) {
  using oracle::num::Format;
  namespace fast = oracle::num::fast;
  const int frac = 2 * fast::FracBits(bf16 ? Format::kBF16 : Format::kF16);
  const fast::Operand *a = v.a[row], *b = v.b[col];
  return fast::DotOf(
      [a, b](int k) {
        return fast::Factors{a + k, b + k};
      },
      16, frac, v.c[row][col], p);  // Inf and NaN operands too (the edge mode)
}

}  // namespace tcfuzz::harness
