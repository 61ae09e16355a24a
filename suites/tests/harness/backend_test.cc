// Choosing and loading a backend (harness/backend.h): the plug-in loader refuses what it cannot
// trust with one line, and the emulator loaded as a plug-in answers as the built-in one does.
#include "harness/backend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/emulator/emulator_backend.h"
#include "harness/sparse_mma_exec.h"
#include "suites/engine/device_campaign.h"

namespace tcfuzz::harness {
namespace {

TEST(BackendChoice, ParsesTheThreeKindsAndRefusesTheRest) {
  EXPECT_EQ(ParseBackendChoice("cuda", "").value().kind, BackendKind::kCuda);
  const auto e = ParseBackendChoice("emulated", "");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.value().kind, BackendKind::kEmulated);
  EXPECT_EQ(e.value().target, "sm_90a,sm_100a");  // the H100 and, for tcgen05, the B200
  EXPECT_EQ(ParseBackendChoice("emulated", "H100").value().target, "sm_90");  // a target
  EXPECT_EQ(ParseBackendChoice("emulated", " SM_100A ").value().target, "sm_100a");
  EXPECT_EQ(ParseBackendChoice("emulated", "sm_80,B200").value().target, "sm_80,sm_100");
  const auto p = ParseBackendChoice("plugin:rel/x.so", "sm_100a");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().kind, BackendKind::kPlugin);
  EXPECT_EQ(p.value().plugin_path.front(), '/');  // absolute: workers may start elsewhere
  EXPECT_TRUE(p.value().plugin_path.ends_with("/rel/x.so"));
  for (const auto& [device, as] :
       std::vector<std::pair<std::string, std::string>>{{"gpu", ""},
                                                        {"plugin:", ""},
                                                        {"", ""},
                                                        {"cuda", "sm_90a"},
                                                        {"emulated", "sm_99x"},
                                                        {"emulated", "sm_90a,"},
                                                        {"emulated", "sm_90a,,sm_100a"}}) {
    const auto bad = ParseBackendChoice(device, as);
    EXPECT_FALSE(bad.ok()) << device << " " << as;
    if (!bad.ok()) {
      EXPECT_EQ(bad.error().find('\n'), std::string::npos) << bad.error();
    }
  }
}

// Each instruction family runs as the first target of the list that executes it.
TEST(BackendChoice, EachFamilyRunsAsTheFirstTargetThatExecutesIt) {
  const auto both = ParseBackendChoice("emulated", "").value();
  EXPECT_EQ(TargetFor(both, "mma"), "sm_90a");
  EXPECT_EQ(TargetFor(both, "wgmma"), "sm_90a");
  EXPECT_EQ(TargetFor(both, "tcgen05"), "sm_100a");
  const auto later = ParseBackendChoice("emulated", "sm_80,sm_103a,sm_90a").value();
  EXPECT_EQ(TargetFor(later, "mma"), "sm_80");
  EXPECT_EQ(TargetFor(later, "wgmma"), "sm_90a");
  EXPECT_EQ(TargetFor(later, "tcgen05"), "sm_103a");
  // None executes it: the first, whose device then says it does not (wgmma needs sm_90a).
  const auto plain = ParseBackendChoice("emulated", "sm_90,sm_100").value();
  EXPECT_EQ(TargetFor(plain, "wgmma"), "sm_90");
  EXPECT_EQ(TargetFor(plain, "tcgen05"), "sm_90");
}

TEST(PluginLoader, RefusesAnotherAbiVersionNamingBoth) {
  const auto t = LoadPlugin(WRONG_ABI_PLUGIN);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().find("ABI version 99"), std::string::npos) << t.error();
  EXPECT_NE(t.error().find("reads 1"), std::string::npos) << t.error();
  const auto missing = LoadPlugin("/nonexistent/tcfuzz_plugin.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("/nonexistent/tcfuzz_plugin.so"), std::string::npos);
}

TEST(PluginLoader, TheEmulatorAsAPluginAnswersAsTheBuiltInOne) {
  const auto t = LoadPlugin(EMULATOR_PLUGIN);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_STREQ(t.value()->name, "tcfuzz emulator");
  EXPECT_NE(t.value(), emulator::EmulatorBackend());  // its own copy, loaded from the file
  // 64 drawn sparse cases of one instruction, run through both tables.
  std::vector<MmaSpCase> cases;
  const auto first = suites::DrawSparseMmaCase(20261126, 0);
  const MmaSpSpec spec{first.op.form,     first.op.variant, first.op.selector,   first.tile.a_type,
                       first.tile.b_type, first.tile.cd,    first.tile.satfinite};
  for (uint64_t i = 1; cases.size() < 64 && i < 1000000; ++i) {
    const auto g = suites::DrawSparseMmaCase(20261126, i);
    if (MmaSpInstruction({g.op.form, g.op.variant, g.op.selector, g.tile.a_type, g.tile.b_type,
                          g.tile.cd, g.tile.satfinite}) == MmaSpInstruction(spec))
      cases.push_back({g.op, g.tile});
  }
  ASSERT_EQ(cases.size(), 64u);
  const PackedMmaSp p = PackMmaSp(spec, cases);
  const WarpMmaCall w = WarpMmaCallOf(spec, p);
  tcfuzz_warp_mma call = w.Call();
  std::vector<uint32_t> d_plugin(w.DWords(), 1), d_builtin(w.DWords(), 2);
  call.d = d_plugin.data();
  char err[256] = "";
  ASSERT_EQ(t.value()->warp_mma(&call, "sm_90a", err, sizeof err), TCFUZZ_OK) << err;
  call.d = d_builtin.data();
  ASSERT_EQ(emulator::EmulatorBackend()->warp_mma(&call, "sm_90a", err, sizeof err), TCFUZZ_OK)
      << err;
  EXPECT_EQ(d_plugin, d_builtin);
}

}  // namespace
}  // namespace tcfuzz::harness
