#include "generators/smem/descriptor_tile_gen.h"

#include <algorithm>
#include <array>

#include "generators/core/mma_values.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/core/span.h"
#include "oracle/ptx/instruction_form.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/sparse/sparse_form.h"
#include "oracle/tcgen05/smem_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::gen {
namespace {

using oracle::num::Format;
using namespace oracle::smem;

struct TypePair {
  Format ab, b;
  DType dtype;
};
constexpr std::array<TypePair, 9> kTypes{{
    {Format::kF16, Format::kF16, DType::kF16},
    {Format::kBF16, Format::kBF16, DType::kBF16},
    {Format::kTF32, Format::kTF32, DType::kTF32},
    {Format::kE4M3, Format::kE4M3, DType::kE4M3},
    {Format::kE5M2, Format::kE4M3, DType::kE5M2},
    {Format::kS8, Format::kS8, DType::kS8},
    {Format::kU8, Format::kS8, DType::kU8},
    {Format::kE4M3, Format::kE5M2, DType::kE4M3},
    {Format::kS8, Format::kU8, DType::kS8},
}};

DType DTypeOf(Format f) {
  for (const auto& t : kTypes) {
    if (t.ab == f) return t.dtype;
  }
  return DType::kF16;
}

// Whether no two elements of the case share a byte: an aliased layout reads one placed value
// for several elements, so probe values no longer name the element the device read.
bool Unaliased(const SmemCase& c) {
  const auto map = Map(c);
  return map.ok() && DistinctSlots(map.value().bits, 1);
}

// Whether every element of the case lies in [half, half + the half image), none aliased: one
// address map for both checks (a draw tries up to 32 layouts per operand).
bool InsideHalf(const SmemCase& c, uint64_t half) {
  const auto map = Map(c);
  if (!map.ok()) return false;
  for (const uint64_t bit : map.value().bits) {
    if (bit / 8 < half || bit / 8 + 4 > half + kTileImageBytes / 2) return false;
  }
  return DistinctSlots(map.value().bits, 1);
}

// One operand: a descriptor for `rows` x `kbytes` of K inside the image half that starts at
// `half` (1024-aligned). The swizzle pattern starts on the half, or (every other case) 128 * j
// bytes past it, so the base offset takes all eight values; the start is on the pattern or
// inside a swizzle row (16-byte steps, as a K loop advances it).
SmemCase DrawOperand(Source& s, Arch arch, Operand which, DType dtype, int rows, int kbytes,
                     uint64_t half) {
  SmemCase c;
  c.arch = arch;
  c.operand = which;
  const bool mn_ok = MajorAllowed(arch, Major::kMN, dtype);
  c.view = {mn_ok && s.Coin() ? Major::kMN : Major::kK, dtype, rows, kbytes};
  // Every mode the target allows for this major and type (tcgen05's MN-major tf32 has only
  // 128B with 32-byte atoms).
  std::vector<Swizzle> modes;
  for (Swizzle sw :
       {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k128B32BAtom}) {
    if (SwizzleAllowed(arch, c.view.major, dtype, sw)) modes.push_back(sw);
  }
  const Swizzle sw = modes[s.Below(modes.size())];
  const uint64_t pattern = half + (sw != Swizzle::kNone && s.Coin() ? 128 * s.InRange(1, 7) : 0);
  SmemMatrix m;
  m.swizzle = sw;
  m.start =
      pattern + (s.Coin() ? 0 : 16 * s.Below(sw == Swizzle::kNone ? 8 : SwizzleRowBytes(sw) / 16));
  m.base_offset = BaseOffsetFor(sw, pattern);
  c.pattern_start = pattern;
  // LBO and SBO: multiples of 16 (K-major swizzled layouts ignore LBO, so any value), drawn from
  // a range that halves until every element lies in the operand's half of the image, unaliased;
  // else the compact strides.
  bool placed = false;
  for (uint64_t range = 128; range >= 1 && !placed; range /= 2) {
    for (int attempt = 0; attempt < 4 && !placed; ++attempt) {
      m.lbo = 16 * (1 + s.Below(range));
      m.sbo = 16 * (1 + s.Below(range));
      c.desc = EncodeMatrix(arch, m).desc;
      placed = InsideHalf(c, half);
    }
  }
  if (!placed) {
    if (const auto compact = WithCompactStrides(c); compact && InsideHalf(*compact, half)) {
      c = *compact;
    } else {  // the compact layout from the half's first byte fits whatever the N
      m.start = half;
      m.base_offset = BaseOffsetFor(sw, half);
      c.pattern_start = half;
      c.desc = EncodeMatrix(arch, m).desc;
      if (const auto at_half = WithCompactStrides(c)) c = *at_half;
    }
    m = *DecodeMatrix(arch, c.desc);  // the layout kept, for the stride-at-limit variant below
  }
  // A stride at its field's limit where the layout leaves it unused or ignored (one row group,
  // or LBO of a K-major swizzled layout): kept only when every element stays in the half.
  if (s.Below(4) == 0) {
    SmemMatrix limit = m;
    (s.Coin() ? limit.lbo : limit.sbo) = uint64_t{0x3FFF} << 4;
    SmemCase at_limit = c;
    at_limit.desc = EncodeMatrix(arch, limit).desc;
    if (InsideHalf(at_limit, half)) c = at_limit;
  }
  return c;
}

// A in the first half of the image, B in the second: each region 1024-aligned. Sparse: A holds
// 32 bytes of kept elements per row, B the whole 64 bytes of K.
void DrawOperands(Source& s, Arch arch, oracle::tile::DescriptorTile& t, DType a, DType b, int m,
                  bool sparse) {
  t.a = DrawOperand(s, arch, Operand::kA, a, m, 32, 0);
  t.b = DrawOperand(s, arch, Operand::kB, b, t.n, sparse ? 64 : 32, kTileImageBytes / 2);
}

// The mma.sp form whose K and metadata a sparse wgmma of this A type shares: 64 bytes of K.
const oracle::sparse::SparseForm* SparseFormFor(Format a) {
  const int k = 64 * 8 / oracle::num::StorageBits(a);
  return oracle::sparse::FindForm("m16n8k" + std::to_string(k), a);
}

// A tile of `arch` with M rows of A and one of `ns` columns; the types of the table. Sparse
// (wgmma.mma_async.sp, tcgen05.mma.sp): A stores the kept half of K, with legal ordered
// metadata; the selector ranges over what the mma.sp form of that K takes, which is also what
// tcgen05's metadata columns allow (TM1).
GeneratedTile DrawTile(Source& s, Arch arch, int m, oracle::Span<const int> ns,
                       bool sparse = false) {
  GeneratedTile g;
  auto& t = g.tile;
  const TypePair& ty = kTypes[s.Below(kTypes.size())];
  t.ab = ty.ab;
  t.b_type = ty.b;
  const auto* wt = oracle::ptx::FindWgmmaType(ty.ab);
  std::vector<Format> ds;
  if (wt->d_f32) ds.push_back(Format::kF32);
  if (wt->d_f16 && arch == Arch::kSm90a)
    ds.push_back(Format::kF16);  // tcgen05 reads back 32-bit D only
  if (wt->d_s32) ds.push_back(Format::kS32);
  t.d = ds[s.Below(ds.size())];
  t.n = ns[s.Below(ns.size())];
  static constexpr TileValues kModes[] = {TileValues::kSmallInt, TileValues::kProbe,
                                          TileValues::kRandom};
  g.values = kModes[s.Below(3)];
  const bool is_float = oracle::num::IsFloat(ty.ab);
  // Poison: all-ones bytes are NaN in every float type here; 127 is far from any small integer.
  g.fill = is_float ? 0xFF : 0x7F;

  if (sparse) {
    oracle::tile::TileSparse sp;
    sp.form = SparseFormFor(ty.ab);
    sp.selector = static_cast<int>(s.Below(static_cast<uint64_t>(sp.form->max_selector()) + 1));
    // Ordered, distinct index pairs (tf32: element 0 or 1 of each pair).
    const auto defined =
        oracle::sparse::DefinedNibbles(*sp.form, oracle::sparse::Variant::kOrdered);
    for (int i = 0; i < m * sp.form->chunks_per_row(); ++i) sp.nibbles.push_back(s.Pick(defined));
    t.sparse = std::move(sp);
  }
  DrawOperands(s, arch, t, ty.dtype, DTypeOf(ty.b), m, sparse);
  t.image.assign(kTileImageBytes, g.fill);
  const int k = oracle::tile::TileK(t), stored = sparse ? k / 2 : k;
  std::vector<int> hot(static_cast<size_t>(t.n));
  for (int& h : hot) h = static_cast<int>(s.Below(static_cast<uint64_t>(k)));
  const int range = ProbeRange(ty.ab);
  // Values in (row, k) order, then placed where the oracle's maps say.
  std::vector<uint64_t> av(static_cast<size_t>(m * stored)), bv(static_cast<size_t>(t.n * k));
  for (int r = 0; r < m; ++r) {
    for (int x = 0; x < stored; ++x) {
      uint64_t v = g.values == TileValues::kRandom ? RandomValue(s, ty.ab) : SmallInt(s, ty.ab);
      if (g.values == TileValues::kProbe) {
        const int p = 1 + (r * stored + x) % range;
        v = is_float ? oracle::num::FromDouble(ty.ab, p) : static_cast<uint64_t>(p);
      }
      av[static_cast<size_t>(r * stored + x)] = v;
    }
  }
  for (int n = 0; n < t.n; ++n) {
    for (int kk = 0; kk < k; ++kk) {
      uint64_t v = g.values == TileValues::kRandom ? RandomValue(s, ty.b) : SmallInt(s, ty.b);
      if (g.values == TileValues::kProbe)
        v = kk == hot[static_cast<size_t>(n)] ? (is_float ? oracle::num::FromDouble(ty.b, 1.0) : 1)
                                              : 0;
      bv[static_cast<size_t>(n * k + kk)] = v;
    }
  }
  // Elements outside the image stay unplaced: the reference then says the map leaves it.
  oracle::tile::PlaceOperand(t, Operand::kA, av);
  oracle::tile::PlaceOperand(t, Operand::kB, bv);
  return g;
}

}  // namespace

