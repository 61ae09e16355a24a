#include "suites/campaigns/wgmma_tile_device.h"

#include <algorithm>
#include <map>
#include <span>
#include <thread>
#include <vector>

#include "harness/device.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "suites/campaigns/parallel_for.h"
#include "suites/campaigns/wgmma_device_cases.h"
#include "suites/runner/worker_protocol.h"

namespace tcfuzz::suites {
namespace {

using oracle::wgmma::WgmmaTile;
using Outputs = oracle::Result<std::vector<std::vector<uint32_t>>>;

// Each tile is a 64 KiB image on the device: 4,096 of them are 256 MiB a launch.
constexpr std::size_t kTilesPerLaunch = 4096;

// Why this device cannot run the suite's tiles; empty when it can.
std::string Unsupported(bool tcgen05, const harness::DeviceInfo& d) {
  if (tcgen05) return d.cc_major == 10 ? "" : "tcgen05 needs compute capability 10.x (sm_100a); this is " + d.name;
  return d.cc_major == 9 && d.cc_minor == 0 ? "" : "wgmma needs sm_90a; this is " + d.name;
}

harness::Tcgen05Spec Tcgen05SpecOf(const WgmmaTile& t) {
  return {t.ab, t.b_type, t.d, t.n, t.zero_column_mask.has_value(), static_cast<int>(t.image.size())};
}

// Tiles share a launch when they share the instruction.
std::string GroupKey(bool tcgen05, const WgmmaTile& t) {
  return tcgen05 ? harness::Tcgen05Instruction(Tcgen05SpecOf(t)) : harness::WgmmaInstruction(harness::SpecOf(t));
}

Outputs Run(bool tcgen05, std::span<const WgmmaTile> tiles) {
  if (tcgen05) return harness::RunTcgen05(Tcgen05SpecOf(tiles.front()), tiles);
  return harness::RunWgmma(harness::SpecOf(tiles.front()), tiles);
}

// The protocol line of one tile given the device's D; empty when it passes.
std::string Judge(uint64_t index, const WgmmaTile& t, const std::vector<uint32_t>& got) {
  if (!BrokenRules(t).empty()) return CaseLine(index, CaseOutcome::kUndefinedBySpec, UndefinedDetail(t, got) + ObservedField(got));
  const auto want = oracle::wgmma::WgmmaReference(t);
  if (!want.ok()) return CaseLine(index, CaseOutcome::kHarnessError, "oracle: " + want.error());
  const std::string what = MismatchDetail(want.value(), got, static_cast<std::size_t>(t.n));
  return what.empty() ? std::string() : CaseLine(index, CaseOutcome::kMismatch, what + ObservedField(got));
}

bool IsJitError(const std::string& e) { return e.rfind("PTX JIT failed", 0) == 0; }  // not sticky

}  // namespace

int RunWgmmaTileWorker(const WorkerArgs& a, bool tcgen05, std::ostream& out) {
  const std::vector<uint64_t> indices = ShardIndices(a);
  const harness::DeviceInfo d = harness::ProbeDevice();
  const std::string why = d.available ? Unsupported(tcgen05, d) : "no GPU: " + d.reason;
  if (!why.empty()) {
    out << "unsupported " << indices.size() << " " << why << "\nran " << indices.size() << "\ndone\n";
    return 0;
  }
  if (const auto planted = RunPlantedFaults(a, indices, out)) return *planted;
  const unsigned threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<WgmmaTile> drawn(indices.size());
  ParallelFor(indices.size(), threads, [&](std::size_t j) {
    drawn[j] = (tcgen05 ? DrawTcgen05Case(a.seed, indices[j]) : DrawSmemHwCase(a.seed, indices[j])).tile;
  });
  std::map<std::string, std::vector<std::size_t>> groups;  // positions in `indices`, in order
  for (std::size_t j = 0; j < indices.size(); ++j) groups[GroupKey(tcgen05, drawn[j])].push_back(j);
  std::vector<std::string> lines(indices.size());
  const std::size_t per_launch = std::clamp<std::size_t>(a.cases_per_launch, 1, kTilesPerLaunch);
  for (const auto& group : groups) {
    const std::vector<std::size_t>& members = group.second;
    for (std::size_t at = 0; at < members.size(); at += per_launch) {
      const std::size_t n = std::min(per_launch, members.size() - at);
      std::vector<WgmmaTile> batch;
      for (std::size_t m = at; m < at + n; ++m) batch.push_back(drawn[members[m]]);
      const Outputs got = Run(tcgen05, batch);
      if (!got.ok()) {
        if (!IsJitError(got.error())) {
          out << "fault " << got.error() << "\n" << std::flush;  // the context is gone: stop here
          return kWorkerFaultExit;
        }
        for (std::size_t m = at; m < at + n; ++m) {
          lines[members[m]] = CaseLine(indices[members[m]], CaseOutcome::kHarnessError, got.error().substr(0, 300));
        }
        continue;
      }
      ParallelFor(n, threads, [&](std::size_t m) {
        const std::size_t j = members[at + m];
        lines[j] = Judge(indices[j], drawn[j], got.value()[m]);
      });
    }
  }
  for (const std::string& line : lines) {
    if (!line.empty()) out << line << "\n";
  }
  out << "ran " << indices.size() << "\ndone\n";
  return 0;
}

int RunWgmmaTileFileWorker(const std::string& path, std::ostream& out) {
  const auto f = ReadWgmmaTileCase(path);
  if (!f.ok()) return CaseFileError(f.error(), out);
  const WgmmaTile& t = f.value().tile;
  const bool tcgen05 = t.a.arch != oracle::smem::Arch::kSm90a;
  const harness::DeviceInfo d = harness::ProbeDevice();
  const std::string why = d.available ? Unsupported(tcgen05, d) : "no GPU: " + d.reason;
  if (!why.empty()) {
    out << "unsupported 1 " << why << "\nran 1\ndone\n";
    return 0;
  }
  const Outputs got = Run(tcgen05, std::span<const WgmmaTile>(&t, 1));
  if (!got.ok()) {
    if (IsJitError(got.error())) return CaseFileError(got.error().substr(0, 300), out);
    out << "fault " << got.error() << "\n" << std::flush;
    return kWorkerFaultExit;
  }
  const std::string line = Judge(0, t, got.value()[0]);
  out << (line.empty() ? CaseLine(0, CaseOutcome::kPass, ObservedField(got.value()[0]).substr(1)) : line) << "\nran 1\ndone\n";
  return 0;
}

}  // namespace tcfuzz::suites
