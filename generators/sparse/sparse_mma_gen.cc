#include "generators/sparse/sparse_mma_gen.h"

#include <array>
#include <vector>

#include "generators/core/mma_values.h"
#include "oracle/core/span.h"

namespace tcfuzz::gen {
namespace {

using namespace oracle::sparse;
using oracle::Rule;
using oracle::num::Format;

constexpr std::array<const Rule*, 5> kBreakable = {&sp_rule::kSelector, &sp_rule::kRepeatedIndex,
                                                   &sp_rule::kUnordered, &sp_rule::kTf32Nibble,
                                                   &sp_rule::kOrderedOnly};

// The forms the host model can compute: integers, and floats with a parameter row on some
// target (the f8f6f4-only types have none for mma yet).
std::vector<const SparseForm*> ModelledForms() {
  std::vector<const SparseForm*> out;
  for (const SparseForm& f : AllForms()) {
    if (!f.ordered_only) out.push_back(&f);
  }
  return out;
}

GeneratedSparse DrawLegal(Source& s, const SparseForm* pinned) {
  GeneratedSparse g;
  static const std::vector<const SparseForm*> forms = ModelledForms();
  const SparseForm& f = pinned ? *pinned : *forms[s.Below(forms.size())];
  g.op.form = &f;
  g.op.variant = f.ordered_only || s.Below(4) != 0 ? Variant::kOrdered : Variant::kSp;
  g.op.selector = static_cast<int>(s.Below(static_cast<uint64_t>(f.max_selector()) + 1));
  for (uint32_t& reg : g.op.meta)
    reg = static_cast<uint32_t>(s.Bits(32));  // garbage everywhere first
  static constexpr std::array<ValueMode, 5> kModes = {ValueMode::kRandom, ValueMode::kSmallInt,
                                                      ValueMode::kEdge, ValueMode::kProbe,
                                                      ValueMode::kTiny};
  g.mode = s.Pick(oracle::Span<const ValueMode>(kModes));
  SparseTile& t = g.tile;
  t.form = &f;
  t.a_type = f.type;
  t.b_type = f.type;
  // Mixed signedness / fp8 kinds: B may take the sibling type.
  if ((f.type == Format::kS8 || f.type == Format::kU8) && s.Coin())
    t.b_type = f.type == Format::kS8 ? Format::kU8 : Format::kS8;
  if ((f.type == Format::kS4 || f.type == Format::kU4) && s.Coin())
    t.b_type = f.type == Format::kS4 ? Format::kU4 : Format::kS4;
  if ((f.type == Format::kE4M3 || f.type == Format::kE5M2) && s.Coin()) {
    t.b_type = f.type == Format::kE4M3 ? Format::kE5M2 : Format::kE4M3;
  }
  const bool integer = !oracle::num::IsFloat(f.type);
  t.cd =
      integer ? Format::kS32 : (f.type == Format::kF16 && s.Coin() ? Format::kF16 : Format::kF32);
  t.satfinite = integer && s.Coin();
  // Metadata of the selected lanes: a defined nibble per (row, chunk).
  const int cpr = f.chunks_per_row();
  t.nibbles.resize(static_cast<std::size_t>(16 * cpr));
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < cpr; ++chunk) {
      const uint8_t nib = s.Pick(DefinedNibbles(f, g.op.variant));
      t.nibbles[static_cast<std::size_t>(row * cpr + chunk)] = nib;
      SetNibble(g.op, row, chunk, nib);
    }
  }
  // Values.
  const int kept_per_row = f.k / 2;
  t.a.resize(static_cast<std::size_t>(16 * kept_per_row));
  t.b.resize(static_cast<std::size_t>(f.k * 8));
  t.c.resize(16 * 8);
  if (g.mode == ValueMode::kProbe) {
    // A: each kept element holds its own dense column + 1 (exact small integers in every
    // format with at least 3 significand bits... clamped to the format's range); B one-hot in
    // column n at row (hot + 5n) % K (ProbeB): D[i][n] then reads which A element met B's hot row.
    const std::vector<int> cols = KeptK(f, t.nibbles);
    for (std::size_t x = 0; x < cols.size(); ++x) {
      const int v = 1 + cols[x] % (integer ? 7 : 8);
      t.a[x] = integer ? static_cast<uint64_t>(v) : oracle::num::FromDouble(f.type, v);
    }
  }
  DrawOperandValues(s, t, g.mode, f.k);
  return g;
}

}  // namespace

