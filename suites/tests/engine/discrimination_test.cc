// Discrimination counts (suites/checks/discrimination.h): the two basic probes word by word, the
// low-discrimination rule at its edges, and the worker protocol's line both ways.
#include "suites/checks/discrimination.h"

#include <gtest/gtest.h>

namespace tcfuzz::suites {
namespace {

std::vector<ProbeResult> ZeroAndC(std::vector<uint32_t> want, std::vector<uint32_t> c) {
  std::vector<ProbeResult> out;
  ProbeZeroAndC(want, c, out);
  return out;
}

TEST(Discrimination, AllZeroAndDEqualsCCompareWords) {
  const auto tells = [](const std::vector<ProbeResult>& p) {
    EXPECT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0].probe, "all_zero");
    EXPECT_EQ(p[1].probe, "d_equals_c");
    return std::pair{p[0].tells, p[1].tells};
  };
  EXPECT_EQ(tells(ZeroAndC({0, 0}, {})), std::pair(false, false));  // no C: D = C is all-zero
  EXPECT_EQ(tells(ZeroAndC({0, 1}, {})), std::pair(true, true));
  // -0.0f is not +0: a kernel writing zeros fails a case expecting -0.
  EXPECT_EQ(tells(ZeroAndC({0, 0x80000000u}, {0, 0x80000000u})), std::pair(true, false));
  EXPECT_EQ(tells(ZeroAndC({1, 2}, {1, 3})), std::pair(true, true));
  EXPECT_EQ(tells(ZeroAndC({0, 0}, {0, 7})), std::pair(false, true));
}

TEST(Discrimination, LowMeansUnder99PercentOrAMutantNoCaseTold) {
  Discrimination d;
  d["a"]["all_zero"] = {1000, 990};     // exactly 99%: not low
  d["b"]["d_equals_c"] = {1000, 989};   // low
  d["c"]["zcm.inverted=1"] = {100, 0};  // low: 100 cases, none told it
  d["d"]["zcm.inverted=1"] = {99, 0};   // too few cases to say
  d["e"]["zcm.inverted=1"] = {1000, 1};
  d["f"]["all_zero"] = {0, 0};
  d["g"]["all_zero"] = {999, 900};  // under 1,000 cases: 90% is enough
  d["h"]["all_zero"] = {999, 898};  // low
  d["i"]["d_equals_c"] = {99, 0};   // too few cases to say
  EXPECT_EQ(LowDiscrimination(d), (std::vector<std::string>{"b: d_equals_c 98.9% (989 of 1000)",
                                                            "c: zcm.inverted=1 0.0% (0 of 100)",
                                                            "h: all_zero 89.9% (898 of 999)"}));
}

TEST(Discrimination, CountsAddAndTheWorkerLineReadsBack) {
  FamilyProbes f;
  const ProbeResult one[] = {{"all_zero", true}, {"x=1", false}};
  const ProbeResult two[] = {{"all_zero", false}};
  Count(f, one);
  Count(f, two);
  EXPECT_EQ(f, (FamilyProbes{{"all_zero", {2, 1}}, {"x=1", {1, 0}}}));
  Discrimination d{{"mma.sp.sync.aligned.m16n8k32 row col", f}};
  Discrimination back;
  for (const std::string& line : DiscriminationLines(d))
    EXPECT_TRUE(ParseDiscriminationLine(line, back)) << line;
  EXPECT_EQ(back, d);
  AddDiscrimination(back, d);
  EXPECT_EQ(back.begin()->second.at("all_zero"), (ProbeCount{4, 2}));
  for (const char* bad : {"discrimination 5 6 p f", "discrimination 5 x p f",
                          "discrimination 5 3 p", "discrimination 5 3  f", "discrimination 5 3 p ",
                          "discriminations 5 3 p f", "discrimination -1 0 p f"}) {
    Discrimination none;
    EXPECT_FALSE(ParseDiscriminationLine(bad, none)) << bad;
    EXPECT_TRUE(none.empty()) << bad;
  }
  // Counts that would wrap are not a line (the engine drops a garbled worker's counts).
  Discrimination big;
  EXPECT_TRUE(ParseDiscriminationLine("discrimination 18446744073709551615 0 p f", big));
  EXPECT_FALSE(ParseDiscriminationLine("discrimination 1 0 p f", big));
}

}  // namespace
}  // namespace tcfuzz::suites
