// Sparse MMA operands: the fragment and metadata maps are bijections, agree with the row/col
// formulas of PTX 9.1 §9.7.14.6.2, the metadata rules and selector ranges of §9.7.14.6.1, and
// compress/expand.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "generators/core/random_source.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/sparse/sparse_metadata.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/tests/support/printers.h"

namespace tcfuzz::oracle::sparse {
namespace {

class EveryForm : public ::testing::TestWithParam<SparseForm> {};

TEST_P(EveryForm, AFragmentCoversEveryKeptSlotOnce) {
  const SparseForm& f = GetParam();
  std::set<std::tuple<int, int, int>> seen;
  for (int lane = 0; lane < 32; ++lane) {
    for (int reg = 0; reg < f.a_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const AElement a = MapA(f, lane, reg, pos);
        ASSERT_TRUE(a.row >= 0 && a.row < 16 && a.chunk >= 0 && a.chunk < f.chunks_per_row());
        ASSERT_TRUE(seen.insert({a.row, a.chunk, a.slot}).second) << f.Name() << " lane " << lane;
      }
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(16 * f.chunks_per_row() * f.kept));
}

TEST_P(EveryForm, BAndCFragmentsCoverTheirMatricesOnce) {
  const SparseForm& f = GetParam();
  std::set<std::pair<int, int>> b, c;
  for (int lane = 0; lane < 32; ++lane) {
    for (int reg = 0; reg < f.b_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const Coord x = MapB(f, lane, reg, pos);
        ASSERT_TRUE(x.row >= 0 && x.row < f.k && x.col >= 0 && x.col < 8);
        ASSERT_TRUE(b.insert({x.row, x.col}).second) << f.Name();
      }
    }
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE(c.insert({MapCD(lane, i).row, MapCD(lane, i).col}).second);
  }
  EXPECT_EQ(b.size(), static_cast<std::size_t>(f.k * 8));
  EXPECT_EQ(c.size(), 128u);
}

TEST_P(EveryForm, MetadataMapIsABijectionOntoTheSelectedLanes) {
  const SparseForm& f = GetParam();
  for (int sel = 0; sel <= f.max_selector(); ++sel) {
    std::set<std::pair<int, int>> used;
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
        const MetaLocation m = MapMeta(f, sel, row, chunk);
        ASSERT_TRUE(used.insert({m.lane, m.bit}).second);
        const auto back = MetaAt(f, sel, m.lane, m.bit);
        ASSERT_TRUE(back && back->row == row && back->chunk == chunk);
        ASSERT_EQ(m.lane >> 2, row % 8);  // a quad holds its own two rows
      }
    }
    // Every bit of every selected lane carries metadata: 8 nibbles x (8 quads x threads).
    EXPECT_EQ(used.size(), static_cast<std::size_t>(8 * 8 * f.meta_threads()));
  }
}

INSTANTIATE_TEST_SUITE_P(Ptx91, EveryForm,
                         ::testing::ValuesIn(AllForms().begin(), AllForms().end()),
                         [](const auto& p) {
                           std::string n = p.param.Name();
                           for (char& ch : n) ch = ch == '.' ? '_' : ch;
                           return n;
                         });

TEST(SparseSpec, RowAndColumnFormulas) {
  // §9.7.14.6.2.2, f16 m16n8k32: lane 5 (group 1, thread 1): a0,a1 row 1 cols 4..7; a4,a5 row 1
  // cols 20..23; a2,a3 and a6,a7 row 9.
  const SparseForm& f = *FindForm("m16n8k32", Format::kF16);
  EXPECT_EQ(MapA(f, 5, 0, 1).row, 1);
  EXPECT_EQ(MapA(f, 5, 0, 1).chunk, 1);
  EXPECT_EQ(MapA(f, 5, 0, 1).slot, 1);
  EXPECT_EQ(MapA(f, 5, 1, 0).row, 9);
  EXPECT_EQ(MapA(f, 5, 2, 0).chunk * 4, 20);
  // §9.7.14.6.2.3, tf32 m16n8k16: a2 of lane 2 is row 0, cols 12..13 (chunk 6).
  const SparseForm& t = *FindForm("m16n8k16", Format::kTF32);
  EXPECT_EQ(MapA(t, 2, 2, 0).row, 0);
  EXPECT_EQ(MapA(t, 2, 2, 0).chunk, 6);
  // §9.7.14.6.2.6, s8 m16n8k64: a12 of lane 31 is row 15, cols 56..63 (the second chunk there).
  const SparseForm& s = *FindForm("m16n8k64", Format::kS8);
  EXPECT_EQ(MapA(s, 31, 3, 0).row, 15);
  EXPECT_EQ(MapA(s, 31, 3, 0).chunk, 14);
  // Dense B of m16n8k16 f16 (§9.7.14.5.8): b2 of lane 6 is row 2*2+0+8 = 12, col 1.
  const SparseForm& h = *FindForm("m16n8k16", Format::kF16);
  EXPECT_EQ(MapB(h, 6, 1, 0).row, 12);
  EXPECT_EQ(MapB(h, 6, 1, 0).col, 1);
  // C/D: c3 of lane 7 is row 9, col 7.
  EXPECT_EQ(MapCD(7, 3).row, 9);
  EXPECT_EQ(MapCD(7, 3).col, 7);
}

