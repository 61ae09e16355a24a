#include "oracle/mma/dense_mma.h"

#include <array>

#include "oracle/core/span.h"
#include "oracle/numerics/tile_mma.h"

namespace tcfuzz::oracle::mma {

std::string DenseForm::Name() const {
  return std::string(shape) + "." + std::string(num::Name(type));
}

Span<const DenseForm> AllDenseForms() {
  static constexpr std::array<DenseForm, 9> kForms = {{
      {"m16n8k16", 16, Format::kF16, "sm_80"},
      {"m16n8k16", 16, Format::kBF16, "sm_80"},
      {"m16n8k8", 8, Format::kTF32, "sm_80"},
      {"m16n8k32", 32, Format::kS8, "sm_80"},
      {"m16n8k32", 32, Format::kU8, "sm_80"},
      {"m16n8k32", 32, Format::kE4M3, "sm_89"},
      {"m16n8k32", 32, Format::kE5M2, "sm_89"},
      {"m16n8k64", 64, Format::kS4, "sm_80"},
      {"m16n8k64", 64, Format::kU4, "sm_80"},
  }};
  return kForms;
}

const DenseForm* FindDenseForm(std::string_view shape, Format type) {
  for (const DenseForm& f : AllDenseForms()) {
    if (f.shape == shape && f.type == type) return &f;
  }
  return nullptr;
}

// The figures, for every shape here: lane = 4 * groupID + threadID_in_group. A register r holds
// row groupID (+8 for odd r) and per_reg consecutive K columns from per_reg * threadID, in the
// lower (r < 2) or upper (r >= 2) half of K. B register r holds K rows per_reg * threadID + pos
// in the r-th half of K, column groupID.
Coord MapDenseA(const DenseForm& f, int lane, int reg, int pos) {
  const int g = lane >> 2, t = lane & 3, u = f.per_reg();
  return Coord{g + 8 * (reg & 1), u * t + pos + (f.k / 2) * (reg >> 1)};
}

Coord MapDenseB(const DenseForm& f, int lane, int reg, int pos) {
  const int g = lane >> 2, t = lane & 3, u = f.per_reg();
  return Coord{u * t + pos + (f.k / 2) * reg, g};
}

std::vector<uint32_t> DenseReference(const DenseTile& t, const num::DotParams& p,
                                     bool general_only) {
  num::TileMmaSpec s = num::WarpTileSpec(t, p);
  s.stored = t.form->k;
  s.a = t.a;
  s.general_only = general_only;
  return num::TileMma(s);
}

std::vector<std::string_view> ReadingsOf(const DenseForm&) { return {"D1"}; }

}  // namespace tcfuzz::oracle::mma
