#include <span>
#include <string>
#include <vector>

#include "generators/core/random_source.h"
#include "harness/sparse_mma_exec.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

gen::DeviceDrawnSparseFloat DrawSparseJudgedCase(uint64_t seed, uint64_t index) {
  return gen::DrawDeviceDrawnFloat(gen::CaseSeed(seed, kSparseMmaJudgedSuite, index));
}

std::string SparseJudgedUnsupported(const harness::DeviceInfo& d) {
  if (d.cc_major < 8) return "mma.sp needs sm_80";
  return JudgedKernelUnsupported<harness::SparseJudgedLaunch>(d, oracle::num::Instr::kMma);
}

harness::SparseJudgedLaunch SparseJudgedLaunchFor(std::span<const harness::SparseExactTable> tables,
                                                  oracle::num::Gpu gpu) {
  harness::SparseJudgedLaunch l;
  l.tables = tables;
  const auto params = FastMmaParams(gpu);  // present: the support predicate said so
  l.f16 = params->first;
  l.bf16 = params->second;
  return l;
}

int RunSparseJudgedWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  JudgedSuiteHalf half;
  half.unsupported = SparseJudgedUnsupported;
  half.launch = JudgedLaunches<harness::SparseJudgedLaunch>(
      [&tables](oracle::num::Gpu gpu) { return SparseJudgedLaunchFor(tables, gpu); });
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                   oracle::num::Gpu gpu) {
    const oracle::sparse::SparseTile t = DrawSparseJudgedCase(a.seed, index).sparse.tile;
    // The general model: the host's judge shares no arithmetic code with the device's.
    const std::vector<uint32_t> want = oracle::sparse::Reference(
        t, *SparseParams(t, gpu), oracle::sparse::SparseBlocking::kCompressed,
        /*general_only=*/true);
    return JudgeKept(index, want, harness::UnpackD(oracle::num::Format::kF32, d_regs, 0),
                     device_failed);
  };
  half.sample_every = kJudgedSampleEvery;
  SetSparseFamilies(half, gen::DrawnVariants(), a.seed, kSparseMmaJudgedSuite);
  return RunJudgedWorker(a, out, half);
}

}  // namespace tcfuzz::suites