TEST(SparseSpec, SelectorRangesPerShapeAndType) {
  // §9.7.14.6.1 and the reference's table: one lane per quad -> 0..3, a pair -> 0..1, four -> 0.
  const std::vector<std::tuple<const char*, Format, int>> want = {
      {"m16n8k16", Format::kF16, 3},  {"m16n8k32", Format::kBF16, 1},
      {"m16n8k8", Format::kTF32, 3},  {"m16n8k16", Format::kTF32, 1},
      {"m16n8k32", Format::kS8, 1},   {"m16n8k64", Format::kU8, 0},
      {"m16n8k64", Format::kE4M3, 0}, {"m16n8k64", Format::kS4, 1},
      {"m16n8k128", Format::kU4, 0}};
  for (const auto& [shape, type, max] : want) {
    EXPECT_EQ(FindForm(shape, type)->max_selector(), max) << shape << " " << num::Name(type);
  }
}

// The generators draw from DefinedNibbles: exactly the nibbles NibbleRule accepts, for every
// form and spelling.
TEST(SparseRules, DefinedNibblesAreWhatTheRulesAccept) {
  for (const SparseForm& f : AllForms()) {
    for (Variant v : {Variant::kOrdered, Variant::kSp}) {
      std::set<uint8_t> accepted;
      for (uint8_t n = 0; n < 16; ++n) {
        if (NibbleRule(f, v, n) == nullptr) accepted.insert(n);
      }
      const auto defined = DefinedNibbles(f, v);
      EXPECT_EQ(std::set<uint8_t>(defined.begin(), defined.end()), accepted) << f.Name();
      EXPECT_EQ(defined.size(), accepted.size()) << f.Name();  // no repeats
    }
  }
}

// KeptK, derived by hand: m16n8k32.f16 (2:4, 8 chunks a row); row 0 keeps 0,1 | 1,2 | ...
TEST(SparseRules, KeptKNamesTheDenseColumnOfEachStoredElement) {
  const SparseForm& f = *FindForm("m16n8k32", Format::kF16);
  std::vector<uint8_t> nibbles(16, 0x4);  // two rows, every chunk keeps positions 0 and 1
  nibbles[1] = 0x9;                       // row 0 chunk 1: positions 1 and 2 -> K 5, 6
  nibbles[8 + 7] = 0xE;                   // row 1 chunk 7: positions 2 and 3 -> K 30, 31
  const std::vector<int> k = KeptK(f, nibbles);
  ASSERT_EQ(k.size(), 32u);
  EXPECT_EQ(std::vector<int>(k.begin(), k.begin() + 4), (std::vector<int>{0, 1, 5, 6}));
  EXPECT_EQ(std::vector<int>(k.begin() + 16, k.begin() + 18), (std::vector<int>{0, 1}));
  EXPECT_EQ(std::vector<int>(k.end() - 2, k.end()), (std::vector<int>{30, 31}));
  const SparseForm& t = *FindForm("m16n8k16", Format::kTF32);  // 1:2, chunks of two
  EXPECT_EQ(KeptK(t, std::vector<uint8_t>{0x4, 0xE, 0xE}), (std::vector<int>{0, 3, 5}));
}

TEST(SparseRules, NibblesPerSpelling) {
  const SparseForm& f = *FindForm("m16n8k16", Format::kF16);
  for (uint8_t n : std::vector<uint8_t>{0x4, 0x8, 0x9, 0xC, 0xD, 0xE})
    EXPECT_EQ(NibbleRule(f, Variant::kOrdered, n), nullptr);
  for (uint8_t n : std::vector<uint8_t>{0x1, 0x2, 0x3, 0x6, 0x7, 0xB}) {
    EXPECT_EQ(NibbleRule(f, Variant::kOrdered, n), &sp_rule::kUnordered);
    EXPECT_EQ(NibbleRule(f, Variant::kSp, n), nullptr);  // plain .sp takes descending pairs
  }
  for (uint8_t n : std::vector<uint8_t>{0x0, 0x5, 0xA, 0xF})
    EXPECT_EQ(NibbleRule(f, Variant::kSp, n), &sp_rule::kRepeatedIndex);
  const SparseForm& t = *FindForm("m16n8k8", Format::kTF32);
  EXPECT_EQ(NibbleRule(t, Variant::kSp, 0x4), nullptr);
  EXPECT_EQ(NibbleRule(t, Variant::kSp, 0xE), nullptr);
  EXPECT_EQ(NibbleRule(t, Variant::kOrdered, 0x8), &sp_rule::kTf32Nibble);
}

