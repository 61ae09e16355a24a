// The dense mma.sync generator: every form is drawn with the type pairs and accumulators the
// instruction takes; small-integer cases are exact sums; probe cases name the A element in D.
#include "generators/mma/dense_mma_gen.h"

#include <gtest/gtest.h>

#include <set>

#include "generators/core/random_source.h"
#include "oracle/core/text_format.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/numerics/dot_product.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::gen {
namespace {

using oracle::num::Format;

double ValueOf(Format f, uint64_t bits) {
  return oracle::num::IsFloat(f) ? oracle::num::ToDouble(f, bits)
                                 : static_cast<double>(oracle::num::DecodeInt(f, bits));
}

TEST(DenseMmaGen, EveryFormAndModeAppearsAndProbesNameTheElement) {
  RandomSource s(test::Seed());
  std::set<std::string> forms;
  std::set<ValueMode> modes;
  int probes = 0;
  for (int i = 0; i < 600; ++i) {
    const GeneratedDense g = DrawDense(s);
    const auto& t = g.tile;
    forms.insert(t.form->Name());
    modes.insert(g.mode);
    ASSERT_EQ(t.a.size(), static_cast<size_t>(16 * t.form->k));
    ASSERT_EQ(t.b.size(), static_cast<size_t>(8 * t.form->k));
    EXPECT_EQ(oracle::num::IsFloat(t.a_type), oracle::num::IsFloat(t.cd));
    if (g.mode != ValueMode::kProbe && g.mode != ValueMode::kSmallInt) continue;
    const auto d = oracle::mma::DenseReference(t, oracle::num::ExactParams(t.cd));
    for (int r = 0; r < 16; ++r) {
      for (int n = 0; n < 8; ++n) {
        // An independent sum in doubles: every value here is a small integer.
        double sum = ValueOf(t.cd, t.c[static_cast<size_t>(r * 8 + n)]);
        int hot = -1;
        for (int k = 0; k < t.form->k; ++k) {
          const double b = ValueOf(t.b_type, t.b[static_cast<size_t>(k * 8 + n)]);
          sum += ValueOf(t.a_type, t.a[static_cast<size_t>(r * t.form->k + k)]) * b;
          if (b != 0) hot = k;
        }
        const double got = ValueOf(t.cd, d[static_cast<size_t>(r * 8 + n)]);
        EXPECT_EQ(got, sum) << t.form->Name() << " D[" << r << "][" << n << "]";
        if (g.mode == ValueMode::kProbe) {
          const double c = ValueOf(t.cd, t.c[static_cast<size_t>(r * 8 + n)]);
          EXPECT_EQ(got - c, 1 + (r * t.form->k + hot) % ProbeRange(t.a_type));
          ++probes;
        }
      }
    }
  }
  EXPECT_EQ(forms.size(), oracle::mma::AllDenseForms().size());
  EXPECT_EQ(modes.size(), 5u);
  EXPECT_GT(probes, 0);
}

TEST(DenseCaseText, RoundTripsAndNamesTheLineOfAnError) {
  RandomSource s(test::Seed());
  for (int i = 0; i < 50; ++i) {
    const GeneratedDense g = DrawDense(s);
    const auto d = oracle::mma::DenseReference(g.tile, oracle::num::ExactParams(g.tile.cd));
    oracle::TextWriter w(oracle::mma::kDenseKind);
    oracle::mma::AppendDenseCase(w, g.tile, &d);
    const auto doc = oracle::TextDoc::Parse(w.str());
    ASSERT_TRUE(doc.ok()) << doc.error();
    const auto back = oracle::mma::DenseCaseFromDoc(doc.value());
    ASSERT_TRUE(back.ok()) << back.error();
    const auto& t = back.value().tile;
    EXPECT_EQ(t.form, g.tile.form);
    EXPECT_EQ(std::tie(t.a_type, t.b_type, t.cd, t.satfinite),
              std::tie(g.tile.a_type, g.tile.b_type, g.tile.cd, g.tile.satfinite));
    EXPECT_EQ(t.a, g.tile.a);
    EXPECT_EQ(t.b, g.tile.b);
    EXPECT_EQ(t.c, g.tile.c);
    EXPECT_EQ(back.value().observed, d);
    if (i == 0) {
      const auto bad = oracle::TextDoc::Parse(w.str() + "a.16 = 1\nzz = 1\n");
      ASSERT_TRUE(bad.ok());
      const auto e = oracle::mma::DenseCaseFromDoc(bad.value());
      ASSERT_FALSE(e.ok());
      EXPECT_NE(e.error().find("unknown key 'zz'"), std::string::npos) << e.error();
      std::string wrong_cd = w.str();
      const std::size_t cd_at = wrong_cd.find("\ncd = ") + 1;
      wrong_cd.replace(cd_at, wrong_cd.find('\n', cd_at) - cd_at,
                       oracle::num::IsFloat(g.tile.a_type) ? "cd = s32" : "cd = f32");
      const auto cd_error = oracle::mma::DenseCaseFromDoc(oracle::TextDoc::Parse(wrong_cd).value());
      ASSERT_FALSE(cd_error.ok());
      EXPECT_EQ(cd_error.error().rfind("cd: not an accumulator of ", 0), 0u) << cd_error.error();
      std::string text = w.str();
      const std::size_t at = text.find("a.3 = ");
      text.insert(at + 6, "zz");
      const auto bad_row = oracle::mma::DenseCaseFromDoc(oracle::TextDoc::Parse(text).value());
      ASSERT_FALSE(bad_row.ok());
      EXPECT_EQ(bad_row.error().rfind("line ", 0), 0u) << bad_row.error();
    }
  }
}

// Tiny values reach what random patterns never do (issue 32): products below the accumulator's
// smallest normal, sums that round to zero of either sign beside nonzero products, zero products
// beside nonzero ones. Counted over f16-D and f32-D tiles under an IEEE-signed row (sm_100).
TEST(DenseMmaGen, TinyValuesReachUnderflowAndSignedZeros) {
  RandomSource s(test::Seed());
  int tiles = 0, neg_zero = 0, pos_zero_from_terms = 0, subnormal = 0, zero_beside_nonzero = 0;
  for (int i = 0; i < 20000 && tiles < 300; ++i) {
    const GeneratedDense g = DrawDense(s);
    const auto& t = g.tile;
    if (g.mode != ValueMode::kTiny || !oracle::num::IsFloat(t.a_type)) continue;
    const auto row =
        oracle::num::ParamsFor(oracle::num::Gpu::kSm100, oracle::num::Instr::kMma, t.a_type, t.cd);
    if (!row) continue;
    ++tiles;
    const std::vector<uint32_t> d = oracle::mma::DenseReference(t, *row);
    const int k = t.form->k;
    const uint32_t sign = t.cd == Format::kF16 ? 0x8000u : 0x80000000u;
    const uint32_t exp = t.cd == Format::kF16 ? 0x7C00u : 0x7F800000u;
    for (int r = 0; r < 16; ++r) {
      for (int c = 0; c < 8; ++c) {
        bool nonzero_term = false, zero_term = false;
        for (int x = 0; x < k; ++x) {
          const bool za = oracle::num::Decode(t.a_type, t.a[r * k + x]).is_zero();
          const bool zb = oracle::num::Decode(t.b_type, t.b[x * 8 + c]).is_zero();
          (za || zb ? zero_term : nonzero_term) = true;
        }
        const uint32_t v = d[r * 8 + c];
        neg_zero += v == sign;
        pos_zero_from_terms += v == 0 && nonzero_term;
        subnormal += (v & exp) == 0 && (v & ~sign) != 0;
        zero_beside_nonzero += zero_term && nonzero_term;
      }
    }
  }
  ASSERT_GT(tiles, 50);
  EXPECT_GT(neg_zero, 0);
  EXPECT_GT(pos_zero_from_terms, 0);
  EXPECT_GT(subnormal, 0);
  EXPECT_GT(zero_beside_nonzero, 0);
}

}  // namespace
}  // namespace tcfuzz::gen
