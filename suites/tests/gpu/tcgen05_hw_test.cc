// tcgen05.mma and tcgen05.mma.ws (zero-column mask) with generated shared-memory descriptors on a
// Blackwell device (compute capability 10.x; none has been lent so far) against the oracle: the
// mask cases compare D with the oracle's masked product, so a Blackwell runner settles the
// skip/use question (spec choice Z1) in one run. Skips visibly anywhere else.
#include <gtest/gtest.h>

#include <map>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "harness/device.h"
#include "harness/tcgen05_exec.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::harness {
namespace {

TEST(Tcgen05Hw, GeneratedDescriptorTilesAgreeWithTheOracle) {
  const DeviceInfo info = ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major != 10)
    GTEST_SKIP() << "tcgen05 runs on compute capability 10.x, this is " << info.name;
  gen::RandomSource s(test::Seed());
  std::map<std::string, std::pair<Tcgen05Spec, std::vector<oracle::tile::DescriptorTile>>> batches;
  for (int i = 0; i < 768; ++i) {
    // Dense, .ws with a zero-column mask, and .sp with its metadata in tensor memory (TM1).
    gen::GeneratedTile g =
        i % 3 == 2 ? gen::DrawTcgen05SpTile(s) : gen::DrawTcgen05Tile(s, i % 3 == 1);
    if (g.values == gen::TileValues::kRandom)
      continue;  // layouts and masks here; arithmetic: the tcgen05 suite
    const Tcgen05Spec spec = Tcgen05SpecOf(g.tile);
    auto& b = batches[Tcgen05BatchKey(spec)];
    b.first = spec;
    b.second.push_back(std::move(g.tile));
  }
  int mismatched = 0;
  for (const auto& [name, batch] : batches) {
    const auto d = RunTcgen05(batch.first, batch.second);
    ASSERT_TRUE(d.ok()) << name << ": " << d.error();
    for (size_t t = 0; t < batch.second.size(); ++t) {
      const auto want = oracle::tile::TileReference(batch.second[t]);
      ASSERT_TRUE(want.ok()) << want.error();
      if (want.value() != d.value()[t] && ++mismatched <= 5) {
        ADD_FAILURE() << name << " tile " << t << " mask 0x" << std::hex
                      << batch.second[t].zero_column_mask.value_or(0)
                      << (batch.second[t].sparse
                              ? " (.sp: a wrong metadata reading would point at TM1)"
                              : "");
      }
    }
  }
  EXPECT_EQ(mismatched, 0);
}

}  // namespace
}  // namespace tcfuzz::harness
