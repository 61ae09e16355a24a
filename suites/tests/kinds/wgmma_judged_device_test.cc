// The smem-hw-judged kernel's thread code, run on the host (the suite's host-run twin): the
// shared-memory image its 128 threads build is, byte for byte, the image the host rebuilds
// through the oracle's placement (PlaceOperand over MapAddresses), and the D each thread computes
// for its accumulators is the general 128-bit model's (TileReference with general_only), for
// every N, type, major-ness and swizzle the layout table holds. Only the wgmma instruction itself
// and the copies are left for the GPU test (gpu/wgmma_judged_hw_test.cc).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "generators/core/random_source.h"
#include "harness/judged_suites.h"
#include "oracle/core/counter_hash.h"
#include "oracle/smem/smem_case.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"
#include "suites/tests/support/test_seed.h"
#include "suites/tests/support/tile_lane.h"

namespace tcfuzz::suites {
namespace {

using oracle::num::Format;

// The image and values the kernel's 128 threads build for case seed `cs` of layout `l`.
std::vector<uint8_t> BuildOnHost(const harness::WgmmaJudgedLayout& l, uint64_t cs,
                                 harness::WgmmaJudgedValues& v) {
  return test::BuildImageOnHost(l, cs, v, harness::kWgmmaJudgedThreads, harness::kWgmmaJudgedPoison,
                                [](auto&&... a) { harness::PlaceShare(a...); });
}

TEST(WgmmaJudgedLane, ImageAndDAreTheOraclesForEveryLayoutKind) {
  const uint64_t seed = test::Seed();
  const auto& layouts = WgmmaJudgedLayoutTiles(seed);
  const std::vector<harness::WgmmaJudgedLayout> table = WgmmaJudgedTable(layouts);
  ASSERT_EQ(table.size(), kWgmmaJudgedLayouts);
  const auto params = FastMmaParams(oracle::num::Gpu::kSm90, oracle::num::Instr::kWgmma);
  ASSERT_TRUE(params.has_value());
  const uint64_t key = gen::SuiteKey(seed, kSmemHwJudgedSuite);
  std::set<int> ns;
  std::set<std::string> kinds;  // type, majors, swizzles
  auto v = std::make_unique<harness::WgmmaJudgedValues>();
  for (uint64_t index = 0; index < 160; ++index) {
    const gen::GeneratedTile g = DrawSmemHwJudgedCase(seed, index);
    const auto c = test::CheckLaneCase(table, key, index, g, *v, BuildOnHost);
    ASSERT_NE(c.layout, nullptr);
    const harness::WgmmaJudgedLayout& l = *c.layout;
    ns.insert(l.n);
    kinds.insert(test::LayoutKind(oracle::smem::Arch::kSm90a, g.tile));
    const oracle::num::fast::Params& p = l.bf16 ? params->second : params->first;
    for (int thread = 0; thread < harness::kWgmmaJudgedThreads; ++thread) {
      for (int x = 0; x < l.n / 2; ++x) {
        const oracle::tile::Coord at = oracle::tile::MapD(thread, x);
        ASSERT_EQ(harness::ExpectedWgmmaD(l, *v, thread, x, p),
                  c.want[static_cast<std::size_t>(at.row * l.n + at.col)])
            << "case " << index << " thread " << thread << " accumulator " << x;
      }
    }
  }
  EXPECT_EQ(ns, (std::set<int>{8, 16, 24, 64, 128, 256}));
  EXPECT_GT(kinds.size(), 40u);
}

// Every layout of the table is one the kernel spells and maps inside the image, no two elements of
// A and B in one byte.
TEST(WgmmaJudgedLane, EveryLayoutIsSpelledAndMapsInsideTheImage) {
  const auto& layouts = WgmmaJudgedLayoutTiles(test::Seed());
  for (const oracle::tile::DescriptorTile& t : layouts) {
    EXPECT_TRUE(harness::WgmmaJudgedSpells(t.n)) << t.n;
    EXPECT_TRUE(t.ab == Format::kF16 || t.ab == Format::kBF16);
    std::set<uint64_t> bytes;  // of A and B together
    std::size_t elements = 0;
    for (const oracle::smem::SmemCase* c : {&t.a, &t.b}) {
      EXPECT_TRUE(oracle::smem::Validate(*c).legal());
      const auto map = oracle::smem::Map(*c);
      ASSERT_TRUE(map.ok()) << map.error();
      for (const uint64_t bit : map.value().bits) {
        EXPECT_LE(bit / 8 + 2, static_cast<uint64_t>(gen::kTileImageBytes));
        bytes.insert(bit / 8);
      }
      elements += map.value().bits.size();
    }
    EXPECT_EQ(bytes.size(), elements) << "aliased";
  }
}

// A table whose B descriptor says another swizzle: the image the threads build differs from the
// oracle's (the check above can fail).
TEST(WgmmaJudgedLane, AWrongDescriptorIsSeen) {
  const uint64_t seed = 77;
  const std::vector<harness::WgmmaJudgedLayout> table =
      WgmmaJudgedTable(WgmmaJudgedLayoutTiles(seed));
  const uint64_t key = gen::SuiteKey(seed, kSmemHwJudgedSuite);
  auto v = std::make_unique<harness::WgmmaJudgedValues>();
  int differs = 0;
  for (uint64_t index = 0; index < 20; ++index) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index);
    harness::WgmmaJudgedLayout l = table[oracle::tile::drawn::LayoutIndex(cs, kWgmmaJudgedLayouts)];
    l.desc_b ^= uint64_t{1} << 62;  // the swizzle code's low bit
    differs += BuildOnHost(l, cs, *v) != DrawSmemHwJudgedCase(seed, index).tile.image;
  }
  EXPECT_EQ(differs, 20);
}

// A kept case's registers are thread-major, N/2 a thread: thread t's accumulator x lands where
// wgmma's fragment puts it (PTX 9.1 §9.7.15.5.1.1: lane l of warp w holds row 16w + l/4, + 8 for
// accumulators 2 and 3 of each four, column 8(x/4) + 2(l%4) + x%2).
TEST(WgmmaJudgedLane, KeptRegistersUnpackByTheFragment) {
  const int n = 16;
  std::vector<uint32_t> regs(128 * n / 2);
  for (int t = 0; t < 128; ++t) {
    for (int x = 0; x < n / 2; ++x) regs[static_cast<std::size_t>(t * n / 2 + x)] = 1000u * t + x;
  }
  const std::vector<uint32_t> d = harness::WgmmaJudgedD(regs, n);
  EXPECT_EQ(d[0 * n + 0], 0u);             // thread 0, accumulator 0
  EXPECT_EQ(d[9 * n + 3], 5003u);          // thread 5: row 1 + 8, column 2 + 1
  EXPECT_EQ(d[(16 + 8) * n + 8], 32006u);  // thread 32 (warp 1, lane 0), accumulator 6
  EXPECT_EQ(d[63 * n + 15], 127007u);      // the last thread's last accumulator
}

}  // namespace
}  // namespace tcfuzz::suites
