#include "oracle/sparse/sparse_metadata.h"

#include <algorithm>
#include <string>

#include "oracle/core/span.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/tile_mma.h"

namespace tcfuzz::oracle::sparse {
namespace {

constexpr std::array<const Rule*, 5> kRules = {&sp_rule::kSelector, &sp_rule::kRepeatedIndex,
                                               &sp_rule::kUnordered, &sp_rule::kTf32Nibble,
                                               &sp_rule::kOrderedOnly};

bool IsZero(Format type, uint64_t bits) {
  if (!num::IsFloat(type)) return num::DecodeInt(type, bits) == 0;
  return num::Decode(type, bits).is_zero();
}

}  // namespace

Span<const Rule* const> SparseRules() { return kRules; }

const Rule* NibbleRule(const SparseForm& f, Variant v, uint8_t nibble) {
  nibble &= 0xF;
  if (f.type == Format::kTF32) {
    return nibble == 0x4 || nibble == 0xE ? nullptr : &sp_rule::kTf32Nibble;
  }
  const int lo = nibble & 3, hi = nibble >> 2;
  if (lo == hi) return &sp_rule::kRepeatedIndex;
  if (v == Variant::kOrdered && lo > hi) return &sp_rule::kUnordered;
  return nullptr;
}

Span<const uint8_t> DefinedNibbles(const SparseForm& f, Variant v) {
  static constexpr std::array<uint8_t, 2> kTf32 = {0x4, 0xE};
  static constexpr std::array<uint8_t, 12> kDistinct = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE,
                                                        0x1, 0x2, 0x3, 0x6, 0x7, 0xB};
  if (f.type == Format::kTF32) return kTf32;
  return Span<const uint8_t>(kDistinct).first(v == Variant::kOrdered ? 6 : 12);
}

namespace {
// A selector past the form's range names no lane of the quad: such a nibble is not stored.
bool SelectorInRange(const SparseOp& op) {
  return op.selector >= 0 && op.selector <= op.form->max_selector();
}
}  // namespace

uint8_t NibbleOf(const SparseOp& op, int row, int chunk) {
  if (!SelectorInRange(op)) return 0;
  const MetaLocation m = MapMeta(*op.form, op.selector, row, chunk);
  return static_cast<uint8_t>((op.meta[static_cast<std::size_t>(m.lane)] >> m.bit) & 0xF);
}

void SetNibble(SparseOp& op, int row, int chunk, uint8_t nibble) {
  if (!SelectorInRange(op)) return;
  const MetaLocation m = MapMeta(*op.form, op.selector, row, chunk);
  uint32_t& reg = op.meta[static_cast<std::size_t>(m.lane)];
  reg = (reg & ~(0xFu << m.bit)) | (static_cast<uint32_t>(nibble & 0xF) << m.bit);
}

Verdict Validate(const SparseOp& op) {
  Verdict v;
  const SparseForm& f = *op.form;
  if (f.ordered_only && op.variant != Variant::kOrdered) {
    v.Add(sp_rule::kOrderedOnly, "variant", 0, f.Name() + " has no plain .sp spelling");
  }
  if (op.selector < 0 || op.selector > f.max_selector()) {
    v.Add(sp_rule::kSelector, "selector", static_cast<uint64_t>(op.selector),
          "selector " + std::to_string(op.selector) + " for " + f.Name() + " (0.." +
              std::to_string(f.max_selector()) + ")");
    return v;  // no lanes are selected: the metadata cannot be read
  }
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
      const uint8_t n = NibbleOf(op, row, chunk);
      if (const Rule* r = NibbleRule(f, op.variant, n)) {
        const MetaLocation m = MapMeta(f, op.selector, row, chunk);
        v.Add(*r,
              "meta[lane " + std::to_string(m.lane) + "] bits " + std::to_string(m.bit) + "-" +
                  std::to_string(m.bit + 3),
              n,
              "row " + std::to_string(row) + " chunk " + std::to_string(chunk) + ": nibble " +
                  Hex(n, 1));
      }
    }
  }
  return v;
}

std::vector<int> KeptPositions(const SparseForm& f, uint8_t nibble) {
  const int lo = nibble & 3, hi = (nibble >> 2) & 3;
  if (f.type == Format::kTF32) return {nibble == 0xE ? 1 : 0};  // 1:2: 0b0100 -> 0, 0b1110 -> 1
  if (f.chunk == 8) return {2 * lo, 2 * lo + 1, 2 * hi, 2 * hi + 1};  // 4:8 as two pairs
  return {lo, hi};
}

