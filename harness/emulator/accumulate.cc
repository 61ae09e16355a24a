#include "harness/emulator/accumulate.h"

#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::harness::emulator {

void SelectKept(const oracle::sparse::SparseForm& s, uint8_t nibble, const Mutant& mutant, int row,
                int chunk, int stored, std::vector<int>& meets) {
  if (mutant.At("metadata.nibble_order"))
    nibble = static_cast<uint8_t>((nibble & 3) << 2 | nibble >> 2);
  const int shift = static_cast<int>(mutant.At("select.chunk_shift"));
  const std::vector<int> pos = oracle::sparse::KeptPositions(s, nibble);
  for (int slot = 0; slot < s.kept; ++slot) {
    meets[static_cast<std::size_t>(row * stored + chunk * s.kept + slot)] =
        chunk * s.chunk + (pos[static_cast<std::size_t>(slot)] + shift) % s.chunk;
  }
}

void PlantNumerics(const Mutant& mutant, oracle::num::Format a, oracle::num::Format cd,
                   oracle::num::DotParams& p) {
  p.F += static_cast<int>(mutant.At("numerics.alignment_bits"));
  if (const int64_t l = mutant.At("numerics.block_size")) p.L = static_cast<int>(l);
  if (const int64_t e = mutant.At("numerics.e_zero")) p.e_zero = static_cast<int>(e);
  if (mutant.At("numerics.negative_zero")) p.negative_zero = !p.negative_zero;
  if (mutant.At("numerics.fp8_accumulator") && cd == oracle::num::Format::kF32)
    p.rho = oracle::num::Rounding::kRzE8M13;
  if (mutant.At("numerics.fp8_via_f16") && oracle::num::IsFp8(a)) p.fp8_via_f16 = !p.fp8_via_f16;
}

std::vector<uint32_t> Accumulate(const Products& p, const TileOperands& x) {
  const auto m = static_cast<std::size_t>(x.m), n = static_cast<std::size_t>(x.n);
  const auto stored = static_cast<std::size_t>(x.stored), kb = static_cast<std::size_t>(x.kb);
  std::vector<uint32_t> d(m * n);
  const bool is_float = oracle::num::IsFloat(p.a);
  // Floats are decoded once (as the row multiplies them); a zero column reads +0 in every type.
  std::vector<oracle::num::Decoded> da, db;
  oracle::num::Decoded zero_b;
  if (is_float) {
    zero_b = oracle::num::DecodeOperand(p.b, 0, p.params);
    da.reserve(x.a.size());
    db.reserve(x.b.size());
    for (const uint64_t v : x.a) da.push_back(oracle::num::DecodeOperand(p.a, v, p.params));
    for (const uint64_t v : x.b) db.push_back(oracle::num::DecodeOperand(p.b, v, p.params));
  }
  std::vector<oracle::num::Decoded> ra(stored), rb(stored);
  std::vector<uint64_t> ia(stored), ib(stored);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const int col = x.b_column.empty() ? static_cast<int>(j) : x.b_column[j];
      for (std::size_t s = 0; s < stored; ++s) {
        const std::size_t at = i * stored + s;
        const auto k = static_cast<std::size_t>(x.meets[at]);
        const bool zero = col < 0;
        const std::size_t b_at = zero ? 0 : static_cast<std::size_t>(col) * kb + k;
        if (is_float) {
          ra[s] = da[at];
          rb[s] = zero ? zero_b : db[b_at];
        } else {
          ia[s] = x.a[at];
          ib[s] = zero ? 0 : x.b[b_at];
        }
      }
      const uint32_t c = x.c.empty() ? 0u : x.c[i * n + j];
      d[i * n + j] = is_float ? oracle::num::DotProduct(ra, rb, c, p.cd, p.params)
                              : static_cast<uint32_t>(oracle::num::IntDotProduct(
                                    ia, ib, static_cast<int32_t>(c), p.a, p.b, p.satfinite));
    }
  }
  return d;
}

}  // namespace tcfuzz::harness::emulator
