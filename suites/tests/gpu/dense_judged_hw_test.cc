// The dense-mma-judged kernel on a device: every case it draws and judges is the case the host
// rebuilds, and the device's D is the host oracle's; a wrong numerics row in the device model
// fails cases (so the device-side check can fail); the campaign through the engine runs clean.
// Skips visibly without an sm_80+ device.
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "harness/sparse_mma_exec.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/judged_device.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(DenseJudgedHw, EveryCaseIsTheHostsCaseAndItsDIsTheOracles) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kDenseMmaJudgedSuite);
  const uint64_t seed = test::Seed();
  const harness::DenseJudgedTable table = DenseJudgedTableOf();
  test::ExpectEveryCaseIsTheHosts(
      DenseJudgedLaunchFor(table, GpuOf(info)), gen::SuiteKey(seed, kDenseMmaJudgedSuite), 24000,
      [&](const harness::JudgedCase& k) {
        const oracle::mma::DenseTile t = DrawDenseJudgedCase(seed, k.index).dense.tile;
        return test::HostView{oracle::mma::DenseReference(t, *DenseParams(t, GpuOf(info))),
                              harness::UnpackD(oracle::num::Format::kF32, k.d_regs, 0),
                              t.form->Name()};
      });
}

TEST(DenseJudgedHw, AWrongRowFailsCases) {
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(kDenseMmaJudgedSuite);
  const harness::DenseJudgedTable table = DenseJudgedTableOf();
  test::ExpectAWrongRowFails(DenseJudgedLaunchFor(table, GpuOf(info)), 4800);
}

}  // namespace
}  // namespace tcfuzz::suites
