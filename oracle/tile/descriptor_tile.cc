#include "oracle/tile/descriptor_tile.h"

#include <algorithm>

#include "oracle/numerics/tile_mma.h"
#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::oracle::tile {

int TileK(const DescriptorTile& t) { return (t.sparse ? 64 : 32) * 8 / num::StorageBits(t.ab); }

std::vector<uint32_t> SparseMetadataRegisters(const TileSparse& s) {
  std::vector<uint32_t> regs(128, 0);
  if (s.form == nullptr || s.selector < 0 || s.selector > s.form->max_selector())
    return regs;  // no lane holds it
  const int cpr = s.form->chunks_per_row();
  for (int warp = 0; warp < 4; ++warp) {
    sparse::SparseOp op;
    op.form = s.form;
    op.selector = s.selector;
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < cpr; ++chunk) {
        const size_t at = static_cast<size_t>((16 * warp + row) * cpr + chunk);
        if (at < s.nibbles.size()) sparse::SetNibble(op, row, chunk, s.nibbles[at]);
      }
    }
    for (int lane = 0; lane < 32; ++lane)
      regs[static_cast<size_t>(32 * warp + lane)] = op.meta[static_cast<size_t>(lane)];
  }
  return regs;
}

std::vector<uint32_t> Tcgen05MetadataColumns(const TileSparse& s) {
  std::vector<uint32_t> cols(2 * 128, 0);
  if (s.form == nullptr) return cols;
  const int cpr = s.form->chunks_per_row();
  // The defined nibbles in a cycle: a nibble's successor is defined and different.
  const auto defined = sparse::DefinedNibbles(*s.form, sparse::Variant::kOrdered);
  const auto other = [defined](uint8_t n) -> uint8_t {
    const auto it = std::find(defined.begin(), defined.end(), n);
    return it == defined.end() || it + 1 == defined.end() ? defined.front() : *(it + 1);
  };
  for (int row = 0; row < 128; ++row) {
    uint64_t bits = 0, decoy = 0;
    for (int chunk = 0; chunk < cpr && chunk < 16; ++chunk) {
      const size_t at = static_cast<size_t>(row * cpr + chunk);
      const uint8_t n = at < s.nibbles.size() ? s.nibbles[at] : 0;
      bits |= uint64_t{n} << (4 * chunk);
      decoy |= uint64_t{other(n)} << (4 * chunk);
    }
    uint32_t* pair = &cols[static_cast<size_t>(2 * row)];
    if (cpr * 4 > 32) {
      pair[0] = static_cast<uint32_t>(bits);
      pair[1] = static_cast<uint32_t>(bits >> 32);
    } else {
      pair[s.selector == 1 ? 1 : 0] = static_cast<uint32_t>(bits);
      pair[s.selector == 1 ? 0 : 1] = static_cast<uint32_t>(decoy);
    }
  }
  return cols;
}

std::optional<std::vector<uint64_t>> ReadOperand(const DescriptorTile& t, smem::Operand which,
                                                 spec_choice::Base32BAtomKRows base32b) {
  const smem::SmemCase& c = which == smem::Operand::kA ? t.a : t.b;
  const auto decoded = smem::DecodeMatrix(c.arch, c.desc);
  if (!decoded) return std::nullopt;
  const auto map = smem::MapAddresses(*decoded, c.view, base32b);
  if (!map.ok()) return std::nullopt;
  const auto& m = map.value();
  std::vector<uint64_t> values(static_cast<size_t>(m.rows) * m.cols);
  for (int r = 0; r < m.rows; ++r) {
    for (int k = 0; k < m.cols; ++k) {
      const uint64_t bit = m.Bit(r, k);
      const size_t first = bit / 8, bytes = static_cast<size_t>((m.element_bits + 7) / 8);
      if (bit % 8 != 0 || first + bytes > t.image.size()) return std::nullopt;
      uint64_t v = 0;
      for (size_t i = 0; i < bytes; ++i)
        v |= uint64_t{t.image[first + i]} << (8 * i);  // little-endian
      values[static_cast<size_t>(r) * m.cols + k] = v;
    }
  }
  return values;
}

DescriptorTile AsReadUnder(const DescriptorTile& t, spec_choice::Base32BAtomKRows base32b) {
  DescriptorTile out = t;
  for (const smem::Operand which : {smem::Operand::kA, smem::Operand::kB}) {
    if (const auto values = ReadOperand(t, which, base32b)) PlaceOperand(out, which, *values);
  }
  return out;
}

bool PlaceOperand(DescriptorTile& t, smem::Operand which, const std::vector<uint64_t>& values) {
  const auto map = smem::Map(which == smem::Operand::kA ? t.a : t.b);
  if (!map.ok()) return false;
  const auto& m = map.value();
  const size_t bytes = static_cast<size_t>((m.element_bits + 7) / 8);
  bool all = values.size() == static_cast<size_t>(m.rows) * m.cols;
  for (int r = 0; r < m.rows; ++r) {
    for (int k = 0; k < m.cols; ++k) {
      const size_t i = static_cast<size_t>(r) * m.cols + k, first = m.Bit(r, k) / 8;
      if (i >= values.size() || first + bytes > t.image.size()) {
        all = false;
        continue;
      }
      for (size_t b = 0; b < bytes; ++b)
        t.image[first + b] = static_cast<uint8_t>(values[i] >> (8 * b));
    }
  }
  return all;
}

