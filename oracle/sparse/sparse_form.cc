#include "oracle/sparse/sparse_form.h"

#include <array>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::sparse {
namespace {

constexpr std::array<SparseForm, 17> kForms = {{
    {"m16n8k16", 16, Format::kF16, 4, 2, 2, 2, false, "sm_80"},
    {"m16n8k16", 16, Format::kBF16, 4, 2, 2, 2, false, "sm_80"},
    {"m16n8k32", 32, Format::kF16, 4, 2, 4, 4, false, "sm_80"},
    {"m16n8k32", 32, Format::kBF16, 4, 2, 4, 4, false, "sm_80"},
    {"m16n8k8", 8, Format::kTF32, 2, 1, 2, 2, false, "sm_80"},
    {"m16n8k16", 16, Format::kTF32, 2, 1, 4, 4, false, "sm_80"},
    {"m16n8k32", 32, Format::kS8, 4, 2, 2, 2, false, "sm_80"},
    {"m16n8k32", 32, Format::kU8, 4, 2, 2, 2, false, "sm_80"},
    {"m16n8k64", 64, Format::kS8, 4, 2, 4, 4, false, "sm_80"},
    {"m16n8k64", 64, Format::kU8, 4, 2, 4, 4, false, "sm_80"},
    {"m16n8k64", 64, Format::kE4M3, 4, 2, 4, 4, false, "sm_89"},
    {"m16n8k64", 64, Format::kE5M2, 4, 2, 4, 4, false, "sm_89"},
    {"m16n8k64", 64, Format::kE3M2, 4, 2, 4, 4, true, "sm_120a"},
    {"m16n8k64", 64, Format::kE2M3, 4, 2, 4, 4, true, "sm_120a"},
    {"m16n8k64", 64, Format::kE2M1, 4, 2, 4, 4, true, "sm_120a"},
    {"m16n8k64", 64, Format::kS4, 8, 4, 2, 2, false, "sm_80"},
    {"m16n8k128", 128, Format::kS4, 8, 4, 4, 4, false, "sm_80"},
}};
// u4 shares every map with s4.
constexpr std::array<SparseForm, 2> kU4 = {{
    {"m16n8k64", 64, Format::kU4, 8, 4, 2, 2, false, "sm_80"},
    {"m16n8k128", 128, Format::kU4, 8, 4, 4, 4, false, "sm_80"},
}};

const std::array<SparseForm, 19>& Table() {
  static const std::array<SparseForm, 19> all = [] {
    std::array<SparseForm, 19> t{};
    for (std::size_t i = 0; i < kForms.size(); ++i) t[i] = kForms[i];
    t[17] = kU4[0];
    t[18] = kU4[1];
    return t;
  }();
  return all;
}

}  // namespace

std::string SparseForm::Name() const {
  return std::string(shape) + "." + std::string(num::Name(type));
}

Span<const SparseForm> AllForms() { return Table(); }

const SparseForm* FindForm(std::string_view shape, Format type) {
  for (const SparseForm& f : Table()) {
    if (f.shape == shape && f.type == type) return &f;
  }
  return nullptr;
}

AElement MapA(const SparseForm& f, int lane, int reg, int pos) {
  const int g = lane >> 2, t = lane & 3;
  const int chunks_per_reg = f.per_reg() / f.kept;
  // Register r: row g (even r) or g + 8 (odd r); its dense columns start at t * (dense columns
  // per register) in the first K half (r < 2) or the second.
  const int dense_per_reg = chunks_per_reg * f.chunk;
  const int first_col = t * dense_per_reg + (reg / 2) * (f.k / 2);
  return AElement{g + 8 * (reg % 2), first_col / f.chunk + pos / f.kept, pos % f.kept};
}

Coord MapB(const SparseForm& f, int lane, int reg, int pos) {
  const int g = lane >> 2, t = lane & 3;
  const int u = f.per_reg();  // consecutive K rows a lane holds together
  const int i = reg * u + pos;
  return Coord{u * t + (i % u) + 4 * u * (i / u), g};
}

Coord MapCD(int lane, int index) {
  const int g = lane >> 2, t = lane & 3;
  return Coord{g + 8 * (index >= 2 ? 1 : 0), 2 * t + (index & 1)};
}

// Two placements, told apart on an H100 (suites/tests/gpu/sparse_mma_probe_test.cc, docs/
// doc-vs-hardware.md SP1): with 16- and 32-bit elements a selected lane holds 4 chunks of both
// its quad's rows (row g in bits 0-15, row g+8 in bits 16-31); with 8- and 4-bit elements it
// holds 8 chunks of one row (even lanes of the group row g, odd lanes row g+8).
bool RowPerLane(const SparseForm& f) { return f.elem_bits() <= 8; }

MetaLocation MapMeta(const SparseForm& f, int selector, int row, int chunk) {
  const int base = 4 * (row % 8) + selector * f.meta_threads();
  if (RowPerLane(f)) return MetaLocation{base + 2 * (chunk / 8) + row / 8, 4 * (chunk % 8)};
  return MetaLocation{base + chunk / 4, 16 * (row / 8) + 4 * (chunk % 4)};
}

std::optional<MetaSlot> MetaAt(const SparseForm& f, int selector, int lane, int bit) {
  const int threads = f.meta_threads();
  const int j = (lane & 3) - selector * threads;
  if (j < 0 || j >= threads || bit < 0 || bit >= 32) return std::nullopt;
  if (RowPerLane(f)) return MetaSlot{(lane >> 2) + 8 * (j % 2), 8 * (j / 2) + bit / 4};
  return MetaSlot{(lane >> 2) + 8 * (bit / 16), 4 * j + (bit % 16) / 4};
}

}  // namespace tcfuzz::oracle::sparse