std::vector<int> KeptK(const SparseForm& f, Span<const uint8_t> nibbles) {
  std::vector<int> k;
  const std::size_t cpr = static_cast<std::size_t>(f.chunks_per_row());
  for (std::size_t at = 0; at < nibbles.size(); ++at) {
    for (const int pos : KeptPositions(f, nibbles[at]))
      k.push_back(static_cast<int>(at % cpr) * f.chunk + pos);
  }
  return k;
}

std::optional<CompressedChunk> Compress(const SparseForm& f, Format type,
                                        Span<const uint64_t> dense) {
  const bool pairs = f.chunk == 8;
  const int groups = pairs ? 4 : f.chunk;  // positions a nibble index can name
  const int keep = f.type == Format::kTF32 ? 1 : 2;
  std::vector<int> chosen;
  for (int g = 0; g < groups; ++g) {
    bool nonzero = false;
    for (int e = 0; e < (pairs ? 2 : 1); ++e)
      nonzero = nonzero || !IsZero(type, dense[static_cast<std::size_t>(pairs ? 2 * g + e : g)]);
    if (nonzero) chosen.push_back(g);
  }
  if (static_cast<int>(chosen.size()) > keep) return std::nullopt;
  for (int g = 0; static_cast<int>(chosen.size()) < keep;
       ++g) {  // fill with the lowest free positions
    bool used = false;
    for (int c : chosen) used = used || c == g;
    if (!used) chosen.push_back(g);
  }
  std::sort(chosen.begin(), chosen.end());
  CompressedChunk out;
  if (f.type == Format::kTF32) {
    out.nibble = chosen[0] == 0 ? 0x4 : 0xE;
  } else {
    out.nibble = static_cast<uint8_t>(chosen[0] | (chosen[1] << 2));
  }
  for (int pos : KeptPositions(f, out.nibble))
    out.values.push_back(dense[static_cast<std::size_t>(pos)]);
  return out;
}

std::vector<uint64_t> Expand(const SparseForm& f, Span<const uint64_t> values, uint8_t nibble) {
  std::vector<uint64_t> dense(static_cast<std::size_t>(f.chunk), 0);
  const std::vector<int> pos = KeptPositions(f, nibble);
  for (std::size_t i = 0; i < pos.size() && i < values.size(); ++i)
    dense[static_cast<std::size_t>(pos[i])] = values[i];
  return dense;
}

std::vector<uint32_t> Reference(const SparseTile& t, const num::DotParams& p,
                                SparseBlocking blocking, bool general_only) {
  const SparseForm& f = *t.form;
  const int kept_per_row = f.k / 2;
  const int cpr = f.chunks_per_row();
  num::TileMmaSpec s = num::WarpTileSpec(t, p);
  s.general_only = general_only;
  // Compressed: each row sums its kept elements, each meeting the row of B its nibble names.
  if (blocking == SparseBlocking::kCompressed) {
    const std::vector<int> meets = KeptK(f, t.nibbles);
    s.stored = kept_per_row;
    s.a = t.a;
    s.meets = meets;
    return num::TileMma(s);
  }
  // Dense: each row expanded back to K (zeros where dropped) meets every row of B.
  std::vector<uint64_t> dense;
  for (int i = 0; i < 16; ++i) {
    for (int chunk = 0; chunk < cpr; ++chunk) {
      const auto kept = Span<const uint64_t>(t.a).subspan(
          static_cast<std::size_t>(i * kept_per_row + chunk * f.kept),
          static_cast<std::size_t>(f.kept));
      const std::vector<uint64_t> expanded =
          Expand(f, kept, t.nibbles[static_cast<std::size_t>(i * cpr + chunk)]);
      dense.insert(dense.end(), expanded.begin(), expanded.end());
    }
  }
  s.stored = f.k;
  s.a = dense;
  return num::TileMma(s);
}

std::vector<std::string_view> ReadingsOf(const SparseForm& f, Variant v) {
  std::vector<std::string_view> ids = {"SP0", "SP1", "SP3"};
  if (f.k * f.elem_bits() == 512) ids.push_back("SP2");  // twice the dense mma's K: B in two halves
  if (v == Variant::kSp) ids.push_back("SP5");
  return ids;
}

}  // namespace tcfuzz::oracle::sparse
