#include "suites/kinds/dense_mma_device.h"

#include <span>
#include <vector>

#include "harness/mma_dense.h"
#include "suites/engine/batched_worker.h"
#include "suites/engine/device_campaign.h"
#include "suites/kinds/dense_device_cases.h"

namespace tcfuzz::suites {
namespace {

// The dense-mma suite on one device (batched_worker.h's Suite).
struct DenseSuite {
  uint64_t seed = 0;
  harness::DeviceInfo device;
  oracle::num::Gpu gpu;
  bool from_file = false;  // a case file: judged with the row whatever its values

  gen::GeneratedDense Draw(uint64_t index) const { return DrawDenseMmaCase(seed, index); }

  std::string Unsupported(const gen::GeneratedDense& g) const {
    const int cc = device.cc_major * 10 + device.cc_minor;
    if (cc < 80) return "mma.sync m16n8 needs sm_80";
    if (g.tile.form->target == "sm_89" && cc < 89) return g.tile.form->Name() + " needs sm_89";
    const bool exact = gen::IsExact(g.mode);
    if (!from_file && !exact && oracle::num::IsFloat(g.tile.a_type) && !DenseParams(g.tile, gpu)) {
      return "no arithmetic model for " + g.tile.form->Name() + " with " +
             std::string(oracle::num::Name(g.tile.cd)) + " on " +
             std::string(oracle::num::Name(gpu));
    }
    return {};
  }

  static harness::MmaDenseSpec SpecOf(const gen::GeneratedDense& g) {
    return {g.tile.form, g.tile.a_type, g.tile.b_type, g.tile.cd, g.tile.satfinite};
  }

  std::string Key(const gen::GeneratedDense& g) const {
    return harness::MmaDenseInstruction(SpecOf(g));
  }
  std::string Family(const gen::GeneratedDense& g) const { return DenseFamily(g.tile); }

  oracle::Result<std::vector<std::vector<uint32_t>>> Run(
      std::span<const gen::GeneratedDense* const> cases) const {
    std::vector<oracle::mma::DenseTile> tiles;
    for (const auto* g : cases) tiles.push_back(g->tile);
    return harness::RunMmaDense(SpecOf(*cases.front()), tiles);
  }

  std::string Judge(uint64_t index, const gen::GeneratedDense& g, const std::vector<uint32_t>& got,
                    std::vector<ProbeResult>& probes) const {
    const auto want = oracle::mma::DenseReference(
        g.tile, DenseParams(g.tile, gpu).value_or(oracle::num::ExactParams(g.tile.cd)));
    ProbeZeroAndC(want, g.tile.c, probes);
    const std::string what = MismatchDetail(want, got);
    return what.empty() ? std::string()
                        : CaseLine(index, CaseOutcome::kMismatch, what + ObservedField(got));
  }
};

}  // namespace

int RunDenseMmaWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<uint64_t> indices = ShardIndices(a);
  const auto d = DeviceOrSkip(indices.size(), out);
  if (!d) return 0;
  return RunBatchedCases<gen::GeneratedDense>(a, indices, a.cases_per_launch,
                                              DenseSuite{a.seed, *d, GpuOf(*d)}, out);
}

int RunDenseCaseWorker(const oracle::mma::DenseTile& t, std::ostream& out) {
  const auto d = DeviceOrSkip(1, out);
  if (!d) return 0;
  gen::GeneratedDense g;
  g.tile = t;
  return RunOneCase(g, DenseSuite{0, *d, GpuOf(*d), true}, out);
}

}  // namespace tcfuzz::suites