std::optional<num::DotParams> TileParams(const DescriptorTile& t) {
  if (t.a.arch != smem::Arch::kSm90a)
    return num::ParamsFor(num::Gpu::kSm100, num::Instr::kTcgen05, t.ab, t.d);
  return num::ParamsFor(num::Gpu::kSm90, num::Instr::kWgmma, t.ab, t.d);
}

std::vector<std::string_view> ReadingsOf(const DescriptorTile& t) {
  std::vector<std::string_view> ids = smem::ReadingsOf(t.a);
  for (std::string_view id : smem::ReadingsOf(t.b)) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  const bool wgmma = t.a.arch == smem::Arch::kSm90a;
  if (wgmma) ids.push_back("W1");
  if (t.sparse) {
    if (wgmma) {
      ids.insert(ids.end(), {"SP6", "SP1"});
    } else {
      ids.push_back("TM1");
    }
  }
  if (t.zero_column_mask) {
    tcgen05::ZcmCase mask;
    mask.desc = *t.zero_column_mask;
    mask.shape.m = t.a.view.rows;
    mask.shape.n = t.n;
    mask.shape.sparse = t.sparse.has_value();
    for (std::string_view id : tcgen05::ReadingsOf(mask)) ids.push_back(id);
  }
  return ids;
}

Result<std::vector<uint32_t>> TileReference(const DescriptorTile& t, bool general_only,
                                            const num::DotParams* given) {
  using R = Result<std::vector<uint32_t>>;
  const auto params = given ? std::optional<num::DotParams>(*given) : TileParams(t);
  const bool is_int = !num::IsFloat(t.ab);
  if (!params && !is_int) return R::Fail("no sm_90 wgmma numerics for this type");
  // An invalid swizzle code has no reading at all: said apart from a map that leaves the image.
  for (const smem::SmemCase* c : {&t.a, &t.b}) {
    if (!smem::DecodeMatrix(c->arch, c->desc))
      return R::Fail(std::string(c == &t.a ? "A" : "B") +
                     "'s descriptor has an invalid swizzle code");
  }
  const auto a = ReadOperand(t, smem::Operand::kA);
  const auto b = ReadOperand(t, smem::Operand::kB);
  if (!a || !b) return R::Fail("an operand's address map reaches outside the shared-memory image");
  const int k = TileK(t), m = t.a.view.rows;
  // The views must hold what the types say: A M x (K, or K/2 sparse), B n x K.
  if (a->size() != static_cast<size_t>(m) * (t.sparse ? k / 2 : k) ||
      b->size() < static_cast<size_t>(t.n) * k || t.b.view.rows < t.n) {
    return R::Fail("an operand's view does not match the tile's types and shape");
  }
  std::vector<int> b_column(static_cast<size_t>(t.n));
  for (int j = 0; j < t.n; ++j) b_column[static_cast<size_t>(j)] = j;
  if (t.zero_column_mask) {
    const auto e = tcgen05::Expand(*t.zero_column_mask, m, t.n);
    if (!e) return R::Fail("the zero-column mask does not expand for this M and N");
    b_column = e->b_column;
    for (int col : b_column) {
      if (col >= t.b.view.rows)
        return R::Fail("the zero-column mask shifts a column past B's rows");
    }
  }
  // Sparse: which K each stored element of A meets (the kept ones, in ascending K, as mma.sp's
  // reference sums them); dense: every K in order.
  const int stored = t.sparse ? k / 2 : k;
  std::vector<int> meets;
  if (t.sparse) {
    const sparse::SparseForm& f = *t.sparse->form;
    if (static_cast<int>(t.sparse->nibbles.size()) != m * f.chunks_per_row() || f.k != k) {
      return R::Fail("the sparse metadata does not fit the tile");
    }
    meets = sparse::KeptK(f, t.sparse->nibbles);
  }
  // B's rows are N; a masked column reads zeros (+0 in every type).
  num::TileMmaSpec s;
  s.fa = t.ab;
  s.fb = t.b_type;
  s.cd = t.d;
  s.params = params.value_or(num::DotParams{});
  s.m = m;
  s.n = t.n;
  s.stored = stored;
  s.a = *a;
  s.b = *b;
  s.b_k_stride = 1;
  s.b_n_stride = static_cast<size_t>(k);
  s.meets = meets;
  s.b_column = b_column;
  if (!t.c.empty() && t.c.size() != static_cast<size_t>(m) * t.n)
    return R::Fail("C does not hold M x n elements");
  s.c = t.c;
  s.general_only = general_only;
  std::vector<uint32_t> d = num::TileMma(s);
  return R::Ok(std::move(d));
}

bool operator==(const TileSparse&, const TileSparse&) = default;

}  // namespace tcfuzz::oracle::tile
