// wgmma with generated shared-memory descriptors on an H100 (sm_90a) against the oracle: each
// tile's operands sit where the oracle's address maps put them, poison everywhere else, so a
// device that reads another byte than the map says gives another D. Skips without an sm_90 GPU.
#include <gtest/gtest.h>

#include <map>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "harness/device.h"
#include "harness/wgmma_exec.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

TEST(WgmmaHw, GeneratedDescriptorTilesAgreeWithTheOracle) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major != 9 || info.cc_minor != 0)
    GTEST_SKIP() << "wgmma runs on sm_90a only, this is " << info.name;
  gen::RandomSource s(test::Seed());
  // Batches of tiles sharing a form.
  std::map<std::string, std::pair<harness::WgmmaSpec, std::vector<oracle::tile::DescriptorTile>>>
      batches;
  for (int i = 0; i < 512; ++i) {
    gen::GeneratedTile g = gen::DrawWgmmaTile(s);
    if (g.values == gen::TileValues::kRandom)
      continue;  // layouts here; arithmetic: the smem-hw suite
    const harness::WgmmaSpec spec = harness::SpecOf(g.tile);
    auto& b = batches[harness::WgmmaInstruction(spec)];
    b.first = spec;
    b.second.push_back(std::move(g.tile));
  }
  int mismatched = 0;
  for (const auto& [name, batch] : batches) {
    const auto d = harness::RunWgmma(batch.first, batch.second);
    ASSERT_TRUE(d.ok()) << name << ": " << d.error();
    for (size_t t = 0; t < batch.second.size(); ++t) {
      const auto want = oracle::tile::TileReference(batch.second[t]);
      ASSERT_TRUE(want.ok()) << want.error();
      for (size_t e = 0; e < want.value().size(); ++e) {
        if (want.value()[e] == d.value()[t][e]) continue;
        if (++mismatched <= 5) {
          ADD_FAILURE() << name << " tile " << t << " desc a 0x" << std::hex
                        << batch.second[t].a.desc << " b 0x" << batch.second[t].b.desc << std::dec
                        << ": D(" << e / batch.first.n << "," << e % batch.first.n << ") oracle 0x"
                        << std::hex << want.value()[e] << " device 0x" << d.value()[t][e];
        }
        break;
      }
    }
  }
  EXPECT_EQ(mismatched, 0);
}

}  // namespace
}  // namespace tcfuzz