oracle::Span<const Rule* const> SparseBreakableRules() { return kBreakable; }

GeneratedSparse DrawSparseBreaking(Source& s, const Rule& rule) {
  const SparseForm* pin = nullptr;
  if (&rule == &sp_rule::kTf32Nibble)
    pin = FindForm(s.Coin() ? "m16n8k8" : "m16n8k16", Format::kTF32);
  if (&rule == &sp_rule::kOrderedOnly)
    pin = FindForm("m16n8k64", s.Coin() ? Format::kE2M1 : Format::kE3M2);
  if (&rule == &sp_rule::kRepeatedIndex || &rule == &sp_rule::kUnordered ||
      &rule == &sp_rule::kSelector) {
    // Any non-tf32 form (tf32 nibbles have their own rule).
    std::vector<const SparseForm*> forms;
    for (const SparseForm& f : AllForms()) {
      if (f.type != Format::kTF32 && !f.ordered_only) forms.push_back(&f);
    }
    pin = forms[s.Below(forms.size())];
  }
  GeneratedSparse g = DrawLegal(s, pin);
  g.intent = Intent::kBreakOne;
  g.broken = &rule;
  const SparseForm& f = *g.op.form;
  const int row = static_cast<int>(s.Below(16));
  const int chunk = static_cast<int>(s.Below(static_cast<uint64_t>(f.chunks_per_row())));
  const auto plant = [&](uint8_t nib) {
    SetNibble(g.op, row, chunk, nib);
    g.tile.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)] = nib;
  };
  if (&rule == &sp_rule::kSelector) {
    // Out of range but encodable (the immediate is 0..3) where the form leaves room, else 4.
    const int max = f.max_selector();
    g.op.selector =
        max == 3 ? 4 : max + 1 + static_cast<int>(s.Below(static_cast<uint64_t>(3 - max)));
  } else if (&rule == &sp_rule::kRepeatedIndex) {
    static constexpr std::array<uint8_t, 4> kSame = {0x0, 0x5, 0xA, 0xF};
    plant(s.Pick(oracle::Span<const uint8_t>(kSame)));
  } else if (&rule == &sp_rule::kUnordered) {
    g.op.variant = Variant::kOrdered;
    for (int r = 0; r < 16; ++r) {  // make the rest ascending, then plant one descending pair
      for (int c = 0; c < f.chunks_per_row(); ++c) {
        const uint8_t n = g.tile.nibbles[static_cast<std::size_t>(r * f.chunks_per_row() + c)];
        if ((n & 3) > (n >> 2)) {
          const uint8_t asc = static_cast<uint8_t>((n >> 2) | ((n & 3) << 2));
          SetNibble(g.op, r, c, asc);
          g.tile.nibbles[static_cast<std::size_t>(r * f.chunks_per_row() + c)] = asc;
        }
      }
    }
    static constexpr std::array<uint8_t, 6> kDescending = {0x1, 0x2, 0x3, 0x6, 0x7, 0xB};
    plant(s.Pick(oracle::Span<const uint8_t>(kDescending)));
  } else if (&rule == &sp_rule::kTf32Nibble) {
    static constexpr std::array<uint8_t, 14> kBad = {0x0, 0x1, 0x2, 0x3, 0x5, 0x6, 0x7,
                                                     0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xF};
    plant(s.Pick(oracle::Span<const uint8_t>(kBad)));
  } else if (&rule == &sp_rule::kOrderedOnly) {
    g.op.variant = Variant::kSp;
  }
  return g;
}

GeneratedSparse DrawSparse(Source& s, Intent intent) {
  switch (intent) {
    case Intent::kBreakOne:
      return DrawSparseBreaking(s, *s.Pick(SparseBreakableRules()));
    case Intent::kRawBits: {
      GeneratedSparse g = DrawLegal(s, nullptr);
      g.intent = Intent::kRawBits;
      g.op.selector = static_cast<int>(s.Below(4));
      for (uint32_t& reg : g.op.meta) reg = static_cast<uint32_t>(s.Bits(32));
      return g;
    }
    default:
      return DrawLegal(s, nullptr);
  }
}

}  // namespace tcfuzz::gen
