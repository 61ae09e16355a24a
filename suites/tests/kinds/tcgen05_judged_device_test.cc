// The tcgen05-judged kernel's thread code, run on the host (the suite's host-run twin): the
// shared-memory image its 128 threads build is, byte for byte, the image the host rebuilds through
// the oracle's placement (PlaceOperand over MapAddresses), and the D each thread computes for its
// row is the general 128-bit model's (TileReference with general_only), zeroed .ws columns
// included, for every N, type, major-ness and swizzle the layout table holds. The instruction,
// tensor memory and the copies are left for the GPU test (gpu/tcgen05_judged_hw_test.cc), which
// runs only on compute capability 10.0.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "generators/core/random_source.h"
#include "oracle/core/counter_hash.h"
#include "oracle/ptx/instruction_form.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/kinds/descriptor_tile_judged.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"
#include "suites/tests/support/test_seed.h"
#include "suites/tests/support/tile_lane.h"

namespace tcfuzz::suites {
namespace {

using oracle::num::Format;

std::vector<harness::Tcgen05JudgedLayout> TableOf(uint64_t seed) {
  const auto table = Tcgen05JudgedTable(Tcgen05JudgedLayoutTiles(seed));
  EXPECT_TRUE(table.ok()) << table.error();
  return table.ok() ? table.value() : std::vector<harness::Tcgen05JudgedLayout>{};
}

// The image and values the kernel's 128 threads build for case seed `cs` of layout `l`.
std::vector<uint8_t> BuildOnHost(const harness::Tcgen05JudgedLayout& l, uint64_t cs,
                                 harness::Tcgen05JudgedValues& v) {
  return test::BuildImageOnHost(l, cs, v, harness::kTcgen05JudgedThreads,
                                harness::kTileJudgedPoison,
                                [](auto&&... a) { harness::PlaceTcgen05Share(a...); });
}

TEST(Tcgen05JudgedLane, ImageAndDAreTheOraclesForEveryLayoutKind) {
  const uint64_t seed = test::Seed();
  const std::vector<harness::Tcgen05JudgedLayout> table = TableOf(seed);
  ASSERT_EQ(table.size(), kTcgen05JudgedLayouts);
  const auto params = FastMmaParams(oracle::num::Gpu::kSm100, oracle::num::Instr::kTcgen05);
  ASSERT_TRUE(params.has_value());
  const uint64_t key = gen::SuiteKey(seed, kTcgen05JudgedSuite);
  std::set<int> ns;
  std::set<std::string> kinds;  // type, majors, swizzles
  int ws = 0, zeroed = 0;
  auto v = std::make_unique<harness::Tcgen05JudgedValues>();
  for (uint64_t index = 0; index < 120; ++index) {
    const gen::GeneratedTile g = DrawTcgen05JudgedCase(seed, index);
    const auto c = test::CheckLaneCase(table, key, index, g, *v, BuildOnHost);
    ASSERT_NE(c.layout, nullptr);
    const harness::Tcgen05JudgedLayout& l = *c.layout;
    ASSERT_EQ(l.ws != 0, g.tile.zero_column_mask.has_value());
    ns.insert(l.n);
    kinds.insert(test::LayoutKind(oracle::smem::Arch::kSm100a, g.tile));
    const oracle::num::fast::Params& p = l.bf16 ? params->second : params->first;
    ws += l.ws;
    for (int col = 0; col < l.n; ++col) zeroed += l.b_column[col] < 0;
    for (int row = 0; row < harness::kTcgen05JudgedM; ++row) {
      for (int col = 0; col < l.n; ++col) {
        ASSERT_EQ(harness::ExpectedTcgen05D(l, *v, row, col, p),
                  c.want[static_cast<std::size_t>(row * l.n + col)])
            << "case " << index << " row " << row << " column " << col;
      }
    }
  }
  EXPECT_GT(ns.size(), 10u);  // N of 8..128 by 8
  EXPECT_GT(kinds.size(), 30u);
  EXPECT_GT(ws, 20);
  EXPECT_GT(zeroed, 0);  // masks that zero columns, judged against +0 rows of B
}

// Every layout of the table is legal, maps inside the image with no two elements of A and B in
// one byte, and its instruction descriptor says what the tile is (Table 42: N >> 3 at bits 17-22,
// M >> 4 at 24-28, the types, the transposes, a max shift that admits the mask's).
TEST(Tcgen05JudgedLane, EveryLayoutIsLegalPlaceableAndDescribed) {
  const uint64_t seed = test::Seed();
  const auto& layouts = Tcgen05JudgedLayoutTiles(seed);
  const std::vector<harness::Tcgen05JudgedLayout> table = TableOf(seed);
  ASSERT_EQ(table.size(), layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    const oracle::tile::DescriptorTile& t = layouts[i];
    const harness::Tcgen05JudgedLayout& l = table[i];
    EXPECT_TRUE(t.ab == Format::kF16 || t.ab == Format::kBF16);
    EXPECT_TRUE(t.n % 8 == 0 && t.n >= 8 && t.n <= 128) << t.n;
    EXPECT_TRUE(oracle::smem::Validate(t.a).legal() && oracle::smem::Validate(t.b).legal());
    EXPECT_TRUE(Placeable(t));
    const uint32_t d = l.idesc;
    EXPECT_EQ((d >> 17) & 0x3F, static_cast<uint32_t>(t.n / 8));
    EXPECT_EQ((d >> 24) & 0x1F, 128u / 16);
    EXPECT_EQ((d >> 4) & 3, 1u);                                // D f32
    EXPECT_EQ((d >> 7) & 7, t.ab == Format::kBF16 ? 1u : 0u);   // A type
    EXPECT_EQ((d >> 10) & 7, t.ab == Format::kBF16 ? 1u : 0u);  // B type
    EXPECT_EQ((d >> 15) & 1, t.a.view.major == oracle::smem::Major::kMN ? 1u : 0u);
    EXPECT_EQ((d >> 16) & 1, t.b.view.major == oracle::smem::Major::kMN ? 1u : 0u);
    EXPECT_EQ(d & 0x7, 0u);  // dense: no sparsity
    if (t.zero_column_mask) {
      oracle::tcgen05::ZcmCase c;
      c.desc = *t.zero_column_mask;
      c.shape.m = 128;
      c.shape.n = t.n;
      c.shape.idesc = d;
      EXPECT_TRUE(oracle::tcgen05::Validate(c).legal()) << "mask 0x" << std::hex << c.desc;
      EXPECT_TRUE(t.n == 64 || t.n == 128);
    } else {
      for (int j = 0; j < t.n; ++j) EXPECT_EQ(l.b_column[j], j);
    }
  }
}

// The two instructions the kernel spells are the oracle's spellings of those forms.
TEST(Tcgen05JudgedLane, SpelledOpcodesAreTheOraclesForms) {
  oracle::ptx::PtxForm f;
  f.family = oracle::ptx::Family::kTcgen05;
  f.kind = oracle::ptx::Tcgen05KindOf(Format::kF16);
  EXPECT_EQ(f.Opcode(), harness::kTcgen05JudgedOpcode);
  EXPECT_EQ(oracle::ptx::Tcgen05KindOf(Format::kBF16), f.kind);
  f.family = oracle::ptx::Family::kTcgen05Ws;
  f.zero_column_mask = true;
  EXPECT_EQ(f.Opcode(), harness::kTcgen05JudgedWsOpcode);
}

// A table whose B descriptor says another swizzle code: the image the threads build differs from
// the oracle's (the check above can fail).
TEST(Tcgen05JudgedLane, AWrongDescriptorIsSeen) {
  const uint64_t seed = 77;
  const std::vector<harness::Tcgen05JudgedLayout> table = TableOf(seed);
  ASSERT_FALSE(table.empty());
  const uint64_t key = gen::SuiteKey(seed, kTcgen05JudgedSuite);
  auto v = std::make_unique<harness::Tcgen05JudgedValues>();
  int differs = 0;
  for (uint64_t index = 0; index < 20; ++index) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index);
    harness::Tcgen05JudgedLayout l =
        table[oracle::tile::drawn::LayoutIndex(cs, kTcgen05JudgedLayouts)];
    // Swizzle code 2 (128B) <-> 6 (32B), 0 (none) <-> 4 (64B): bit 62 flipped.
    l.desc_b ^= uint64_t{1} << 62;
    differs += BuildOnHost(l, cs, *v) != DrawTcgen05JudgedCase(seed, index).tile.image;
  }
  EXPECT_EQ(differs, 20);
}

}  // namespace
}  // namespace tcfuzz::suites
