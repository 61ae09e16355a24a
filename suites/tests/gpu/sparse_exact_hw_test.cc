// The sparse-mma-exact kernel on a device: every case it draws and checks itself is the case the
// host rebuilds, and the device's D is the oracle's; a corrupted table makes the device-side check
// fail cases (so it can fail); the campaign through the engine runs clean. Skips visibly without
// an sm_80+ device.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/mma_sp_exec.h"
#include "harness/sparse_exact.h"
#include "oracle/sparse/device_drawn_case.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/sparse_exact_device.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

#define TCFUZZ_NEEDS_SM80()                                       \
  const harness::DeviceInfo info = harness::ProbeDevice();        \
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason; \
  if (info.cc_major < 8)                                          \
  GTEST_SKIP() << "mma.sp needs sm_80 or newer, device is " << info.cc_major << "." << info.cc_minor

TEST(SparseExactHw, EveryCaseIsTheHostsCaseAndItsDIsTheOracles) {
  TCFUZZ_NEEDS_SM80();
  const uint64_t seed = test::Seed();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  harness::SparseExactLaunch l;
  l.tables = tables;
  l.suite_key = gen::SuiteKey(seed, kSparseMmaExactSuite);
  l.first = 1000;
  l.count = 24000;
  l.sample_every = 1;  // every D comes back
  const auto got = harness::RunSparseExact(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_TRUE(got.value().failed.empty())
      << got.value().failed.size() << " cases failed the device-side check, first "
      << got.value().failed.front();
  ASSERT_EQ(got.value().kept.size(), l.count);
  std::set<uint64_t> seen;
  int bad = 0;
  for (const harness::SparseExactCase& k : got.value().kept) {
    seen.insert(k.index);
    const gen::GeneratedSparse g = DrawSparseExactCase(kSparseMmaExactSuite, seed, k.index);
    const auto params =
        SparseParams(g.tile, GpuOf(info)).value_or(oracle::num::ExactParams(g.tile.cd));
    const std::vector<uint32_t> want = oracle::sparse::Reference(g.tile, params);
    const std::vector<uint32_t> d = harness::UnpackD(oracle::num::Format::kF32, k.d_regs, 0);
    if (want != d && ++bad <= 5)
      ADD_FAILURE() << "case " << k.index << " " << g.op.form->Name() << ": "
                    << MismatchDetail(want, d);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(seen.size(), l.count);
  EXPECT_EQ(*seen.begin(), l.first);
}

TEST(SparseExactHw, ACorruptedMetadataTableFailsThoseCases) {
  TCFUZZ_NEEDS_SM80();
  std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  harness::SparseExactTable& t = tables[0];
  for (int lane = 0; lane < 32; ++lane) {
    for (int x = 0; x < t.meta_count[lane]; ++x)
      t.meta_bit[lane][x] = static_cast<uint8_t>((t.meta_bit[lane][x] + 4) % 32);
  }
  harness::SparseExactLaunch l;
  l.tables = tables;
  l.suite_key = 7;
  l.count = 4800;
  const auto got = harness::RunSparseExact(l);
  ASSERT_TRUE(got.ok()) << got.error();
  // Variant 0 is about one case in 24; most of its cases read another chunk's nibble.
  EXPECT_GT(got.value().failed.size(), 100u);
  for (const uint64_t index : got.value().failed) {
    EXPECT_EQ(oracle::sparse::drawn::Pick(oracle::CaseSeedFromKey(7, index),
                                          oracle::sparse::drawn::kVariant, 0, 0,
                                          static_cast<uint32_t>(tables.size())),
              0u)
        << index;
  }
  EXPECT_LE(got.value().kept.size(), l.keep_mismatches);
}

// Samples are picked by case seed, so a stride that shares factors with sample_every (shards)
// still sends back about one case in sample_every.
TEST(SparseExactHw, SamplesAreOneInNWhateverTheStride) {
  TCFUZZ_NEEDS_SM80();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  for (const uint64_t stride : {uint64_t{1}, uint64_t{64}, uint64_t{4096}}) {
    harness::SparseExactLaunch l;
    l.tables = tables;
    l.suite_key = 11;
    l.first = 1;
    l.stride = stride;
    l.count = 65536;
    l.sample_every = 64;
    const auto got = harness::RunSparseExact(l);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_TRUE(got.value().failed.empty());
    EXPECT_GT(got.value().kept.size(), 65536u / 64 / 2) << "stride " << stride;
    EXPECT_LT(got.value().kept.size(), 65536u / 64 * 2) << "stride " << stride;
    for (const harness::SparseExactCase& k : got.value().kept) {
      ASSERT_EQ((k.index - l.first) % stride, 0u);
      ASSERT_EQ(oracle::CaseSeedFromKey(l.suite_key, k.index) % l.sample_every, 0u) << k.index;
    }
  }
}

TEST(SparseExactHw, CampaignThroughTheEngineRunsClean) {
  TCFUZZ_NEEDS_SM80();
  for (const char* suite : {kSparseMmaExactSuite, kSparseMmaExactF16K32Suite}) {
    CampaignOptions o;
    o.suites = {suite};
    o.seed = test::Seed();
    o.cases = uint64_t{1} << 22;
    o.shard_index = 1, o.shard_count = 4;  // shares factors with the sample rate
    o.report_dir = test::TempDir(std::string("exact_") + suite);
    o.gpu = "require";
    o.worker = {TCFUZZ_BIN};
    std::ostringstream log;
    const int rc = RunCampaign(o, log);
    const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
    const auto& s = j["suites"][0];
    EXPECT_EQ(s["cases"], uint64_t{1} << 20) << log.str();
    EXPECT_EQ(s["failed"], 0) << log.str();
    EXPECT_EQ(rc, 0) << log.str();
    std::printf("%s", log.str().c_str());
  }
}

}  // namespace
}  // namespace tcfuzz::suites
