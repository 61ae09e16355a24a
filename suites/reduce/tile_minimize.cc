#include "suites/reduce/tile_minimize.h"

#include <algorithm>
#include <span>

#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/reduce/shrinker.h"

namespace tcfuzz::suites {

using oracle::smem::Operand;
using oracle::smem::SmemCase;
using oracle::tile::DescriptorTile;
using oracle::tile::DescriptorTileFile;

namespace {

uint64_t Region(const SmemCase& c) {
  if (c.pattern_start) return *c.pattern_start;
  const auto m = oracle::smem::DecodeMatrix(c.arch, c.desc);
  return m ? m->start & ~uint64_t{1023} : 0;
}

std::vector<uint64_t> Values(const DescriptorTile& t, Operand which) {
  return oracle::tile::ReadOperand(t, which).value_or(std::vector<uint64_t>{});
}

// The D element a mismatch signature names ("D[r][c]"); {-1, -1} for other signatures.
struct Element {
  int row = -1, col = -1;
};
Element SignatureElement(const FailureSignature& s) {
  const std::size_t open = s.where.find('['), second = s.where.rfind('[');
  if (s.outcome != "mismatch" || open == std::string::npos || second == open) return {};
  return {std::atoi(s.where.c_str() + open + 1), std::atoi(s.where.c_str() + second + 1)};
}

// The B column D column `col` reads (a zero-column mask can shift or zero it: -1).
int BColumn(const DescriptorTile& t, int col) {
  if (!t.zero_column_mask) return col;
  const auto e = oracle::tcgen05::Expand(*t.zero_column_mask, t.a.view.rows, t.n);
  return e ? e->b_column[static_cast<std::size_t>(col)] : col;
}

// The non-zero values: A's indices, then B's offset by A's count.
std::vector<std::size_t> LiveValues(const DescriptorTileFile& f) {
  std::vector<std::size_t> live;
  const std::vector<uint64_t> a = Values(f.tile, Operand::kA), b = Values(f.tile, Operand::kB);
  for (std::size_t i = 0; i < a.size() + b.size(); ++i) {
    if ((i < a.size() ? a[i] : b[i - a.size()]) != 0) live.push_back(i);
  }
  return live;
}

}  // namespace

std::size_t NonZeroValues(const DescriptorTileFile& f) { return LiveValues(f).size(); }

std::optional<DescriptorTile> Replace(const DescriptorTile& t, const SmemCase& a, const SmemCase& b,
                                      const std::vector<uint64_t>& a_values,
                                      const std::vector<uint64_t>& b_values, uint8_t fill) {
  DescriptorTile out = t;
  out.a = a;
  out.b = b;
  out.n = b.view.rows;
  out.image.assign(t.image.size(), fill);
  if (!oracle::tile::PlaceOperand(out, Operand::kA, a_values) ||
      !oracle::tile::PlaceOperand(out, Operand::kB, b_values)) {
    return std::nullopt;
  }
  // Aliased elements, or B's bytes over A's: the values would not read back as placed.
  if (Values(out, Operand::kA) != a_values || Values(out, Operand::kB) != b_values)
    return std::nullopt;
  return out;
}

std::optional<SmemCase> CompactLayout(const SmemCase& c, oracle::smem::Major major,
                                      oracle::smem::Swizzle swizzle) {
  const uint64_t region = Region(c);
  SmemCase s = c;
  s.view.major = major;
  s.pattern_start = region;
  if (!oracle::smem::SwizzleAllowed(c.arch, major, c.view.dtype, swizzle)) return std::nullopt;
  oracle::smem::SmemMatrix m;
  m.start = region;
  m.swizzle = swizzle;
  m.base_offset = oracle::smem::BaseOffsetFor(swizzle, region);
  s.desc = oracle::smem::EncodeMatrix(c.arch, m).desc;
  return gen::WithCompactStrides(s);
}

TileMinimizeResult MinimizeTile(const DescriptorTileFile& start, const FailureSignature& signature,
                                const TileEvaluator& evaluate, int budget) {
  Shrinker<DescriptorTileFile> s(start, signature, evaluate, budget);
  const uint8_t fill = start.fill;
  const auto attempt = [&](const std::optional<DescriptorTile>& t) {
    return t && s.Try(DescriptorTileFile{*t, fill, std::nullopt});
  };
  const auto cur = [&s]() -> const DescriptorTile& { return s.current().tile; };
  // 1. N: the smallest multiple of 8 (16 on tcgen05) that still holds the misread column; a
  // masked tile keeps its N (the mask's shape depends on it).
  const auto [row, col] = SignatureElement(signature);
  if (col >= 0 && !cur().zero_column_mask) {
    const int step = cur().a.arch == oracle::smem::Arch::kSm90a ? 8 : 16;
    for (int n = (col / step + 1) * step; n < cur().n; n += step) {
      SmemCase b = cur().b;
      b.view.rows = n;
      std::vector<uint64_t> bv = Values(cur(), Operand::kB);
      bv.resize(static_cast<std::size_t>(n * oracle::tile::TileK(cur())));
      if (attempt(Replace(cur(), cur().a, b, Values(cur(), Operand::kA), bv, fill))) break;
    }
  }
  // 2. Layouts: the simplest one, else compact strides with its own major and swizzle, else the
  // start back on the pattern start.
  for (const Operand which : {Operand::kA, Operand::kB}) {
    const auto pick = [&](const DescriptorTile& t) -> const SmemCase& {
      return which == Operand::kA ? t.a : t.b;
    };
    const auto with = [&](const SmemCase& c) {
      const SmemCase& a = which == Operand::kA ? c : cur().a;
      const SmemCase& b = which == Operand::kB ? c : cur().b;
      return Replace(cur(), a, b, Values(cur(), Operand::kA), Values(cur(), Operand::kB), fill);
    };
    auto m = oracle::smem::DecodeMatrix(pick(cur()).arch, pick(cur()).desc);
    if (!m) continue;
    bool kept = false;
    for (const auto& [major, swizzle] :
         {std::pair{oracle::smem::Major::kK, oracle::smem::Swizzle::kNone},
          std::pair{pick(cur()).view.major, m->swizzle}}) {
      const auto compact = CompactLayout(pick(cur()), major, swizzle);
      if (compact && *compact != pick(cur()) && attempt(with(*compact))) {
        kept = true;
        break;
      }
    }
    if (kept) continue;
    if (m->start == Region(pick(cur()))) continue;
    m->start = Region(pick(cur()));
    m->base_offset = oracle::smem::BaseOffsetFor(m->swizzle, m->start);
    SmemCase c = pick(cur());
    c.desc = oracle::smem::EncodeMatrix(c.arch, *m).desc;
    if (oracle::smem::Validate(c).legal()) attempt(with(c));
  }
  // 3. Values: first everything but the misread element's row of A and column of B (all a
  // correct device would read for it), then halves of what is left, down to single values.
  if (row >= 0 && col >= 0 && col < cur().n && row < cur().a.view.rows) {
    std::vector<uint64_t> a = Values(cur(), Operand::kA), b = Values(cur(), Operand::kB);
    // Elements per row: A's stored K (half of it when sparse), B's K.
    const std::size_t a_row = a.size() / static_cast<std::size_t>(cur().a.view.rows);
    const std::size_t b_row = b.size() / static_cast<std::size_t>(cur().b.view.rows);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (static_cast<int>(i / a_row) != row) a[i] = 0;
    }
    const int b_col = BColumn(cur(), col);
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (static_cast<int>(i / b_row) != b_col) b[i] = 0;
    }
    attempt(Replace(cur(), cur().a, cur().b, a, b, fill));
  }
  s.ZeroInParts<std::size_t>(
      LiveValues, [fill](DescriptorTileFile& f, std::span<const std::size_t> slots) {
        std::vector<uint64_t> a = Values(f.tile, Operand::kA), b = Values(f.tile, Operand::kB);
        for (const std::size_t i : slots) (i < a.size() ? a[i] : b[i - a.size()]) = 0;
        const auto t = Replace(f.tile, f.tile.a, f.tile.b, a, b, fill);
        if (t) f.tile = *t;
        return t.has_value();
      });
  return {s.current(), s.tries(), s.accepted()};
}

}  // namespace tcfuzz::suites
