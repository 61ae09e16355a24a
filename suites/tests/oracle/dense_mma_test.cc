// Dense mma.sync fragments and reference: the maps are bijections, A follows the figures'
// element-index formulas (written here as the PTX ISA prints them, per element index i of a
// lane), B, C and D are the H100-confirmed sparse maps of the same K, and the dense reference
// of an expanded sparse case equals the sparse reference with dense blocking.
#include "oracle/mma/dense_mma.h"

#include <gtest/gtest.h>

#include <set>
#include <span>

#include "generators/core/random_source.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/sparse/sparse_metadata.h"
#include "suites/checks/sparse_mma_checks.h"

namespace tcfuzz::oracle::mma {
namespace {

TEST(DenseMma, MapsAreBijections) {
  for (const DenseForm& f : AllDenseForms()) {
    std::set<std::pair<int, int>> a, b, cd;
    for (int lane = 0; lane < 32; ++lane) {
      for (int reg = 0; reg < f.a_regs(); ++reg) {
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const Coord x = MapDenseA(f, lane, reg, pos);
          EXPECT_TRUE(x.row >= 0 && x.row < 16 && x.col >= 0 && x.col < f.k) << f.Name();
          a.insert({x.row, x.col});
        }
      }
      for (int reg = 0; reg < f.b_regs(); ++reg) {
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const Coord x = MapDenseB(f, lane, reg, pos);
          EXPECT_TRUE(x.row >= 0 && x.row < f.k && x.col >= 0 && x.col < 8) << f.Name();
          b.insert({x.row, x.col});
        }
      }
      for (int i = 0; i < 4; ++i)
        cd.insert({sparse::MapCD(lane, i).row, sparse::MapCD(lane, i).col});
    }
    EXPECT_EQ(a.size(), static_cast<std::size_t>(16 * f.k)) << f.Name();
    EXPECT_EQ(b.size(), static_cast<std::size_t>(f.k * 8)) << f.Name();
    EXPECT_EQ(cd.size(), 128u);
    EXPECT_EQ(f.a_regs(), 4) << f.Name();
    EXPECT_EQ(f.b_regs(), 2) << f.Name();
  }
}

// The figures' formulas for A, element index i of a lane (i = reg * per_reg + pos):
// m16n8k16 .f16/.bf16 (i in 0..7): row = g for i < 2 or 4 <= i < 6, else g + 8;
//   col = 2t + (i & 1) for i < 4, else 2t + (i & 1) + 8.
// m16n8k8 .tf32 (i in 0..3): row = g for a0, a2, else g + 8; col = t for a0, a1, else t + 4.
// m16n8k32 8-bit (i in 0..15): row = g for i < 4 or 8 <= i < 12, else g + 8;
//   col = 4t + (i & 3) for i < 8, else 4t + (i & 3) + 16.
TEST(DenseMma, AFollowsTheFigures) {
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane & 3;
    const DenseForm& h = *FindDenseForm("m16n8k16", Format::kF16);
    for (int i = 0; i < 8; ++i) {
      const Coord x = MapDenseA(h, lane, i / 2, i % 2);
      EXPECT_EQ(x.row, (i < 2 || (i >= 4 && i < 6)) ? g : g + 8) << lane << " " << i;
      EXPECT_EQ(x.col, 2 * t + (i & 1) + (i < 4 ? 0 : 8)) << lane << " " << i;
    }
    const DenseForm& tf = *FindDenseForm("m16n8k8", Format::kTF32);
    for (int i = 0; i < 4; ++i) {
      const Coord x = MapDenseA(tf, lane, i, 0);
      EXPECT_EQ(x.row, (i == 0 || i == 2) ? g : g + 8) << lane << " " << i;
      EXPECT_EQ(x.col, (i < 2) ? t : t + 4) << lane << " " << i;
    }
    const DenseForm& s8 = *FindDenseForm("m16n8k32", Format::kS8);
    for (int i = 0; i < 16; ++i) {
      const Coord x = MapDenseA(s8, lane, i / 4, i % 4);
      EXPECT_EQ(x.row, (i < 4 || (i >= 8 && i < 12)) ? g : g + 8) << lane << " " << i;
      EXPECT_EQ(x.col, 4 * t + (i & 3) + (i < 8 ? 0 : 16)) << lane << " " << i;
    }
  }
}

TEST(DenseMma, BAndCdAreTheConfirmedSparseMapsOfTheSameK) {
  int compared = 0;
  for (const DenseForm& f : AllDenseForms()) {
    const sparse::SparseForm* s = sparse::FindForm(f.shape, f.type);
    if (s == nullptr) continue;  // e4m3/e5m2: sparse has k64 only
    ++compared;
    for (int lane = 0; lane < 32; ++lane) {
      for (int reg = 0; reg < f.b_regs(); ++reg) {
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const Coord d = MapDenseB(f, lane, reg, pos);
          const sparse::Coord x = sparse::MapB(*s, lane, reg, pos);
          EXPECT_EQ(d.row, x.row) << f.Name();
          EXPECT_EQ(d.col, x.col) << f.Name();
        }
      }
      for (int i = 0; i < 4; ++i) {
        // The dense m16n8 accumulator figure, written out here: row g (+8 for i >= 2), column 2t +
        // i % 2.
        EXPECT_EQ(sparse::MapCD(lane, i).row, lane / 4 + 8 * (i / 2));
        EXPECT_EQ(sparse::MapCD(lane, i).col, 2 * (lane % 4) + i % 2);
      }
    }
  }
  EXPECT_EQ(compared, 7);
}

TEST(DenseMma, ReferenceOfAnExpandedSparseCaseIsTheSparseDenseBlockingReference) {
  gen::RandomSource s(20261122);
  int checked = 0;
  for (int n = 0; n < 3000 && checked < 300; ++n) {
    const gen::GeneratedSparse g = gen::DrawSparse(s, gen::Intent::kLegal);
    const DenseForm* f = FindDenseForm(g.op.form->shape, g.tile.a_type);
    if (f == nullptr) continue;
    const auto params = suites::SparseParams(g.tile, num::Gpu::kSm90);
    if (num::IsFloat(g.tile.a_type) && !params) continue;
    DenseTile t{f,  g.tile.a_type, g.tile.b_type, g.tile.cd, g.tile.satfinite,
                {}, g.tile.b,      g.tile.c};
    const int cpr = g.op.form->chunks_per_row();
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < cpr; ++chunk) {
        const auto kept = std::span<const uint64_t>(g.tile.a).subspan(
            static_cast<std::size_t>(row * (f->k / 2) + chunk * g.op.form->kept),
            static_cast<std::size_t>(g.op.form->kept));
        for (const uint64_t v : sparse::Expand(
                 *g.op.form, kept, g.tile.nibbles[static_cast<std::size_t>(row * cpr + chunk)])) {
          t.a.push_back(v);
        }
      }
    }
    ASSERT_EQ(t.a.size(), static_cast<std::size_t>(16 * f->k));
    const num::DotParams p = params.value_or(num::DotParams{});
    EXPECT_EQ(DenseReference(t, p), sparse::Reference(g.tile, p, sparse::SparseBlocking::kDense))
        << g.op.form->Name();
    ++checked;
  }
  EXPECT_GE(checked, 100);
}

}  // namespace
}  // namespace tcfuzz::oracle::mma
