#include "oracle/wgmma/wgmma_mma.h"

namespace tcfuzz::oracle::wgmma {

Coord MapD(int thread, int index) {
  const int warp = thread / 32, lane = thread % 32;
  return {16 * warp + lane / 4 + 8 * ((index / 2) % 2), 8 * (index / 4) + 2 * (lane % 4) + index % 2};
}

int TileK(const WgmmaTile& t) { return 32 * 8 / num::StorageBits(t.ab); }

std::optional<std::vector<uint64_t>> ReadOperand(const WgmmaTile& t, smem::Operand which) {
  const smem::SmemCase& c = which == smem::Operand::kA ? t.a : t.b;
  const auto map = smem::Map(c);
  if (!map.ok()) return std::nullopt;
  const auto& m = map.value();
  std::vector<uint64_t> values(static_cast<size_t>(m.rows) * m.cols);
  for (int r = 0; r < m.rows; ++r) {
    for (int k = 0; k < m.cols; ++k) {
      const uint64_t bit = m.Bit(r, k);
      const size_t first = bit / 8, bytes = static_cast<size_t>((m.element_bits + 7) / 8);
      if (bit % 8 != 0 || first + bytes > t.image.size()) return std::nullopt;
      uint64_t v = 0;
      for (size_t i = 0; i < bytes; ++i) v |= uint64_t{t.image[first + i]} << (8 * i);  // little-endian
      values[static_cast<size_t>(r) * m.cols + k] = v;
    }
  }
  return values;
}

Result<std::vector<uint32_t>> WgmmaReference(const WgmmaTile& t) {
  using R = Result<std::vector<uint32_t>>;
  const auto params = num::ParamsFor(num::Gpu::kSm90, num::Instr::kWgmma, t.ab, t.d);
  const bool is_int = !num::IsFloat(t.ab);
  if (!params && !is_int) return R::Fail("no sm_90 wgmma numerics for this type");
  const auto a = ReadOperand(t, smem::Operand::kA);
  const auto b = ReadOperand(t, smem::Operand::kB);
  if (!a || !b) return R::Fail("an operand's address map reaches outside the shared-memory image");
  const int k = TileK(t);
  std::vector<uint32_t> d(static_cast<size_t>(64) * t.n);
  std::vector<uint64_t> av(static_cast<size_t>(k)), bv(static_cast<size_t>(k));
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < t.n; ++j) {
      for (int kk = 0; kk < k; ++kk) {
        av[static_cast<size_t>(kk)] = (*a)[static_cast<size_t>(i) * k + kk];
        bv[static_cast<size_t>(kk)] = (*b)[static_cast<size_t>(j) * k + kk];  // B's rows are N
      }
      d[static_cast<size_t>(i) * t.n + j] =
          num::MmaElement(av, bv, 0, t.ab, t.b_type, t.d, false, params.value_or(num::DotParams{}));
    }
  }
  return R::Ok(std::move(d));
}

}  // namespace tcfuzz::oracle::wgmma
