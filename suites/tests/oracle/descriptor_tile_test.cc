// The wgmma accumulator fragment and the reference over shared-memory images, against
// derivations written here: the fragment formula of the PTX figure and plain double sums.
#include "oracle/tile/descriptor_tile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <span>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/numerics/exact_dot.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::oracle::tile {
namespace {

using num::Format;

TEST(WgmmaFragment, AnchorsOfTheFigure) {
  // §9.7.15.5.1.1: thread 0 holds (0,0), (0,1), (8,0), (8,1), then the next 8 columns.
  EXPECT_EQ(MapD(0, 0).row, 0);
  EXPECT_EQ(MapD(0, 1).col, 1);
  EXPECT_EQ(MapD(0, 2).row, 8);
  EXPECT_EQ(MapD(0, 2).col, 0);
  EXPECT_EQ(MapD(0, 4).col, 8);
  // Thread 37: warp 1 (rows 16..31), lane 5: row 16 + 1, columns 2..3.
  EXPECT_EQ(MapD(37, 0).row, 17);
  EXPECT_EQ(MapD(37, 1).col, 3);
}

TEST(WgmmaFragment, EveryElementOfM64N256ExactlyOnce) {
  std::set<std::pair<int, int>> seen;
  for (int t = 0; t < 128; ++t) {
    for (int i = 0; i < 128; ++i) {
      const Coord c = MapD(t, i);
      ASSERT_LT(c.row, 64);
      ASSERT_LT(c.col, 256);
      EXPECT_TRUE(seen.insert({c.row, c.col}).second) << t << " " << i;
    }
  }
  EXPECT_EQ(seen.size(), 64u * 256u);
}

TEST(TileReference, GeneratedTilesAreExactSums) {
  gen::RandomSource s(test::Seed());
  int probes = 0;
  for (int n = 0; n < 90; ++n) {
    const gen::GeneratedTile g = gen::DrawWgmmaTile(s);
    if (g.values == gen::TileValues::kRandom) continue;  // the next test's
    const DescriptorTile& t = g.tile;
    const auto d = TileReference(t);
    ASSERT_TRUE(d.ok()) << d.error();
    const auto a = ReadOperand(t, smem::Operand::kA), b = ReadOperand(t, smem::Operand::kB);
    const int k = TileK(t);
    for (int i = 0; i < 64; i += 7) {
      for (int j = 0; j < t.n; j += 5) {
        double sum = 0, at_hot = 0;
        int hots = 0, hot = -1;
        for (int kk = 0; kk < k; ++kk) {
          const uint64_t av = (*a)[static_cast<size_t>(i * k + kk)],
                         bv = (*b)[static_cast<size_t>(j * k + kk)];
          const bool is_int = !num::IsFloat(t.ab);
          const double x =
              is_int ? (t.ab == Format::kS8 ? static_cast<int8_t>(av) : static_cast<double>(av))
                     : num::ToDouble(t.ab, av);
          const double y =
              is_int ? (t.b_type == Format::kS8 ? static_cast<int8_t>(bv) : static_cast<double>(bv))
                     : num::ToDouble(t.b_type, bv);
          if (y != 0) ++hots, at_hot = x, hot = kk;
          sum += x * y;
        }
        const uint32_t got = d.value()[static_cast<size_t>(i * t.n + j)];
        const double value =
            t.d == Format::kS32 ? static_cast<int32_t>(got) : num::ToDouble(t.d, got);
        EXPECT_EQ(value, sum) << "D(" << i << "," << j << ") of a " << num::Name(t.ab) << " tile";
        // A probe column with one hot K (layouts whose LBO/SBO alias elements can have more)
        // gives D = the A element at that K, which names it when no other element shares its
        // bytes: 1 + (row * K + k) mod range. (B's one hot K is where B's map reads the 1: an
        // aliasing B layout can move it off the drawn g.hot.)
        if (g.values == gen::TileValues::kProbe && hots == 1) {
          EXPECT_EQ(value, at_hot);
          const auto map_a = smem::Map(t.a);
          const auto& bits = map_a.value().bits;
          if (std::count(bits.begin(), bits.end(), bits[static_cast<size_t>(i * k + hot)]) == 1) {
            EXPECT_EQ(value, 1 + (i * k + hot) % gen::ProbeRange(t.ab));
          }
          ++probes;
        }
      }
    }
  }
  EXPECT_GT(probes, 0);
}

// Random tiles go through the sm_90 wgmma row: each D element is the model's dot product of the
// A row and B column read through the maps, within the model's error bound of the exact sum.
TEST(TileReference, RandomTilesAreTheModelWithinItsBound) {
  gen::RandomSource s(test::Seed());
  int checked = 0;
  for (int n = 0; n < 120 && checked < 2000; ++n) {
    const gen::GeneratedTile g = gen::DrawWgmmaTile(s);
    const DescriptorTile& t = g.tile;
    if (g.values != gen::TileValues::kRandom || !num::IsFloat(t.ab)) continue;
    const auto params = num::ParamsFor(num::Gpu::kSm90, num::Instr::kWgmma, t.ab, t.d);
    ASSERT_TRUE(params) << num::Name(t.ab);
    const auto d = TileReference(t);
    ASSERT_TRUE(d.ok()) << d.error();
    const auto a = ReadOperand(t, smem::Operand::kA), b = ReadOperand(t, smem::Operand::kB);
    const int k = TileK(t);
    for (int i = 0; i < 64; i += 9) {
      for (int j = 0; j < t.n; j += 7) {
        const std::span<const uint64_t> ar(&(*a)[static_cast<size_t>(i * k)],
                                           static_cast<size_t>(k));
        const std::span<const uint64_t> bc(&(*b)[static_cast<size_t>(j * k)],
                                           static_cast<size_t>(k));
        const num::BoundedResult m =
            num::DotProductWithBound(ar, bc, 0, t.ab, t.b_type, t.d, *params);
        EXPECT_EQ(d.value()[static_cast<size_t>(i * t.n + j)], m.d);
        const auto exact = num::ExactDotProduct(ar, bc, 0, t.ab, t.b_type, t.d);
        if (!exact || !m.finite) continue;
        num::Exact got;
        got.AddValue(t.d, m.d);
        EXPECT_TRUE(got.Minus(*exact).Abs().LessOrEqual(m.bound))
            << num::Name(t.ab) << " D(" << i << "," << j << ")";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// wgmma.mma_async.sp tiles: each D element is the sum over A's stored elements times the B
// element of the K its nibble names (decoded here from the PTX table, not through the oracle's
// sparse helpers), and warp w's lanes carry the metadata of rows 16w..16w+15.
TEST(WgmmaSpReference, StoredElementsMeetTheKTheirNibblesName) {
  gen::RandomSource s(test::Seed());
  int checked = 0;
  for (int n = 0; n < 60; ++n) {
    const gen::GeneratedTile g = gen::DrawWgmmaSpTile(s);
    const DescriptorTile& t = g.tile;
    ASSERT_TRUE(t.sparse.has_value());
    EXPECT_TRUE(smem::Validate(t.a).legal() && smem::Validate(t.b).legal());
    const auto d = TileReference(t);
    ASSERT_TRUE(d.ok()) << d.error();
    const sparse::SparseForm& f = *t.sparse->form;
    EXPECT_EQ(TileK(t), f.k);
    const auto regs = SparseMetadataRegisters(*t.sparse);
    for (int warp = 0; warp < 4; ++warp) {
      sparse::SparseOp op;
      op.form = &f;
      op.selector = t.sparse->selector;
      for (int lane = 0; lane < 32; ++lane)
        op.meta[static_cast<size_t>(lane)] = regs[static_cast<size_t>(32 * warp + lane)];
      for (int row = 0; row < 16; ++row) {
        for (int c = 0; c < f.chunks_per_row(); ++c) {
          EXPECT_EQ(
              sparse::NibbleOf(op, row, c),
              t.sparse->nibbles[static_cast<size_t>((16 * warp + row) * f.chunks_per_row() + c)]);
        }
      }
    }
    if (g.values == gen::TileValues::kRandom) continue;
    const auto a = ReadOperand(t, smem::Operand::kA), b = ReadOperand(t, smem::Operand::kB);
    const int stored = f.k / 2;
    const auto value = [](Format fmt, uint64_t bits) {
      if (fmt == Format::kS8) return static_cast<double>(static_cast<int8_t>(bits));
      if (fmt == Format::kU8) return static_cast<double>(bits);
      return num::ToDouble(fmt, bits);
    };
    for (int i = 0; i < 64; i += 5) {
      for (int j = 0; j < t.n; j += 3) {
        double sum = 0;
        for (int x = 0; x < stored; ++x) {
          const int chunk = x / f.kept, slot = x % f.kept;
          const uint8_t nib =
              t.sparse->nibbles[static_cast<size_t>(i * f.chunks_per_row() + chunk)];
          const int pos = f.type == Format::kTF32 ? (nib == 0xE ? 1 : 0)
                          : slot == 0             ? (nib & 3)
                                                  : (nib >> 2) & 3;
          const int k = chunk * f.chunk + pos;
          sum += value(t.ab, (*a)[static_cast<size_t>(i * stored + x)]) *
                 value(t.b_type, (*b)[static_cast<size_t>(j * f.k + k)]);
        }
        const uint32_t got = d.value()[static_cast<size_t>(i * t.n + j)];
        EXPECT_EQ(t.d == Format::kS32 ? static_cast<int32_t>(got) : num::ToDouble(t.d, got), sum)
            << f.Name() << " D(" << i << "," << j << ")";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// Spec choice TM1, derived here: row r's nibble c at bit 4c of its metadata; 64-bit rows
// (f8f6f4, i8) split low word first over the pair, 32-bit rows (f16, tf32) in the selector's
// column with legal, different nibbles in the other.
TEST(Tcgen05SpMetadata, EachRowsNibblesInTheColumnsTm1Names) {
  gen::RandomSource s(test::Seed());
  std::set<std::pair<int, int>> seen;  // (bits per row, selector)
  for (int n = 0; n < 60 || (n < 2000 && !(seen.count({32, 1}) && seen.count({64, 0}))); ++n) {
    const gen::GeneratedTile g = gen::DrawTcgen05SpTile(s);
    const TileSparse& sp = *g.tile.sparse;
    const int cpr = sp.form->chunks_per_row();
    seen.insert({4 * cpr, sp.selector});
    EXPECT_TRUE(4 * cpr == 32 ? sp.selector <= 1 : sp.selector == 0) << sp.form->Name();
    const std::vector<uint32_t> cols = Tcgen05MetadataColumns(sp);
    ASSERT_EQ(cols.size(), 256u);
    for (int row = 0; row < 128; ++row) {
      const uint64_t pair = cols[static_cast<size_t>(2 * row)] |
                            uint64_t{cols[static_cast<size_t>(2 * row + 1)]} << 32;
      const uint64_t mine = 4 * cpr == 64 ? pair : (pair >> (32 * sp.selector)) & 0xFFFFFFFFu;
      const uint64_t other = 4 * cpr == 64 ? 0 : (pair >> (32 * (1 - sp.selector))) & 0xFFFFFFFFu;
      for (int c = 0; c < cpr; ++c) {
        const uint8_t want = sp.nibbles[static_cast<size_t>(row * cpr + c)];
        ASSERT_EQ((mine >> (4 * c)) & 0xF, want)
            << sp.form->Name() << " row " << row << " chunk " << c;
        if (4 * cpr == 64) continue;
        const auto decoy = static_cast<uint8_t>((other >> (4 * c)) & 0xF);
        EXPECT_NE(decoy, want);
        const std::set<uint8_t> legal = sp.form->type == Format::kTF32
                                            ? std::set<uint8_t>{0x4, 0xE}
                                            : std::set<uint8_t>{0x4, 0x8, 0x9, 0xC, 0xD, 0xE};
        EXPECT_TRUE(legal.count(decoy)) << int{decoy};
      }
    }
  }
  EXPECT_TRUE(seen.count({32, 1}) && seen.count({64, 0}));  // both row widths, both f16 columns
}

// tcgen05.mma.sp tiles: D is the exact sum over each row's kept elements and the K their
// nibbles name (small-integer and probe values).
TEST(Tcgen05SpReference, TilesAreExactSumsOverTheKeptElements) {
  gen::RandomSource s(test::Seed());
  int checked = 0;
  for (int n = 0; n < 40; ++n) {
    const gen::GeneratedTile g = gen::DrawTcgen05SpTile(s);
    const DescriptorTile& t = g.tile;
    const auto d = TileReference(t);
    ASSERT_TRUE(d.ok()) << d.error();
    if (g.values == gen::TileValues::kRandom) continue;
    const sparse::SparseForm& f = *t.sparse->form;
    const auto a = ReadOperand(t, smem::Operand::kA), b = ReadOperand(t, smem::Operand::kB);
    ASSERT_TRUE(a && b);
    for (int i = 0; i < 128; i += 9) {
      for (int j = 0; j < t.n; j += 5) {
        double sum = 0;
        for (int x = 0; x < f.k / 2; ++x) {
          const uint8_t nib =
              t.sparse->nibbles[static_cast<size_t>(i * f.chunks_per_row() + x / f.kept)];
          const int pos = f.type == Format::kTF32 ? (nib == 0xE ? 1 : 0)
                          : x % f.kept == 0       ? (nib & 3)
                                                  : (nib >> 2) & 3;
          const int k = (x / f.kept) * f.chunk + pos;
          sum += num::ToDouble(t.ab, (*a)[static_cast<size_t>(i * (f.k / 2) + x)]) *
                 num::ToDouble(t.b_type, (*b)[static_cast<size_t>(j * f.k + k)]);
        }
        const uint32_t got = d.value()[static_cast<size_t>(i * t.n + j)];
        EXPECT_EQ(t.d == Format::kS32 ? static_cast<int32_t>(got) : num::ToDouble(t.d, got), sum)
            << f.Name() << " D(" << i << "," << j << ")";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(TileReference, AMapOutsideTheImageIsAnError) {
  gen::RandomSource s(1);
  DescriptorTile t = gen::DrawWgmmaTile(s).tile;
  t.image.resize(64);
  EXPECT_EQ(TileReference(t).error(),
            "an operand's address map reaches outside the shared-memory image");
}

// tcgen05's swizzle mode, bits 61..63 of the shared-memory descriptor (PTX ISA 9.1 §9.7.16.4.1
// Table 40, #tcgen05-shared-memory-desc-layout): 0, 1, 2, 4 and 6 are modes; 3, 5 and 7 are none,
// so there is no reading to compute, and the error says so rather than blaming the image.
TEST(TileReference, AnInvalidSwizzleCodeIsAnErrorNamingIt) {
  gen::RandomSource s(test::Seed());
  for (const uint64_t code : {3u, 5u, 7u}) {
    for (const bool on_a : {true, false}) {
      DescriptorTile t = gen::DrawTcgen05Tile(s, false).tile;
      uint64_t& desc = on_a ? t.a.desc : t.b.desc;
      desc = (desc & ~(uint64_t{7} << 61)) | (code << 61);
      EXPECT_EQ(TileReference(t).error(),
                std::string(on_a ? "A" : "B") + "'s descriptor has an invalid swizzle code")
          << code;
    }
  }
}

TEST(WgmmaTileGen, DescriptorsAreLegalAndOperandsStayInTheirHalves) {
  gen::RandomSource s(test::Seed());
  std::set<int> base_offsets;
  int at_limit = 0;
  for (int n = 0; n < 400; ++n) {
    const DescriptorTile t = n % 4 == 0   ? gen::DrawWgmmaSpTile(s).tile
                             : n % 4 == 1 ? gen::DrawWgmmaTile(s).tile
                             : n % 4 == 2 ? gen::DrawTcgen05SpTile(s).tile
                                          : gen::DrawTcgen05Tile(s, n % 8 == 3).tile;
    EXPECT_TRUE(smem::Validate(t.a).legal()) << smem::Validate(t.a).violations().front().message;
    EXPECT_TRUE(smem::Validate(t.b).legal()) << smem::Validate(t.b).violations().front().message;
    const auto ma = smem::Map(t.a), mb = smem::Map(t.b);
    ASSERT_TRUE(ma.ok() && mb.ok());
    for (uint64_t bit : ma.value().bits) EXPECT_LT(bit / 8, uint64_t{gen::kTileImageBytes / 2});
    for (uint64_t bit : mb.value().bits) EXPECT_GE(bit / 8, uint64_t{gen::kTileImageBytes / 2});
    // No two elements share a byte: a probe value names one element (an aliased layout once
    // summed three "one-hot" B elements of one column).
    const std::set<uint64_t> a_bits(ma.value().bits.begin(), ma.value().bits.end());
    const std::set<uint64_t> b_bits(mb.value().bits.begin(), mb.value().bits.end());
    EXPECT_EQ(a_bits.size(), ma.value().bits.size()) << "A aliases: " << std::hex << t.a.desc;
    EXPECT_EQ(b_bits.size(), mb.value().bits.size()) << "B aliases: " << std::hex << t.b.desc;
    for (const smem::SmemCase* c : {&t.a, &t.b}) {
      const auto m = smem::DecodeMatrix(c->arch, c->desc);
      if (m->swizzle != smem::Swizzle::kNone) base_offsets.insert(m->base_offset);
      at_limit += m->lbo == 0x3FFF0 || m->sbo == 0x3FFF0;
    }
  }
  // The coverage: every base offset (the correct value for patterns off the repeat
  // boundary), and strides at their field's limit where the layout leaves them unused.
  EXPECT_EQ(base_offsets.size(), 8u);
  EXPECT_GT(at_limit, 0);
}

}  // namespace
}  // namespace tcfuzz::oracle::tile

namespace tcfuzz::oracle::tile {
namespace {

TEST(Tcgen05Tile, MaskedColumnsReadZerosAndTheRestMatchTheUnmaskedProduct) {
  gen::RandomSource s(test::Seed());
  int masked = 0;
  for (int n = 0; n < 40; ++n) {
    DescriptorTile t = gen::DrawTcgen05Tile(s, true).tile;
    ASSERT_TRUE(t.zero_column_mask.has_value());
    const auto with = TileReference(t);
    ASSERT_TRUE(with.ok()) << with.error();
    const auto e = tcgen05::Expand(*t.zero_column_mask, 128, t.n);
    ASSERT_TRUE(e.has_value());
    t.zero_column_mask.reset();
    const auto plain = TileReference(t);
    ASSERT_TRUE(plain.ok());
    for (int j = 0; j < t.n; ++j) {
      const int col = e->b_column[static_cast<size_t>(j)];
      for (int i = 0; i < 128; i += 9) {
        const uint32_t got = with.value()[static_cast<size_t>(i * t.n + j)];
        if (col < 0) {
          EXPECT_EQ(got, 0u) << "masked column " << j;  // +0 (or integer 0) in every D type
          ++masked;
        } else {
          EXPECT_EQ(got, plain.value()[static_cast<size_t>(i * t.n + col)])
              << "column " << j << " reads B column " << col;
        }
      }
    }
  }
  EXPECT_GT(masked, 0);
}

TEST(Tcgen05Idesc, EncodesTable42) {
  // docs/usage.md's explain example: M = 64, N = 128, f32 D, f16 A/B, maximum shift 32 columns.
  tcgen05::IdescFields f;
  f.m = 64;
  f.n = 128;
  f.max_shift_code = 3;
  EXPECT_EQ(tcgen05::EncodeInstrDescriptor(f), 0xc4200010u);
  f = {};
  f.a = f.b = num::Format::kS8;
  f.d = num::Format::kS32;
  f.transpose_b = true;
  const tcgen05::InstrDescriptor d{tcgen05::EncodeInstrDescriptor(f).value()};
  EXPECT_EQ(d.m(), 128);
  EXPECT_EQ(d.n(), 64);
  EXPECT_EQ(tcgen05::idesc_field::kAType.Get(d.bits), 1u);  // s8
  EXPECT_EQ(tcgen05::idesc_field::kDType.Get(d.bits), 2u);  // s32
  EXPECT_EQ(tcgen05::idesc_field::kTransposeB.Get(d.bits), 1u);
  f.a = num::Format::kF32;  // not an A/B type of the four kinds
  EXPECT_FALSE(tcgen05::EncodeInstrDescriptor(f).has_value());
}

}  // namespace
}  // namespace tcfuzz::oracle::tile
