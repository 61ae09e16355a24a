// The sparse-mma-judged kernel on a device: every case it draws and judges is the case the host
// rebuilds, and the device's D is the host oracle's (the general model); a wrong numerics row in
// the device model fails cases (so the device-side check can fail); the campaign through the
// engine runs clean. Skips visibly without an sm_80+ device.
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "harness/sparse_mma_exec.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(SparseJudgedHw, EveryCaseIsTheHostsCaseAndItsDIsTheOracles) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaJudgedSuite);
  const uint64_t seed = test::Seed();
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  test::ExpectEveryCaseIsTheHosts(
      SparseJudgedLaunchFor(tables, GpuOf(info)), gen::SuiteKey(seed, kSparseMmaJudgedSuite), 24000,
      [&](const harness::JudgedCase& k) {
        const oracle::sparse::SparseTile t = DrawSparseJudgedCase(seed, k.index).sparse.tile;
        return test::HostView{
            oracle::sparse::Reference(t, *SparseParams(t, GpuOf(info)),
                                      oracle::sparse::SparseBlocking::kCompressed, true),
            harness::UnpackD(oracle::num::Format::kF32, k.d_regs, 0), t.form->Name()};
      });
}

TEST(SparseJudgedHw, AWrongRowFailsCases) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kSparseMmaJudgedSuite);
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  test::ExpectAWrongRowFails(SparseJudgedLaunchFor(tables, GpuOf(info)), 4800);
}

}  // namespace
}  // namespace tcfuzz::suites
