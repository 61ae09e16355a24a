#include "generators/mma/device_drawn_dense_gen.h"

namespace tcfuzz::gen {

using oracle::num::Format;
namespace drawn = oracle::mma::drawn;

oracle::mma::DenseTile DeviceDrawnDenseShape(uint32_t bf16) {
  const Format type = bf16 ? Format::kBF16 : Format::kF16;
  oracle::mma::DenseTile t;
  t.form = oracle::mma::FindDenseForm("m16n8k16", type);
  t.a_type = t.b_type = type;
  t.cd = Format::kF32;
  return t;
}

DeviceDrawnDense DrawDeviceDrawnDense(uint64_t case_seed) {
  const uint32_t bf16 = drawn::Bf16(case_seed);
  const drawn::Mode mode = drawn::ModeOf(case_seed);
  DeviceDrawnDense out{{}, mode};
  oracle::mma::DenseTile& t = out.dense.tile;
  t = DeviceDrawnDenseShape(bf16);
  t.a.resize(16 * 16);
  t.b.resize(16 * 8);
  t.c.resize(16 * 8);
  for (int row = 0; row < 16; ++row) {
    for (int k = 0; k < 16; ++k)
      t.a[row * 16 + k] = drawn::HalfBits(case_seed, drawn::kA, row, k, bf16, mode);
  }
  for (int k = 0; k < 16; ++k) {
    for (int col = 0; col < 8; ++col)
      t.b[k * 8 + col] = drawn::HalfBits(case_seed, drawn::kB, k, col, bf16, mode);
  }
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 8; ++col)
      t.c[row * 8 + col] = drawn::F32Bits(case_seed, row, col, mode);
  }
  out.dense.mode = mode == drawn::kNonFinite ? ValueMode::kEdge : ValueMode::kRandom;
  return out;
}

std::string_view Name(oracle::mma::drawn::Mode m) {
  switch (m) {
    case drawn::kNearOne:
      return "near_one";
    case drawn::kEdge:
      return "finite_edge";
    case drawn::kNonFinite:
      return "edge";  // as the host suites' edge mode: Inf and NaN among edge values
    default:
      return "anywhere";
  }
}

}  // namespace tcfuzz::gen
