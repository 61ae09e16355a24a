// The smem-hw-judged kernel on an sm_90a device: every case it builds and judges is the tile the
// host rebuilds, and the device's D is the host oracle's (the general model); a wrong numerics row
// in the device model fails cases (so the device-side check can fail); the campaign through the
// engine runs clean. Skips visibly without a compute capability 9.0 device.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/wgmma_judged.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/kinds/judged_worker.h"
#include "suites/kinds/wgmma_judged_device.h"
#include "suites/tests/support/judged_campaign.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

#define TCFUZZ_NEEDS_ROW()                                                                     \
  const harness::DeviceInfo info = harness::ProbeDevice();                                     \
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;                              \
  if (info.cc_major != 9 || info.cc_minor != 0)                                                \
    GTEST_SKIP() << "wgmma needs sm_90a, device is " << info.cc_major << "." << info.cc_minor; \
  const auto params = FastMmaParams(GpuOf(info), oracle::num::Instr::kWgmma);                  \
  if (!params) GTEST_SKIP() << "no wgmma numerics row for " << info.name

harness::WgmmaJudgedLaunch LaunchOf(
    const std::vector<harness::WgmmaJudgedLayout>& table,
    const std::pair<oracle::num::fast::Params, oracle::num::fast::Params>& params) {
  harness::WgmmaJudgedLaunch l;
  l.layouts = table;
  l.f16 = params.first, l.bf16 = params.second;
  l.image_bytes = gen::kTileImageBytes;
  return l;
}

TEST(WgmmaJudgedHw, EveryCaseIsTheHostsTileAndItsDIsTheOracles) {
  TCFUZZ_NEEDS_ROW();
  const uint64_t seed = test::Seed();
  const std::vector<harness::WgmmaJudgedLayout> table =
      WgmmaJudgedTable(WgmmaJudgedLayoutTiles(seed));
  harness::WgmmaJudgedLaunch l = LaunchOf(table, *params);
  l.suite_key = gen::SuiteKey(seed, kSmemHwJudgedSuite);
  l.first = 1000;
  l.count = 3000;
  l.sample_every = 1;  // every D comes back
  const auto got = harness::RunWgmmaJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_TRUE(got.value().failed.empty())
      << got.value().failed.size() << " cases failed the device-side check, first "
      << got.value().failed.front();
  ASSERT_EQ(got.value().kept.size(), l.count);
  std::set<uint64_t> seen;
  int bad = 0;
  for (const harness::JudgedCase& k : got.value().kept) {
    seen.insert(k.index);
    const gen::GeneratedTile g = DrawSmemHwJudgedCase(seed, k.index);
    const auto want = oracle::tile::TileReference(g.tile, true);
    ASSERT_TRUE(want.ok()) << want.error();
    const std::vector<uint32_t> d = harness::WgmmaJudgedD(k.d_regs, g.tile.n);
    if (want.value() != d && ++bad <= 5)
      ADD_FAILURE() << "case " << k.index << " " << TileFamily(g.tile) << " N " << g.tile.n << ": "
                    << MismatchDetail(want.value(), d);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(seen.size(), l.count);
}

// The device model with a narrower alignment (F = 20 instead of the row's) disagrees with the
// hardware on the tiles whose sums need the bits: the device-side check fails them.
TEST(WgmmaJudgedHw, AWrongRowFailsCases) {
  TCFUZZ_NEEDS_ROW();
  const std::vector<harness::WgmmaJudgedLayout> table = WgmmaJudgedTable(WgmmaJudgedLayoutTiles(7));
  harness::WgmmaJudgedLaunch l = LaunchOf(table, *params);
  l.f16.F = l.bf16.F = 20;
  l.suite_key = 7;
  l.count = 2000;
  const auto got = harness::RunWgmmaJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_GT(got.value().failed.size(), 100u);
  EXPECT_LE(got.value().kept.size(), l.keep_mismatches);
}

TEST(WgmmaJudgedHw, CampaignThroughTheEngineRunsClean) {
  TCFUZZ_NEEDS_ROW();
  test::ExpectJudgedCampaignClean(kSmemHwJudgedSuite, uint64_t{1} << 20);
}

}  // namespace
}  // namespace tcfuzz::suites
