// The sparse-mma-exact kernel's lane code, run on the host: the registers it builds from its
// tables are the registers the oracle's fragment maps pack for the host-drawn case (the packing
// that ran on the H100), and its exact D is the oracle's D. Only the mma instruction itself and
// the copies are left for the GPU test (gpu/sparse_exact_hw_test.cc).
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "generators/sparse/device_drawn_gen.h"
#include "harness/sparse_mma_exact_lane.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/core/counter_hash.h"
#include "oracle/sparse/device_drawn_sparse.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/sparse_mma_lane.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;

TEST(SparseExactLane, RegistersAndDAreTheOraclesForEveryVariant) {
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  ASSERT_EQ(tables.size(), gen::DrawnVariants().size());
  const uint64_t seed = test::Seed();
  const uint64_t key = gen::SuiteKey(seed, kSparseMmaExactSuite);
  std::vector<int> per_variant(tables.size(), 0);
  for (uint64_t index = 0; index < 2000; ++index) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index);
    const gen::GeneratedSparse g = DrawSparseExactCase(kSparseMmaExactSuite, seed, index);
    const std::size_t v =
        drawn::Pick(cs, drawn::kVariant, 0, 0, static_cast<uint32_t>(tables.size()));
    ++per_variant[v];
    const harness::SparseExactTable& t = tables[v];
    const harness::PackedMmaSp p = test::PackOne(g);
    const int ar = g.op.form->a_regs, br = g.op.form->b_regs;
    const std::vector<uint32_t> want_d = Reference(g.tile, oracle::num::ExactParams(g.tile.cd));
    const harness::SparseExactValues values = harness::DrawCase(t, cs);
    for (int lane = 0; lane < 32; ++lane) {
      const harness::SparseExactLane r = harness::BuildLane(t, values, cs, lane);
      test::ExpectLaneIsPacked(r, p, ar, br, lane,
                               std::to_string(index) + " " + g.op.form->Name() + " selector " +
                                   std::to_string(g.op.selector));
      for (int x = 0; x < 4; ++x) {
        const int row = t.cd_row[lane][x], col = t.cd_col[lane][x];
        ASSERT_EQ(drawn::F32BitsOfInt(harness::ExpectedD(t, values, row, col)),
                  want_d[static_cast<std::size_t>(row * 8 + col)])
            << index << " D[" << row << "][" << col << "]";
      }
    }
  }
  for (std::size_t v = 0; v < tables.size(); ++v) EXPECT_GT(per_variant[v], 20) << "variant " << v;
}

// A metadata table that puts one nibble at the wrong bit: the lane code's registers then differ
// from the oracle's packing (the check above can fail).
TEST(SparseExactLane, AWrongMetadataBitIsSeen) {
  const std::vector<harness::SparseExactTable> right = SparseExactTables(gen::DrawnVariants());
  std::vector<harness::SparseExactTable> tables = right;
  harness::SparseExactTable& t = tables[0];
  int lane = 0;
  while (t.meta_count[lane] == 0) ++lane;
  t.meta_bit[lane][0] = static_cast<uint8_t>((t.meta_bit[lane][0] + 4) % 32);
  int differs = 0;
  for (uint64_t cs = 1; cs < 200; ++cs) {
    const harness::SparseExactValues v = harness::DrawCase(right[0], cs);
    differs += harness::BuildLane(t, v, cs, lane).e != harness::BuildLane(right[0], v, cs, lane).e;
  }
  EXPECT_GT(differs, 100);
}

TEST(ShardProgression, IsTheShardsIndicesAsAProgression) {
  for (uint64_t first : {0, 5, 17}) {
    for (uint64_t count : {0, 1, 9, 64}) {
      for (uint64_t shards : {1, 2, 3, 7}) {
        for (uint64_t shard = 0; shard < shards; ++shard) {
          WorkerArgs a;
          a.first = first, a.count = count, a.shard_index = shard, a.shard_count = shards;
          std::vector<uint64_t> want;  // the definition: i % shards == shard
          for (uint64_t i = first; i < first + count; ++i) {
            if (i % shards == shard) want.push_back(i);
          }
          EXPECT_EQ(ShardIndices(a), want);
          const IndexProgression p = ShardProgression(a);
          std::vector<uint64_t> got;
          for (uint64_t i = 0; i < p.count; ++i) got.push_back(p.start + i * p.stride);
          EXPECT_EQ(got, want) << first << " " << count << " " << shard << "/" << shards;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz::suites
