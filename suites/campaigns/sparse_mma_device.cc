#include "suites/campaigns/sparse_mma_device.h"

#include <map>
#include <thread>
#include <tuple>
#include <vector>

#include "harness/device.h"
#include "harness/mma_sp_exec.h"
#include "suites/campaigns/device_campaign.h"
#include "suites/campaigns/parallel_for.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/runner/worker_protocol.h"

namespace tcfuzz::suites {

using namespace oracle::sparse;
using oracle::num::Format;

namespace {

oracle::num::Gpu GpuOf(const harness::DeviceInfo& d) { return *oracle::num::ParseGpu(GpuRowName(d.cc_major, d.cc_minor)); }

// Why the device cannot run (or the oracle cannot judge) a case; empty when it can.
std::string Unsupported(const gen::GeneratedSparse& g, const harness::DeviceInfo& d, const oracle::num::Gpu gpu) {
  const int cc = d.cc_major * 10 + d.cc_minor;
  const std::string_view target = g.op.form->target;
  if (target == "sm_120a" && cc / 10 != 12) return g.op.form->Name() + " needs sm_120a";
  if (target == "sm_89" && cc < 89) return g.op.form->Name() + " needs sm_89";
  if (cc < 80) return "mma.sp needs sm_80";
  const bool layout = g.mode == gen::ValueMode::kSmallInt || g.mode == gen::ValueMode::kProbe;
  // Integer forms are exact whatever the row; floats need the GPU's row of the numerics model.
  if (!layout && oracle::num::IsFloat(g.tile.a_type) && !SparseParams(g.tile, gpu)) {
    return "no arithmetic model for " + g.op.form->Name() + " on " + std::string(oracle::num::Name(gpu));
  }
  return {};
}

}  // namespace

int RunSparseMmaWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<uint64_t> indices = ShardIndices(a);
  const harness::DeviceInfo d = harness::ProbeDevice();
  if (!d.available) {
    out << "unsupported " << indices.size() << " no GPU: " << d.reason << "\nran " << indices.size() << "\ndone\n";
    return 0;
  }
  if (const auto planted = RunPlantedFaults(a, indices, out)) return *planted;
  const oracle::num::Gpu gpu = GpuOf(d);
  const unsigned threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  // Generation is per index and independent: in parallel, then grouped by instruction form
  // (one batched launch per group) in index order.
  std::vector<gen::GeneratedSparse> drawn(indices.size());
  std::vector<std::string> why(indices.size());
  ParallelFor(indices.size(), threads, [&](std::size_t j) {
    drawn[j] = DrawSparseMmaCase(a.seed, indices[j]);
    why[j] = Unsupported(drawn[j], d, gpu);
  });
  std::map<std::string, uint64_t> unsupported;
  using Key = std::tuple<std::string, int, int, int, int, int, bool>;
  std::map<Key, std::vector<std::size_t>> groups;  // positions in `indices`
  for (std::size_t j = 0; j < indices.size(); ++j) {
    if (!why[j].empty()) {
      ++unsupported[why[j]];
      continue;
    }
    const gen::GeneratedSparse& g = drawn[j];
    const Key k{g.op.form->Name(), static_cast<int>(g.op.variant), g.op.selector, static_cast<int>(g.tile.a_type),
                static_cast<int>(g.tile.b_type), static_cast<int>(g.tile.cd), g.tile.satfinite};
    groups[k].push_back(j);
  }
  std::vector<std::string> lines(indices.size());  // per case: its protocol line, if it did not pass
  const std::size_t per_launch = std::max<std::size_t>(1, a.cases_per_launch);
  for (const auto& group : groups) {
    const std::vector<std::size_t>& members = group.second;  // a plain name: lambdas capture it
    const gen::GeneratedSparse& first = drawn[members.front()];
    const harness::MmaSpSpec spec{first.op.form, first.op.variant, first.op.selector, first.tile.a_type,
                                  first.tile.b_type, first.tile.cd, first.tile.satfinite};
    for (std::size_t at = 0; at < members.size(); at += per_launch) {
      const std::size_t n = std::min(per_launch, members.size() - at);
      std::vector<harness::MmaSpCase> batch;
      for (std::size_t m = at; m < at + n; ++m) batch.push_back({drawn[members[m]].op, drawn[members[m]].tile});
      const auto d_out = harness::RunMmaSp(spec, batch);
      if (!d_out.ok()) {
        if (d_out.error().rfind("PTX JIT failed", 0) == 0) {  // our PTX or the assembler: not sticky
          for (std::size_t m = at; m < at + n; ++m) {
            lines[members[m]] = CaseLine(indices[members[m]], CaseOutcome::kHarnessError, d_out.error().substr(0, 300));
          }
          continue;
        }
        out << "fault " << d_out.error() << "\n" << std::flush;  // the context is gone: stop here
        return kWorkerFaultExit;
      }
      ParallelFor(n, threads, [&](std::size_t m) {
        const std::size_t j = members[at + m];
        const gen::GeneratedSparse& g = drawn[j];
        const auto params = SparseParams(g.tile, gpu).value_or(oracle::num::DotParams{});
        const std::vector<uint32_t> want = Reference(g.tile, params);
        const std::vector<uint32_t>& got = d_out.value()[m];
        if (const std::string what = MismatchDetail(want, got); !what.empty()) {
          lines[j] = CaseLine(indices[j], CaseOutcome::kMismatch, what + ObservedField(got));
        }
      });
    }
  }
  for (const std::string& line : lines) {
    if (!line.empty()) out << line << "\n";
  }
  for (const auto& [reason, n] : unsupported) out << "unsupported " << n << " " << reason << "\n";
  out << "ran " << indices.size() << "\ndone\n";
  return 0;
}

int RunSparseCaseFileWorker(const std::string& path, std::ostream& out) {
  const auto k = ReadSparseCase(path);
  if (!k.ok()) return CaseFileError(k.error(), out);
  const harness::DeviceInfo d = harness::ProbeDevice();
  if (!d.available) {
    out << "unsupported 1 no GPU: " << d.reason << "\nran 1\ndone\n";
    return 0;
  }
  const SparseCaseFile& c = k.value().c;
  const harness::MmaSpSpec spec{c.op.form, c.op.variant, c.op.selector, c.tile.a_type,
                                c.tile.b_type, c.tile.cd, c.tile.satfinite};
  const auto got = harness::RunMmaSp(spec, std::vector<harness::MmaSpCase>{{c.op, c.tile}});
  if (!got.ok()) {
    if (got.error().rfind("PTX JIT failed", 0) == 0) {
      out << CaseLine(0, CaseOutcome::kHarnessError, got.error().substr(0, 300)) << "\nran 1\ndone\n";
      return 0;
    }
    out << "fault " << got.error() << "\n" << std::flush;
    return kWorkerFaultExit;
  }
  const auto params = SparseParams(c.tile, GpuOf(d)).value_or(oracle::num::DotParams{});
  const std::vector<uint32_t> want = Reference(c.tile, params);
  const std::vector<uint32_t>& d_out = got.value()[0];
  if (const std::string what = MismatchDetail(want, d_out); !what.empty()) {
    out << CaseLine(0, CaseOutcome::kMismatch, what + ObservedField(d_out)) << "\n";
  } else {
    out << CaseLine(0, CaseOutcome::kPass, ObservedField(d_out).substr(1)) << "\n";
  }
  out << "ran 1\ndone\n";
  return 0;
}

}  // namespace tcfuzz::suites
