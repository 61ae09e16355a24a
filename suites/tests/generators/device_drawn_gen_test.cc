// The sparse-mma-exact suite's host generator: legal small-integer cases whose oracle D is the
// exact integer sum, derived here independently from the dense expansion of A.
#include "generators/sparse/device_drawn_gen.h"

#include <gtest/gtest.h>

#include <set>
#include <span>

#include "generators/core/random_source.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/device_drawn_sparse.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::gen {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

TEST(DeviceDrawnCase, F32BitsOfIntIsTheExactEncoding) {
  for (int v = -70000; v <= 70000; v += (v > -300 && v < 300) ? 1 : 97) {
    EXPECT_EQ(drawn::F32BitsOfInt(v), oracle::num::FromDouble(Format::kF32, v)) << v;
  }
  EXPECT_EQ(drawn::F32BitsOfInt((1 << 24) - 1),
            oracle::num::FromDouble(Format::kF32, (1 << 24) - 1));
  EXPECT_EQ(drawn::F32BitsOfInt(0), 0u);  // +0, never -0
}

TEST(DeviceDrawnCase, VariantsAreTheLegal16BitFloatInstructions) {
  // f16 and bf16: k16 takes selectors 0..3 (one metadata lane per quad), k32 0..1, each in two
  // spellings: (4 + 2) * 2 * 2 = 24.
  EXPECT_EQ(DrawnVariants().size(), 24u);
  std::set<std::tuple<std::string, int, int>> seen;
  for (const DrawnVariant& v : DrawnVariants()) {
    EXPECT_TRUE(v.form->type == Format::kF16 || v.form->type == Format::kBF16);
    EXPECT_LE(v.selector, v.form->k == 16 ? 3 : 1) << v.form->Name();
    seen.insert({v.form->Name(), static_cast<int>(v.variant), v.selector});
  }
  EXPECT_EQ(seen.size(), DrawnVariants().size());
}

TEST(DeviceDrawnCase, LegalAndTheOracleGivesTheExactIntegerSum) {
  RandomSource seeds(test::Seed());
  std::set<std::size_t> variants_seen;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t cs = seeds.Next();
    const GeneratedSparse g = DrawDeviceDrawn(cs);
    ASSERT_TRUE(Validate(g.op).legal()) << cs;
    const SparseForm& f = *g.op.form;
    const SparseTile& t = g.tile;
    ASSERT_EQ(t.a.size(), static_cast<std::size_t>(16 * f.k / 2));
    const auto value = [&](Format type, uint64_t bits) {
      return oracle::num::ToDouble(type, bits);
    };
    // Dense A from the nibbles (Expand), then D = A * B + C in doubles: exact for these sizes.
    std::vector<double> a(static_cast<std::size_t>(16 * f.k));
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
        const std::size_t at = static_cast<std::size_t>(row * (f.k / 2) + chunk * f.kept);
        const std::vector<uint64_t> dense =
            Expand(f, std::span<const uint64_t>(t.a).subspan(at, static_cast<std::size_t>(f.kept)),
                   t.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)]);
        for (int x = 0; x < f.chunk; ++x)
          a[static_cast<std::size_t>(row * f.k + chunk * f.chunk + x)] = value(f.type, dense[x]);
      }
    }
    const std::vector<uint32_t> d = Reference(t, oracle::num::ExactParams(t.cd));
    for (int row = 0; row < 16; ++row) {
      for (int col = 0; col < 8; ++col) {
        double sum = value(Format::kF32, t.c[static_cast<std::size_t>(row * 8 + col)]);
        for (int k = 0; k < f.k; ++k) {
          sum += a[static_cast<std::size_t>(row * f.k + k)] *
                 value(f.type, t.b[static_cast<std::size_t>(k * 8 + col)]);
        }
        ASSERT_EQ(d[static_cast<std::size_t>(row * 8 + col)],
                  drawn::F32BitsOfInt(static_cast<int>(sum)))
            << f.Name() << " D[" << row << "][" << col << "] case seed " << cs;
      }
    }
    for (std::size_t v = 0; v < DrawnVariants().size(); ++v) {
      if (DrawnVariants()[v].form == g.op.form && DrawnVariants()[v].variant == g.op.variant &&
          DrawnVariants()[v].selector == g.op.selector) {
        variants_seen.insert(v);
      }
    }
  }
  EXPECT_EQ(variants_seen.size(), DrawnVariants().size());
}

}  // namespace
}  // namespace tcfuzz::gen
