#include "suites/kinds/descriptor_tile_device.h"

#include <algorithm>
#include <span>
#include <vector>

#include "harness/backend.h"
#include "harness/device.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "suites/engine/batched_worker.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_cases.h"

namespace tcfuzz::suites {
namespace {

using oracle::tile::DescriptorTile;
using Outputs = oracle::Result<std::vector<std::vector<uint32_t>>>;

// Why this device cannot run the suite's tiles; empty when it can.
std::string DeviceUnsupported(bool tcgen05, const harness::DeviceInfo& d) {
  if (tcgen05)
    return d.cc_major == 10 ? ""
                            : "tcgen05 needs compute capability 10.x (sm_100a); this is " + d.name;
  return d.cc_major == 9 && d.cc_minor == 0 ? "" : "wgmma needs sm_90a; this is " + d.name;
}

std::string_view InstructionFamily(bool tcgen05) { return tcgen05 ? "tcgen05" : "wgmma"; }

// Tiles share a launch when they share the instruction.
std::string GroupKey(bool tcgen05, const DescriptorTile& t) {
  return tcgen05 ? harness::Tcgen05BatchKey(harness::Tcgen05SpecOf(t))
                 : harness::WgmmaInstruction(harness::SpecOf(t));
}

// The smem-hw or tcgen05 suite on one device (batched_worker.h's Suite).
struct TileSuite {
  uint64_t seed = 0;
  bool tcgen05 = false;
  harness::DeviceInfo device;

  DescriptorTile Draw(uint64_t index) const {
    return (tcgen05 ? DrawTcgen05Case(seed, index) : DrawSmemHwCase(seed, index)).tile;
  }
  std::string Unsupported(const DescriptorTile&) const {
    return DeviceUnsupported(tcgen05, device);
  }
  std::string Key(const DescriptorTile& t) const { return GroupKey(tcgen05, t); }
  std::string Family(const DescriptorTile& t) const { return TileFamily(t); }

  Outputs Run(std::span<const DescriptorTile* const> tiles) const {
    if (tcgen05) return harness::RunTcgen05(harness::Tcgen05SpecOf(*tiles.front()), tiles);
    return harness::RunWgmma(harness::SpecOf(*tiles.front()), tiles);
  }

  // A broken descriptor's D is recorded, not judged.
  std::string Judge(uint64_t index, const DescriptorTile& t, const std::vector<uint32_t>& got,
                    std::vector<ProbeResult>& probes) const {
    if (!BrokenRules(t).empty())
      return CaseLine(index, CaseOutcome::kUndefinedBySpec,
                      UndefinedDetail(t, got) + ObservedField(got));
    const auto want = oracle::tile::TileReference(t);
    if (!want.ok()) return CaseLine(index, CaseOutcome::kHarnessError, "oracle: " + want.error());
    ProbeZeroAndC(want.value(), t.c, probes);
    const std::string what = MismatchDetail(want.value(), got, static_cast<std::size_t>(t.n));
    return what.empty() ? std::string()
                        : CaseLine(index, CaseOutcome::kMismatch, what + ObservedField(got));
  }
};

}  // namespace

int RunDescriptorTileWorker(const WorkerArgs& a, bool tcgen05, std::ostream& out) {
  const std::vector<uint64_t> indices = ShardIndices(a);
  const auto d = DeviceOrSkip(indices.size(), out, SmemMmaHostLacks(), InstructionFamily(tcgen05));
  if (!d) return 0;
  if (const std::string why = DeviceUnsupported(tcgen05, *d);
      !why.empty()) {  // before drawing 64 KiB per case
    out << "unsupported " << indices.size() << " " << why << "\nran " << indices.size()
        << "\ndone\n";
    return 0;
  }
  // Each tile is a 64 KiB image on the device: 4,096 of them are 256 MiB a launch.
  const std::size_t per_launch = std::min<std::size_t>(a.cases_per_launch, 4096);
  return RunBatchedCases<DescriptorTile>(a, indices, per_launch, TileSuite{a.seed, tcgen05, *d},
                                         out);
}

int RunDescriptorTileCaseWorker(const DescriptorTile& t, std::ostream& out) {
  const bool tcgen05 = t.a.arch != oracle::smem::Arch::kSm90a;
  const auto d = DeviceOrSkip(1, out, SmemMmaHostLacks(), InstructionFamily(tcgen05));
  if (!d) return 0;
  return RunOneCase(t, TileSuite{0, tcgen05, *d}, out);
}

}  // namespace tcfuzz::suites