std::optional<SmemCase> WithCompactStrides(const SmemCase& c) {
  const auto current = DecodeMatrix(c.arch, c.desc);
  if (!current) return std::nullopt;
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint64_t lbo = 16; lbo <= 8192; lbo *= 2) {
    for (uint64_t sbo = 16; sbo <= 8192; sbo *= 2) pairs.push_back({lbo, sbo});
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    return std::max(x.first, x.second) < std::max(y.first, y.second);
  });
  for (const auto& [lbo, sbo] : pairs) {
    SmemMatrix m = *current;
    m.lbo = lbo;
    m.sbo = sbo;
    SmemCase s = c;
    s.desc = EncodeMatrix(c.arch, m).desc;
    if (Validate(s).legal() && Unaliased(s)) return s;
  }
  return std::nullopt;
}

bool DistinctSlots(oracle::Span<const uint64_t> addresses, uint64_t slot) {
  if (addresses.empty()) return true;
  slot = std::max<uint64_t>(slot, 1);
  const auto range = std::minmax_element(addresses.begin(), addresses.end());
  const uint64_t lo = *range.first / slot, slots = *range.second / slot - lo + 1;
  if (slots <= (uint64_t{1} << 24)) {
    std::vector<bool> seen(static_cast<std::size_t>(slots));
    for (const uint64_t a : addresses) {
      const std::size_t i = static_cast<std::size_t>(a / slot - lo);
      if (seen[i]) return false;
      seen[i] = true;
    }
    return true;
  }
  std::vector<uint64_t> sorted;
  sorted.reserve(addresses.size());
  for (const uint64_t a : addresses) sorted.push_back(a / slot);
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

std::string_view Name(TileValues v) {
  switch (v) {
    case TileValues::kSmallInt:
      return "small_int";
    case TileValues::kProbe:
      return "probe";
    case TileValues::kRandom:
      return "random";
  }
  return "?";
}

void BreakOneDescriptor(Source& s, GeneratedTile& g) {
  namespace tr = oracle::tcgen05::desc_rule;
  namespace wr = oracle::wgmma::desc_rule;
  oracle::smem::SmemCase& c = s.Coin() ? g.tile.b : g.tile.a;
  const bool swizzled = DecodeMatrix(c.arch, c.desc)->swizzle != Swizzle::kNone;
  const oracle::Rule* base =
      swizzled ? &smem_rule::kBaseOffsetValue : &smem_rule::kBaseOffsetNoSwizzle;
  std::vector<const oracle::Rule*> rules{base};
  if (c.arch == Arch::kSm90a) {
    rules.insert(rules.end(),
                 {&wr::kReserved14, &wr::kReserved30, &wr::kReserved46, &wr::kReserved52});
  } else {
    // Not the LBO mode bit: on sm_100a it breaks three rules at once.
    rules.insert(rules.end(), {&tr::kFixed46, &tr::kReserved14, &tr::kReserved30, &tr::kFixed53,
                               &tr::kSwizzleCode});
  }
  g.broken = rules[s.Below(rules.size())];
  c.desc = BreakDescriptorField(s, c, *g.broken);
}

oracle::tile::DescriptorTile PlainWgmmaTile(Format ab, Format b_type, Format d, int n,
                                            const std::vector<uint64_t>& a,
                                            const std::vector<uint64_t>& b, std::vector<uint32_t> c,
                                            int image_bytes) {
  oracle::tile::DescriptorTile t;
  t.ab = ab;
  t.b_type = b_type;
  t.d = d;
  t.n = n;
  const auto operand = [&](Operand which, Format f, int rows, uint64_t start) {
    SmemCase c_;
    c_.arch = Arch::kSm90a;
    c_.operand = which;
    c_.view = {Major::kK, DTypeOf(f), rows, 32};
    c_.desc =
        EncodeMatrix(Arch::kSm90a, SmemMatrix{start, 128, 256, 0, false, Swizzle::kNone}).desc;
    return c_;
  };
  t.a = operand(Operand::kA, ab, 64, 0);
  t.b = operand(Operand::kB, b_type, n, static_cast<uint64_t>(image_bytes / 2));
  t.image.assign(static_cast<std::size_t>(image_bytes), 0);
  oracle::tile::PlaceOperand(t, Operand::kA, a);
  oracle::tile::PlaceOperand(t, Operand::kB, b);
  t.c = std::move(c);
  return t;
}

GeneratedTile DrawWgmmaTile(Source& s) {
  static constexpr int kN[] = {64, 8, 16, 128, 256, 24};
  return DrawTile(s, Arch::kSm90a, 64, kN);
}

oracle::tile::DescriptorTile DrawWgmmaLayout(Source& s, Format ab, int n) {
  oracle::tile::DescriptorTile t;
  t.ab = t.b_type = ab;
  t.d = Format::kF32;
  t.n = n;
  DrawOperands(s, Arch::kSm90a, t, DTypeOf(ab), DTypeOf(ab), 64, false);
  return t;
}

GeneratedTile DrawWgmmaSpTile(Source& s) {
  static constexpr int kN[] = {64, 8, 16, 128, 256, 24};
  return DrawTile(s, Arch::kSm90a, 64, kN, true);
}

GeneratedTile DrawTcgen05SpTile(Source& s) {
  static constexpr int kN[] = {64, 8, 16, 128, 32};
  return DrawTile(s, Arch::kSm100a, 128, kN, true);
}

GeneratedTile DrawTcgen05Tile(Source& s, bool ws) {
  static constexpr int kN[] = {64, 8, 16, 128, 32};
  GeneratedTile g =
      DrawTile(s, Arch::kSm100a, 128,
               ws ? oracle::Span<const int>(kTcgen05WsN) : oracle::Span<const int>(kN));
  if (ws) DrawWsMask(s, g.tile);
  return g;
}

void DrawWsMask(Source& s, oracle::tile::DescriptorTile& t) {
  // A legal mask drawn for this M and N (the zero-column-mask generator's own shapes vary).
  const int m = t.a.view.rows;
  t.zero_column_mask.reset();
  for (int tries = 0; tries < 256 && !t.zero_column_mask; ++tries) {
    const GeneratedZcm z = DrawZcm(s, Intent::kLegal);
    if (z.c.shape.m != m || z.c.shape.n != t.n || z.c.shape.sparse) continue;
    // Shifted columns must stay among B's N rows (what a shift past N reads is open: Z5).
    const auto e = oracle::tcgen05::Expand(z.c.desc, m, t.n);
    if (!e || !std::all_of(e->b_column.begin(), e->b_column.end(), [&](int c) { return c < t.n; }))
      continue;
    // A mask zeroing every column makes D = C (all-zero without C). The mask generator keeps
    // those rarely for its own drawn shape, yet 2.6-4.8% of .ws tiles' D were all-zero or C at
    // 2,000 emulated cases with that alone; this tile-level check took them under 1% (issue 31).
    if (e->mask.count() == static_cast<std::size_t>(t.n) && s.Below(32) != 0) continue;
    t.zero_column_mask = z.c.desc;
  }
  if (!t.zero_column_mask) t.zero_column_mask = 0;  // no columns zeroed
}

oracle::tile::DescriptorTile DrawTcgen05Layout(Source& s, Format ab, int n, bool ws) {
  oracle::tile::DescriptorTile t;
  t.ab = t.b_type = ab;
  t.d = Format::kF32;
  t.n = n;
  DrawOperands(s, Arch::kSm100a, t, DTypeOf(ab), DTypeOf(ab), 128, false);
  if (ws) DrawWsMask(s, t);
  return t;
}

}  // namespace tcfuzz::gen
