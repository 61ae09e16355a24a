// The Ascend tiling generator: every intent passes the tiling checks, a broken-one case breaks
// exactly the rule it names, and the edge shapes and every chip are reached.
#include "generators/ascend/tcube_tiling_gen.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "generators/core/random_source.h"
#include "generators/core/rc_source.h"
#include "suites/checks/tcube_tiling_checks.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::gen {
namespace {

using namespace oracle::ascend;

void AssertChecksPass(const GeneratedTiling& g) {
  const auto failures = suites::CheckTiling(g);
  for (const auto& f : failures)
    RC_LOG() << f.check << ": " << f.message << "\n" << ProblemToJson(g.problem) << "\n";
  RC_ASSERT(failures.empty());
}

RC_GTEST_PROP(TilingGen, LegalIntentIsLegalUnlessTheTilerRefuses, ()) {
  RcSource s;
  const GeneratedTiling g = DrawTiling(s, Intent::kLegal);
  AssertChecksPass(g);
  if (!g.tiler_refused) RC_ASSERT(Validate(g.problem, g.tiling, *g.chip).hard.legal());
}

RC_GTEST_PROP(TilingGen, BreakOneViolatesExactlyTheNamedRule, ()) {
  RcSource s;
  const GeneratedTiling g = DrawTiling(s, Intent::kBreakOne);
  AssertChecksPass(g);
  const bool reached = g.broken != nullptr;
  RC_PRE(reached);
  const auto v = Validate(g.problem, g.tiling, *g.chip).hard;
  RC_ASSERT(v.violations().size() == 1u);
  RC_ASSERT(v.violations()[0].rule == g.broken);
}

RC_GTEST_PROP(TilingGen, RawImagesNeverBreakTheChecks, ()) {
  RcSource s;
  AssertChecksPass(DrawTiling(s, Intent::kRawBits));
}

TEST(TilingGen, ReachesEdgeShapesEveryChipAndManyRules) {
  RandomSource s(test::Seed());
  std::set<int64_t> dims;
  std::set<std::string> chips;
  std::set<std::string_view> broken;
  int refused = 0;
  for (int i = 0; i < 5000; ++i) {
    const GeneratedTiling g = DrawTiling(s, Intent::kBreakOne);
    dims.insert({g.problem.m, g.problem.n, g.problem.k});
    chips.insert(g.chip->name);
    refused += g.tiler_refused;
    if (g.broken) broken.insert(g.broken->id);
  }
  for (const int64_t d : {1, 15, 17, 65535, 65536}) EXPECT_TRUE(dims.count(d)) << d;
  EXPECT_EQ(chips.size(), ChipProfiles().size());
  EXPECT_LT(refused, 2500);  // most problems have an answer
  // One changed field reaches most of the hard rules.
  for (const char* id : {"tiling.used_core_num", "tiling.positive", "tiling.shape", "tiling.l1_fit",
                         "tiling.depth_step", "tiling.enum_values", "tiling.base_alignment",
                         "tiling.too_few_cores"}) {
    EXPECT_TRUE(broken.count(id)) << id;
  }
}

}  // namespace
}  // namespace tcfuzz::gen
