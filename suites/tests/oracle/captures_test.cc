// The arithmetic oracle against real tensor-core results captured on A100, Ada, L40S, B200 and
// V100 (../shared/captures; docs/numerics.md has the agreement table). Every line of every set
// the model claims to cover must match bit for bit; the others are reported, not asserted.
#include <gtest/gtest.h>

#include "suites/captures/capture_sets.h"

namespace tcfuzz::suites {
namespace {

TEST(HardwareCaptures, OracleMatchesEveryCoveredLineBitForBit) {
  const std::string dir = DefaultCapturesDir();
  const auto sets = FindCaptureSets(dir);
  if (sets.empty())
    GTEST_SKIP() << "no hardware captures at " << dir << " (set TCFUZZ_CAPTURES_DIR)";
  int covered = 0;
  for (const CaptureSet& set : sets) {
    auto r = CheckCaptureSet(set);
    ASSERT_TRUE(r.ok()) << r.error();
    const CaptureResult& c = r.value();
    std::printf("%-5s %-5s %-5s %-12s %s %5d/%5d\n", set.gpu.c_str(), set.format.c_str(),
                set.out.c_str(), c.target.c_str(), c.covered ? "covered  " : "uncovered", c.matched,
                c.lines);
    if (!c.covered) continue;
    ++covered;
    EXPECT_EQ(c.matched, c.lines) << set.gpu << " " << set.format << " " << set.out
                                  << ": first mismatch line " << c.first_mismatch << ": "
                                  << c.mismatch;
  }
  EXPECT_GT(covered, 0);
}

}  // namespace
}  // namespace tcfuzz::suites