TEST(SparseRules, SelectorAndOrderedOnly) {
  SparseOp op;
  op.form = FindForm("m16n8k32", Format::kF16);
  for (int row = 0; row < 16; ++row) {
    for (int c = 0; c < 8; ++c) SetNibble(op, row, c, 0x4);
  }
  EXPECT_TRUE(Validate(op).legal());
  op.selector = 2;  // ptxas 13.0 accepts 2 and 3 here with f32 accumulators; the spec says UB
  EXPECT_TRUE(Validate(op).Violates("mma_sp.selector"));
  // Past the selector range no lane holds metadata: reading and writing touch nothing (this
  // overflowed the register array before, seen by ASan).
  op.selector = 3;
  const auto before = op.meta;
  for (int row = 0; row < 16; ++row) {
    for (int c = 0; c < 8; ++c) SetNibble(op, row, c, 0xE);
  }
  EXPECT_EQ(op.meta, before);
  EXPECT_EQ(NibbleOf(op, 15, 7), 0);
  SparseOp e;
  e.form = FindForm("m16n8k64", Format::kE2M1);
  for (int row = 0; row < 16; ++row) {
    for (int c = 0; c < 16; ++c) SetNibble(e, row, c, 0x4);
  }
  e.variant = Variant::kSp;
  EXPECT_TRUE(Validate(e).Violates("mma_sp.ordered_only"));
}

TEST(SparseCompress, ZeroOneAndTwoNonZerosAndNegativeZero) {
  const SparseForm& f = *FindForm("m16n8k16", Format::kF16);
  // {0, 0, 0, 0}: keeps positions 0 and 1.
  auto c = Compress(f, Format::kF16, std::vector<uint64_t>{0, 0, 0, 0});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->nibble, 0x4);
  // {0, 0, x, 0}: keeps 0 and 2.
  c = Compress(f, Format::kF16, std::vector<uint64_t>{0, 0, 0x3C00, 0});
  EXPECT_EQ(c->nibble, 0x8);
  EXPECT_EQ(c->values, (std::vector<uint64_t>{0, 0x3C00}));
  // -0.0 is a zero: {-0, x, 0, y} keeps 1 and 3.
  c = Compress(f, Format::kF16, std::vector<uint64_t>{0x8000, 0x3C00, 0, 0x4000});
  EXPECT_EQ(c->nibble, 0xD);
  // Three non-zeros cannot be compressed.
  EXPECT_FALSE(Compress(f, Format::kF16, std::vector<uint64_t>{1, 1, 1, 0}));
  // tf32 1:2 and s4 4:8 pairs.
  const SparseForm& t = *FindForm("m16n8k8", Format::kTF32);
  EXPECT_EQ(Compress(t, Format::kTF32, std::vector<uint64_t>{0, 0x3F800000})->nibble, 0xE);
  const SparseForm& s = *FindForm("m16n8k64", Format::kS4);
  c = Compress(s, Format::kS4, std::vector<uint64_t>{0, 0, 0, 0, 3, 0, 0, 7});
  EXPECT_EQ(c->nibble, 0xE);  // pairs 2 and 3
  EXPECT_EQ(c->values, (std::vector<uint64_t>{3, 0, 0, 7}));
  EXPECT_EQ(Expand(s, c->values, c->nibble), (std::vector<uint64_t>{0, 0, 0, 0, 3, 0, 0, 7}));
}

TEST(SparseReference, CompressedAndDenseBlockingAgreeOnExactValues) {
  // With small integers every partial sum is exact, so the open question of which products
  // share a block (numerics reference §7) cannot change the result.
  gen::RandomSource s(7);
  int compared = 0;
  for (int i = 0; i < 200 && compared < 20; ++i) {
    const auto g = gen::DrawSparse(s, gen::Intent::kLegal);
    if (g.mode != gen::ValueMode::kSmallInt || !num::IsFloat(g.tile.a_type)) continue;
    const auto p = suites::SparseParams(g.tile);
    if (!p) continue;
    EXPECT_EQ(Reference(g.tile, *p, SparseBlocking::kCompressed),
              Reference(g.tile, *p, SparseBlocking::kDense));
    ++compared;
  }
  EXPECT_GT(compared, 5);
}

}  // namespace
}  // namespace tcfuzz::oracle::sparse
