#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "generators/core/random_source.h"
#include "oracle/core/counter_hash.h"
#include "oracle/numerics/fast_dot.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/device_drawn_tile.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_judged.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

using oracle::num::Format;

const std::vector<oracle::tile::DescriptorTile>& WgmmaJudgedLayoutTiles(uint64_t seed) {
  return PlaceableLayouts(seed, kSmemHwJudgedSuite, kWgmmaJudgedLayouts, [](gen::Source& s) {
    const Format type = s.Coin() ? Format::kBF16 : Format::kF16;
    const int n = harness::kWgmmaJudgedNs[s.Below(std::size(harness::kWgmmaJudgedNs))];
    return gen::DrawWgmmaLayout(s, type, n);
  });
}

std::vector<harness::WgmmaJudgedLayout> WgmmaJudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts) {
  std::vector<harness::WgmmaJudgedLayout> table;
  for (const oracle::tile::DescriptorTile& t : layouts) {
    table.push_back(TileLayoutOf<harness::WgmmaJudgedLayout>(t));
  }
  return table;
}

gen::GeneratedTile DrawSmemHwJudgedCase(uint64_t seed, uint64_t index) {
  return DrawJudgedTile(seed, kSmemHwJudgedSuite, WgmmaJudgedLayoutTiles(seed), index);
}

std::string WgmmaJudgedUnsupported(const harness::DeviceInfo& d) {
  if (d.cc_major != 9 || d.cc_minor != 0) return "wgmma needs sm_90a";
  return JudgedKernelUnsupported<harness::WgmmaJudgedLaunch>(d, oracle::num::Instr::kWgmma);
}

harness::WgmmaJudgedLaunch WgmmaJudgedLaunchFor(std::span<const harness::WgmmaJudgedLayout> table,
                                                oracle::num::Gpu gpu) {
  return TileJudgedLaunchFor<harness::WgmmaJudgedLaunch>(table, gpu, oracle::num::Instr::kWgmma);
}

int RunWgmmaJudgedWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<harness::WgmmaJudgedLayout> table =
      WgmmaJudgedTable(WgmmaJudgedLayoutTiles(a.seed));
  JudgedSuiteHalf half;
  half.unsupported = WgmmaJudgedUnsupported;
  half.launch = JudgedLaunches<harness::WgmmaJudgedLaunch>(
      [&table](oracle::num::Gpu gpu) { return WgmmaJudgedLaunchFor(table, gpu); });
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                   oracle::num::Gpu) {
    const gen::GeneratedTile g = DrawSmemHwJudgedCase(a.seed, index);
    return JudgeKeptTile(index, g.tile, harness::WgmmaJudgedD(d_regs, g.tile.n), device_failed);
  };
  half.sample_every = kJudgedSampleEvery;
  SetTileFamilies(half, WgmmaJudgedLayoutTiles(a.seed), a.seed, kSmemHwJudgedSuite);
  return RunJudgedWorker(a, out, half);
}

}  // namespace tcfuzz::suites
