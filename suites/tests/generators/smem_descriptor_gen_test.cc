// The shared-memory descriptor generator: membership per intent, every rule reachable, and the
// edge cases of anchors-descriptors.md reached.
#include "generators/smem/smem_descriptor_gen.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "generators/core/random_source.h"
#include "generators/core/rc_source.h"
#include "suites/checks/smem_descriptor_checks.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::gen {
namespace {

using namespace oracle::smem;

std::set<std::string_view> Ids(const oracle::Verdict& v) {
  std::set<std::string_view> ids;
  for (const auto& x : v.violations()) ids.insert(x.rule->id);
  return ids;
}

RC_GTEST_PROP(SmemGen, LegalIntentIsLegalAndPassesEveryCheck, ()) {
  RcSource s;
  const GeneratedSmem g = DrawSmem(s, Intent::kLegal);
  RC_ASSERT(Validate(g.c).legal());
  const auto failures = suites::CheckSmem(g);
  for (const auto& f : failures) RC_LOG() << f.check << ": " << f.message << "\n";
  RC_ASSERT(failures.empty());
}

RC_GTEST_PROP(SmemGen, BreakOneViolatesExactlyTheNamedRule, ()) {
  RcSource s;
  const GeneratedSmem g = DrawSmem(s, Intent::kBreakOne);
  RC_ASSERT(Ids(Validate(g.c)) == std::set<std::string_view>{g.broken->id});
}

RC_GTEST_PROP(SmemGen, RawBitsNeverBreakTheChecks, ()) {
  RcSource s;
  RC_ASSERT(suites::CheckSmem(DrawSmem(s, Intent::kRawBits)).empty());
}

TEST(SmemGen, EveryBreakableRuleCanBeBrokenAlone) {
  RandomSource s(test::Seed());
  for (const oracle::Rule* rule : SmemBreakableRules()) {
    for (int i = 0; i < 100; ++i) {
      const GeneratedSmem g = DrawSmemBreaking(s, *rule);
      ASSERT_EQ(Ids(Validate(g.c)), std::set<std::string_view>{rule->id}) << "case " << i;
    }
  }
}

TEST(SmemGen, BreakableRulesCoverEveryDescriptorRule) {
  std::set<std::string_view> breakable, rules;
  for (const auto* r : SmemBreakableRules()) breakable.insert(r->id);
  for (const auto* r : SmemRules()) rules.insert(r->id);
  // The two encoding rules apply to byte values, not descriptor bits (tested in the oracle).
  rules.erase("smem.align16");
  rules.erase("smem.field_range");
  // wgmma.smem.swizzle_mode is an encoding rule too: no wgmma bits can express that mode.
  rules.erase("wgmma.smem.swizzle_mode");
  EXPECT_EQ(breakable, rules);
}

TEST(SmemGen, LegalDrawsReachTheEdgeCases) {
  RandomSource s(test::Seed());
  std::set<std::string> seen;
  for (int i = 0; i < 20000; ++i) {
    const GeneratedSmem g = DrawSmem(s, Intent::kLegal);
    const auto m = *DecodeMatrix(g.c.arch, g.c.desc);
    const std::string combo = std::string(Name(g.c.arch)) + "/" +
                              std::string(Name(g.c.view.major)) + "/" +
                              std::string(Name(m.swizzle));
    seen.insert(combo);
    seen.insert("base_offset=" + std::to_string(m.base_offset));
    seen.insert("width=" + std::to_string(ValueBits(g.c.view.dtype)));
    if (g.k_advance) seen.insert("k_advance");
    if (m.lbo_absolute) seen.insert("absolute");
    if (g.c.view.kbytes == 64) seen.insert("kbytes=64");
    if (g.layout->m > 1) seen.insert("several row atoms");
    if (g.c.view.major == Major::kK && m.swizzle != Swizzle::kNone && m.lbo != 16) {
      seen.insert("ignored LBO varied");
    }
    if (m.swizzle == Swizzle::kNone && g.c.view.major == Major::kK && m.sbo < m.lbo) {
      seen.insert("no-swizzle K-major, K units outer");
    }
    if (m.swizzle == Swizzle::kNone && g.c.view.major == Major::kK && m.sbo > m.lbo) {
      seen.insert("no-swizzle K-major, K units inner");
    }
  }
  for (const char* want : {"sm_90a/k/none",
                           "sm_90a/k/128b",
                           "sm_90a/mn/32b",
                           "sm_100a/mn/128b_base32b",
                           "sm_100a/k/64b",
                           "sm_103a/mn/none",
                           "base_offset=1",
                           "base_offset=7",
                           "width=4",
                           "width=6",
                           "width=8",
                           "width=16",
                           "width=32",
                           "k_advance",
                           "absolute",
                           "kbytes=64",
                           "several row atoms",
                           "ignored LBO varied",
                           "no-swizzle K-major, K units outer",
                           "no-swizzle K-major, K units inner"}) {
    EXPECT_TRUE(seen.count(want)) << want;
  }
}

}  // namespace
}  // namespace tcfuzz::gen
