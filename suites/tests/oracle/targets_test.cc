// Every target and device name a user gives maps to the row tcfuzz uses and says how it is
// backed there: measured, the same generation's row (a hypothesis there), or no row and why.
#include "oracle/numerics/targets.h"

#include <gtest/gtest.h>

#include "oracle/core/backing.h"

namespace tcfuzz::oracle::num {
namespace {

std::string TargetOf(std::string_view name) {
  const auto t = FindTarget(name);
  return t.ok() ? std::string(t.value().target) : "error: " + t.error();
}

TEST(Targets, NamesAndDevicesMapToTargets) {
  for (const auto& [name, target] :
       std::vector<std::pair<const char*, const char*>>{{"sm_86", "sm_86"},
                                                        {"sm_90a", "sm_90"},
                                                        {"compute_100a", "sm_100"},
                                                        {"86", "sm_86"},
                                                        {"SM_89", "sm_89"},
                                                        {"sm_103f", "sm_103"},
                                                        {"H100", "sm_90"},
                                                        {"NVIDIA H100 80GB HBM3", "sm_90"},
                                                        {"h200", "sm_90"},
                                                        {"H20", "sm_90"},
                                                        {"A100", "sm_80"},
                                                        {"A10", "sm_86"},
                                                        {"NVIDIA A10G", "sm_86"},
                                                        {"L4", "sm_89"},
                                                        {"L40S", "sm_89"},
                                                        {"RTX 4090", "sm_89"},
                                                        {"NVIDIA GeForce RTX 4090", "sm_89"},
                                                        {"rtx-3080", "sm_86"},
                                                        {"RTX 5090", "sm_120"},
                                                        {"B200", "sm_100"},
                                                        {"GB300", "sm_103"},
                                                        {"Jetson Thor", "sm_110"},
                                                        {"Tesla V100-SXM2-16GB", "sm_70"},
                                                        {"T4", "sm_75"},
                                                        {"DGX Spark", "sm_121"}}) {
    EXPECT_EQ(TargetOf(name), target) << name;
  }
}

TEST(Targets, RowsAndTheirBackingPerTarget) {
  const auto sm86 = FindTarget("sm_86").value();
  ASSERT_TRUE(sm86.row.has_value());
  EXPECT_EQ(*sm86.row, Gpu::kSm80);
  EXPECT_NE(Describe(sm86).find("the sm_80 row"), std::string::npos) << Describe(sm86);
  EXPECT_NE(Describe(sm86).find("not measured on sm_86"), std::string::npos) << Describe(sm86);
  // The same row is hardware where it was measured and a hypothesis on its generation's others.
  const auto row = ParamsFor(*sm86.row, Instr::kMma, Format::kF16, Format::kF32);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(BackingOf(row->row, "sm_80"), Backing::kHardware);
  EXPECT_EQ(BackingOf(row->row, sm86.target), Backing::kHypothesis);
  for (const char* none : {"sm_75", "sm_120", "sm_121", "sm_60"}) {
    const auto t = FindTarget(none).value();
    EXPECT_FALSE(t.row.has_value()) << none;
    EXPECT_NE(Describe(t).find("no row"), std::string::npos) << Describe(t);
  }
  // A measured target's own rows are hardware-backed there.
  for (const TargetInfo& t : Targets()) {
    if (!t.row || std::string_view(t.why).find("measured on") != 0) continue;
    const auto p = ParamsFor(*t.row, Instr::kMma, Format::kF16, Format::kF32);
    ASSERT_TRUE(p.has_value()) << t.target;
    EXPECT_EQ(BackingOf(p->row, t.target), Backing::kHardware) << t.target;
  }
}

TEST(Targets, UnknownNamesAreOneErrorListingTheKnownOnes) {
  for (const char* bad : {"sm_99", "foo", "", "sm_", "H", "rtx"}) {
    const auto t = FindTarget(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_NE(t.error().find("sm_86"), std::string::npos) << t.error();
    EXPECT_NE(t.error().find("H100"), std::string::npos) << t.error();
    EXPECT_EQ(t.error().find('\n'), std::string::npos);
  }
  EXPECT_LT(FindTarget(std::string(100000, 'x')).error().size(), 400u);
}

}  // namespace
}  // namespace tcfuzz::oracle::num
