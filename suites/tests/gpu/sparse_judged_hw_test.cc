// The sparse-mma-judged kernel on a device: every case it draws and judges is the case the host
// rebuilds, and the device's D is the host oracle's (the general model); a wrong numerics row in
// the device model fails cases (so the device-side check can fail); the campaign through the
// engine runs clean. Skips visibly without an sm_80+ device.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/mma_sp_exec.h"
#include "harness/sparse_judged.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/judged_worker.h"
#include "suites/kinds/sparse_exact_device.h"
#include "suites/kinds/sparse_judged_device.h"
#include "suites/tests/support/judged_campaign.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

#define TCFUZZ_NEEDS_ROW()                                                                  \
  const harness::DeviceInfo info = harness::ProbeDevice();                                  \
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;                           \
  if (info.cc_major < 8) GTEST_SKIP() << "mma.sp needs sm_80, device is " << info.cc_major; \
  const auto params = FastMmaParams(GpuOf(info));                                           \
  if (!params) GTEST_SKIP() << "no numerics row for " << info.name

TEST(SparseJudgedHw, EveryCaseIsTheHostsCaseAndItsDIsTheOracles) {
  TCFUZZ_NEEDS_ROW();
  const uint64_t seed = test::Seed();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  harness::SparseJudgedLaunch l;
  l.tables = tables;
  l.f16 = params->first, l.bf16 = params->second;
  l.suite_key = gen::SuiteKey(seed, kSparseMmaJudgedSuite);
  l.first = 1000;
  l.count = 24000;
  l.sample_every = 1;  // every D comes back
  const auto got = harness::RunSparseJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_TRUE(got.value().failed.empty())
      << got.value().failed.size() << " cases failed the device-side check, first "
      << got.value().failed.front();
  ASSERT_EQ(got.value().kept.size(), l.count);
  std::set<uint64_t> seen;
  int bad = 0;
  for (const harness::JudgedCase& k : got.value().kept) {
    seen.insert(k.index);
    const oracle::sparse::SparseTile t = DrawSparseJudgedCase(seed, k.index).sparse.tile;
    const std::vector<uint32_t> want = oracle::sparse::Reference(
        t, *SparseParams(t, GpuOf(info)), oracle::sparse::SparseBlocking::kCompressed, true);
    const std::vector<uint32_t> d = harness::UnpackD(oracle::num::Format::kF32, k.d_regs, 0);
    if (want != d && ++bad <= 5)
      ADD_FAILURE() << "case " << k.index << " " << t.form->Name() << ": "
                    << MismatchDetail(want, d);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(seen.size(), l.count);
}

// The device model with a narrower alignment (F = 20 instead of the row's) disagrees with the
// hardware on the cases whose sums need the bits: the device-side check fails them.
TEST(SparseJudgedHw, AWrongRowFailsCases) {
  TCFUZZ_NEEDS_ROW();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  harness::SparseJudgedLaunch l;
  l.tables = tables;
  l.f16 = params->first, l.bf16 = params->second;
  l.f16.F = l.bf16.F = 20;
  l.suite_key = 7;
  l.count = 4800;
  const auto got = harness::RunSparseJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_GT(got.value().failed.size(), 100u);
  EXPECT_LE(got.value().kept.size(), l.keep_mismatches);
}

TEST(SparseJudgedHw, CampaignThroughTheEngineRunsClean) {
  TCFUZZ_NEEDS_ROW();
  test::ExpectJudgedCampaignClean(kSparseMmaJudgedSuite, uint64_t{1} << 22);
}

}  // namespace
}  // namespace tcfuzz::suites
