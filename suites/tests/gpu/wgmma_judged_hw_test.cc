// The smem-hw-judged kernel on an sm_90a device: every case it builds and judges is the tile the
// host rebuilds, and the device's D is the host oracle's (the general model); a wrong numerics row
// in the device model fails cases (so the device-side check can fail); the campaign through the
// engine runs clean. Skips visibly without a compute capability 9.0 device.
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(WgmmaJudgedHw, EveryCaseIsTheHostsTileAndItsDIsTheOracles) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSmemHwJudgedSuite);
  const uint64_t seed = test::Seed();
  const std::vector<harness::WgmmaJudgedLayout> table =
      WgmmaJudgedTable(WgmmaJudgedLayoutTiles(seed));
  test::ExpectEveryCaseIsTheHosts(
      WgmmaJudgedLaunchFor(table, GpuOf(info)), gen::SuiteKey(seed, kSmemHwJudgedSuite), 3000,
      [&](const harness::JudgedCase& k) {
        const gen::GeneratedTile g = DrawSmemHwJudgedCase(seed, k.index);
        const auto want = oracle::tile::TileReference(g.tile, true);
        EXPECT_TRUE(want.ok()) << want.error();
        return test::HostView{want.ok() ? want.value() : std::vector<uint32_t>{},
                              harness::WgmmaJudgedD(k.d_regs, g.tile.n),
                              TileFamily(g.tile) + " N " + std::to_string(g.tile.n)};
      });
}

TEST(WgmmaJudgedHw, AWrongRowFailsCases) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSmemHwJudgedSuite);
  const std::vector<harness::WgmmaJudgedLayout> table = WgmmaJudgedTable(WgmmaJudgedLayoutTiles(7));
  test::ExpectAWrongRowFails(WgmmaJudgedLaunchFor(table, GpuOf(info)), 2000);
}

}  // namespace
}  // namespace tcfuzz::suites
