#include "suites/kinds/sparse_mma_device.h"

#include <algorithm>
#include <cstdlib>
#include <span>
#include <vector>

#include "harness/device.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/batched_worker.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

using namespace oracle::sparse;
using oracle::num::Format;

namespace {

// `op` with every defined metadata nibble moved to the next defined one (still legal, read
// differently): the first warp of a replayed case's launch. ROCm rocm-libraries issue 11113 read
// every wave's metadata from wave 0; a case alone in its launch is wave 0 and could not show it.
SparseOp Decoy(SparseOp op) {
  const std::span<const uint8_t> defined = DefinedNibbles(*op.form, op.variant);
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < op.form->chunks_per_row(); ++chunk) {
      const auto at = std::find(defined.begin(), defined.end(), NibbleOf(op, row, chunk));
      if (at != defined.end() && defined.size() > 1)
        SetNibble(op, row, chunk,
                  defined[static_cast<std::size_t>(at - defined.begin() + 1) % defined.size()]);
    }
  }
  return op;
}

// The sparse-mma suite on one device (batched_worker.h's Suite).
struct SparseSuite {
  const WorkerArgs* args;
  harness::DeviceInfo device;
  oracle::num::Gpu gpu;
  bool from_file = false;  // a case file: judged with the row whatever its values
  bool plant_wrong_d =
      false;  // test-only: flip bit 0 of D[0][0] after the run (the minimizer's GPU test)

  gen::GeneratedSparse Draw(uint64_t index) const { return DrawSparseMmaCase(args->seed, index); }

  std::string Unsupported(const gen::GeneratedSparse& g) const {
    const int cc = device.cc_major * 10 + device.cc_minor;
    const std::string_view target = g.op.form->target;
    if (target == "sm_120a" && cc / 10 != 12) return g.op.form->Name() + " needs sm_120a";
    if (target == "sm_89" && cc < 89) return g.op.form->Name() + " needs sm_89";
    if (cc < 80) return "mma.sp needs sm_80";
    const bool layout = gen::IsExact(g.mode);
    // Integer forms are exact whatever the row; floats need the GPU's row of the numerics model.
    if (!from_file && !layout && oracle::num::IsFloat(g.tile.a_type) &&
        !SparseParams(g.tile, gpu)) {
      return "no arithmetic model for " + g.op.form->Name() + " on " +
             std::string(oracle::num::Name(gpu));
    }
    return {};
  }

  std::string Key(const gen::GeneratedSparse& g) const {
    return harness::MmaSpInstruction(SpecOf(g));
  }
  std::string Family(const gen::GeneratedSparse& g) const { return SparseFamily(g); }

  oracle::Result<std::vector<std::vector<uint32_t>>> Run(
      std::span<const gen::GeneratedSparse* const> cases) const {
    std::vector<harness::MmaSpCase> batch;
    // A case file runs as the second warp of its launch, after a decoy whose metadata differs
    // (Decoy): a defect that reads another warp's metadata fails its replay as it failed its
    // campaign's launch.
    const bool decoy = from_file && cases.size() == 1 && Validate(cases.front()->op).legal();
    if (decoy) batch.push_back({Decoy(cases.front()->op), cases.front()->tile});
    for (const auto* g : cases) batch.push_back({g->op, g->tile});
    auto d = harness::RunMmaSp(SpecOf(*cases.front()), batch);
    if (d.ok() && decoy) {
      std::vector<std::vector<uint32_t>> mine(1, std::move(d.value()[1]));
      d = oracle::Result<std::vector<std::vector<uint32_t>>>::Ok(std::move(mine));
    }
    if (!d.ok() || !plant_wrong_d) return d;
    std::vector<std::vector<uint32_t>> planted = d.value();
    for (auto& one : planted) one[0] ^= 1u;
    return oracle::Result<std::vector<std::vector<uint32_t>>>::Ok(std::move(planted));
  }

  std::string Judge(uint64_t index, const gen::GeneratedSparse& g, const std::vector<uint32_t>& got,
                    std::vector<ProbeResult>& probes) const {
    const std::vector<uint32_t> want =
        Reference(g.tile, SparseParams(g.tile, gpu).value_or(oracle::num::ExactParams(g.tile.cd)));
    ProbeZeroAndC(want, g.tile.c, probes);
    const std::string what = MismatchDetail(want, got);
    return what.empty() ? std::string()
                        : CaseLine(index, CaseOutcome::kMismatch, what + ObservedField(got));
  }

  static harness::MmaSpSpec SpecOf(const gen::GeneratedSparse& g) {
    return {g.op.form,     g.op.variant, g.op.selector,   g.tile.a_type,
            g.tile.b_type, g.tile.cd,    g.tile.satfinite};
  }
};

}  // namespace

int RunSparseMmaWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<uint64_t> indices = ShardIndices(a);
  const auto d = DeviceOrSkip(indices.size(), out);
  if (!d) return 0;
  return RunBatchedCases<gen::GeneratedSparse>(a, indices, a.cases_per_launch,
                                               SparseSuite{&a, *d, GpuOf(*d)}, out);
}

int RunSparseCaseWorker(const SparseCaseFile& k, std::ostream& out) {
  const auto d = DeviceOrSkip(1, out);
  if (!d) return 0;
  gen::GeneratedSparse g;
  g.op = k.op;
  g.tile = k.tile;
  const WorkerArgs none;
  return RunOneCase(
      g,
      SparseSuite{&none, *d, GpuOf(*d), true, std::getenv("TCFUZZ_TEST_PLANT_WRONG_D") != nullptr},
      out);
}

}  // namespace tcfuzz::suites
