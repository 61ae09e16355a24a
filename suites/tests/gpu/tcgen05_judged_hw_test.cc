// The tcgen05-judged kernel on a compute capability 10.0 device: every case it builds and judges is
// the tile the host rebuilds, and the device's D is the host oracle's (the general model); a wrong
// numerics row in the device model fails cases (so the device-side check can fail); the campaign
// through the engine runs clean. Skips visibly on any other device (tcfuzz has never been lent a
// Blackwell: these have not run).
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(Tcgen05JudgedHw, EveryCaseIsTheHostsTileAndItsDIsTheOracles) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kTcgen05JudgedSuite);
  const uint64_t seed = test::Seed();
  const auto table = Tcgen05JudgedTable(Tcgen05JudgedLayoutTiles(seed));
  ASSERT_TRUE(table.ok()) << table.error();
  // D comes back row-major.
  test::ExpectEveryCaseIsTheHosts(
      Tcgen05JudgedLaunchFor(table.value(), GpuOf(info)), gen::SuiteKey(seed, kTcgen05JudgedSuite),
      3000, [&](const harness::JudgedCase& k) {
        const gen::GeneratedTile g = DrawTcgen05JudgedCase(seed, k.index);
        const auto want = oracle::tile::TileReference(g.tile, true);
        EXPECT_TRUE(want.ok()) << want.error();
        return test::HostView{want.ok() ? want.value() : std::vector<uint32_t>{}, k.d_regs,
                              TileFamily(g.tile) + " N " + std::to_string(g.tile.n)};
      });
}

TEST(Tcgen05JudgedHw, AWrongRowFailsCases) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kTcgen05JudgedSuite);
  const auto table = Tcgen05JudgedTable(Tcgen05JudgedLayoutTiles(7));
  ASSERT_TRUE(table.ok()) << table.error();
  test::ExpectAWrongRowFails(Tcgen05JudgedLaunchFor(table.value(), GpuOf(info)), 2000);
}

}  // namespace
}  // namespace tcfuzz::suites
