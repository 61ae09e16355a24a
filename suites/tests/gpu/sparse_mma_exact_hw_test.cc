// The sparse-mma-exact kernel on a device: every case it draws and checks itself is the case the
// host rebuilds, and the device's D is the oracle's; a corrupted table makes the device-side check
// fail cases (so it can fail); the campaign through the engine runs clean. Skips visibly without
// an sm_80+ device.
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "harness/backend.h"
#include "harness/judged_suites.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/sparse/device_drawn_sparse.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(SparseExactHw, EveryCaseIsTheHostsCaseAndItsDIsTheOracles) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaExactSuite);
  const uint64_t seed = test::Seed();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  harness::SparseExactLaunch l;
  l.tables = tables;
  test::ExpectEveryCaseIsTheHosts(
      l, gen::SuiteKey(seed, kSparseMmaExactSuite), 24000, [&](const harness::JudgedCase& k) {
        const gen::GeneratedSparse g = DrawSparseExactCase(kSparseMmaExactSuite, seed, k.index);
        const auto params =
            SparseParams(g.tile, GpuOf(info)).value_or(oracle::num::ExactParams(g.tile.cd));
        return test::HostView{oracle::sparse::Reference(g.tile, params),
                              harness::UnpackD(oracle::num::Format::kF32, k.d_regs, 0),
                              g.op.form->Name()};
      });
}

TEST(SparseExactHw, ACorruptedMetadataTableFailsThoseCases) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaExactSuite);
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
  const auto got = harness::RunJudged(l);
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

// A case picks its table modulo their count: a launch with cases and no table is refused, on the
// GPU and on a host backend alike, rather than dividing by zero.
TEST(SparseExactHw, ALaunchWithCasesAndNoTableIsRefused) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaExactSuite);
  harness::SparseExactLaunch l;
  l.count = 32;
  const auto got = harness::RunJudged(l);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("no tables"), std::string::npos) << got.error();
}

// Samples are picked by case seed, so a stride that shares factors with sample_every (shards)
// still sends back about one case in sample_every.
TEST(SparseExactHw, SamplesAreOneInNWhateverTheStride) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaExactSuite);
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  // A host backend (the emulated run) takes about 30 us a case: 8,192 still expect 128 samples.
  const uint64_t count = harness::BackendIsCuda() ? 65536 : 8192;
  for (const uint64_t stride : {uint64_t{1}, uint64_t{64}, uint64_t{4096}}) {
    harness::SparseExactLaunch l;
    l.tables = tables;
    l.suite_key = 11;
    l.first = 1;
    l.stride = stride;
    l.count = count;
    l.sample_every = 64;
    const auto got = harness::RunJudged(l);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_TRUE(got.value().failed.empty());
    EXPECT_GT(got.value().kept.size(), count / 64 / 2) << "stride " << stride;
    EXPECT_LT(got.value().kept.size(), count / 64 * 2) << "stride " << stride;
    for (const harness::JudgedCase& k : got.value().kept) {
      ASSERT_EQ((k.index - l.first) % stride, 0u);
      ASSERT_EQ(oracle::CaseSeedFromKey(l.suite_key, k.index) % l.sample_every, 0u) << k.index;
    }
  }
}

}  // namespace
}  // namespace tcfuzz::suites
