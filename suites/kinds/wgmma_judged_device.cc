#include "suites/kinds/wgmma_judged_device.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "generators/core/random_source.h"
#include "harness/wgmma_judged.h"
#include "oracle/core/counter_hash.h"
#include "oracle/numerics/fast_dot.h"
#include "oracle/smem/smem_case.h"
#include "oracle/wgmma/device_drawn_tile.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

using oracle::num::Format;

// Every element of A and B inside the image and no two (of either) sharing a byte: the kernel
// places each element once and reads nothing it did not place (the generators' last fallback
// does not check this itself).
bool Placeable(const oracle::wgmma::WgmmaTile& t) {
  std::vector<uint64_t> bytes;
  for (const oracle::smem::SmemCase* c : {&t.a, &t.b}) {
    const auto map = oracle::smem::Map(*c);
    if (!map.ok()) return false;
    for (const uint64_t bit : map.value().bits) {
      if (bit / 8 + 2 > static_cast<uint64_t>(gen::kWgmmaImageBytes)) return false;
      bytes.push_back(bit / 8);
    }
  }
  std::sort(bytes.begin(), bytes.end());
  return std::adjacent_find(bytes.begin(), bytes.end()) == bytes.end();
}

namespace {

std::vector<oracle::wgmma::WgmmaTile> DrawPlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::wgmma::WgmmaTile(gen::Source&)>& draw) {
  // Layout i is the first placeable draw of streams i, i + count, i + 2 count, ... (a bounded
  // search: past it, the layout before, which never happens with the generators as they are).
  std::vector<oracle::wgmma::WgmmaTile> out;
  const std::string stream = suite + ".layouts";
  for (uint32_t i = 0; i < count; ++i) {
    std::optional<oracle::wgmma::WgmmaTile> found;
    for (uint64_t at = i; !found && at < uint64_t{1024} * count; at += count) {
      gen::RandomSource s(gen::CaseSeed(seed, stream, at));
      oracle::wgmma::WgmmaTile t = draw(s);
      if (Placeable(t)) found = std::move(t);
    }
    if (found) {
      out.push_back(std::move(*found));
    } else if (!out.empty()) {
      out.push_back(out.back());
    }
  }
  return out;
}

}  // namespace

const std::vector<oracle::wgmma::WgmmaTile>& PlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::wgmma::WgmmaTile(gen::Source&)>& draw) {
  static std::mutex mu;
  static std::map<std::pair<std::string, uint64_t>,
                  std::unique_ptr<const std::vector<oracle::wgmma::WgmmaTile>>>
      cache;
  const std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{suite, seed}];
  if (!slot) {
    slot = std::make_unique<const std::vector<oracle::wgmma::WgmmaTile>>(
        DrawPlaceableLayouts(seed, suite, count, draw));
  }
  return *slot;
}

gen::GeneratedWgmma DrawJudgedTile(uint64_t seed, const char* suite,
                                   const std::vector<oracle::wgmma::WgmmaTile>& layouts,
                                   uint64_t index) {
  namespace wd = oracle::wgmma::drawn;
  const uint64_t cs = gen::CaseSeed(seed, suite, index);
  gen::GeneratedWgmma g;
  g.tile = layouts[wd::LayoutIndex(cs, static_cast<uint32_t>(layouts.size()))];
  g.values = gen::TileValues::kRandom;
  g.fill = harness::kTileJudgedPoison;
  oracle::wgmma::WgmmaTile& t = g.tile;
  const uint32_t bf16 = t.ab == Format::kBF16;
  const oracle::mma::drawn::Mode mode = wd::ModeOf(cs);
  std::vector<uint64_t> a, b;
  for (int row = 0; row < t.a.view.rows; ++row) {
    for (int k = 0; k < harness::kTileJudgedK; ++k) a.push_back(wd::ABits(cs, row, k, bf16, mode));
  }
  for (int n = 0; n < t.n; ++n) {
    for (int k = 0; k < harness::kTileJudgedK; ++k) b.push_back(wd::BBits(cs, n, k, bf16, mode));
  }
  t.image.assign(gen::kWgmmaImageBytes, g.fill);
  oracle::wgmma::PlaceOperand(t, oracle::smem::Operand::kA, a);
  oracle::wgmma::PlaceOperand(t, oracle::smem::Operand::kB, b);
  return g;
}

const std::vector<oracle::wgmma::WgmmaTile>& WgmmaJudgedLayoutTiles(uint64_t seed) {
  return PlaceableLayouts(seed, kSmemHwJudgedSuite, kWgmmaJudgedLayouts, [](gen::Source& s) {
    const Format type = s.Coin() ? Format::kBF16 : Format::kF16;
    const int n = harness::kWgmmaJudgedNs[s.Below(std::size(harness::kWgmmaJudgedNs))];
    return gen::DrawWgmmaLayout(s, type, n);
  });
}

std::vector<harness::WgmmaJudgedLayout> WgmmaJudgedTable(
    const std::vector<oracle::wgmma::WgmmaTile>& layouts) {
  std::vector<harness::WgmmaJudgedLayout> table;
  for (const oracle::wgmma::WgmmaTile& t : layouts) {
    harness::WgmmaJudgedLayout l;
    l.desc_a = t.a.desc;
    l.desc_b = t.b.desc;
    l.n = static_cast<uint16_t>(t.n);
    l.bf16 = t.ab == Format::kBF16;
    l.mn_a = t.a.view.major == oracle::smem::Major::kMN;
    l.mn_b = t.b.view.major == oracle::smem::Major::kMN;
    table.push_back(l);
  }
  return table;
}

gen::GeneratedWgmma DrawSmemHwJudgedCase(uint64_t seed, uint64_t index) {
  return DrawJudgedTile(seed, kSmemHwJudgedSuite, WgmmaJudgedLayoutTiles(seed), index);
}

std::string JudgeKeptTile(uint64_t index, const oracle::wgmma::WgmmaTile& t,
                          const std::vector<uint32_t>& d, bool device_failed) {
  // The general model: the host's judge shares no arithmetic code with the device's.
  const auto want = oracle::wgmma::WgmmaReference(t, /*general_only=*/true);
  if (!want.ok())
    return CaseLine(index, CaseOutcome::kHarnessError, "tcfuzz defect: " + want.error());
  return JudgeKept(index, want.value(), d, device_failed);
}

int RunWgmmaJudgedWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<harness::WgmmaJudgedLayout> table =
      WgmmaJudgedTable(WgmmaJudgedLayoutTiles(a.seed));
  JudgedSuiteHalf half;
  half.unsupported = [](const harness::DeviceInfo& d) {
    if (d.cc_major != 9 || d.cc_minor != 0) return std::string("wgmma needs sm_90a");
    if (!FastMmaParams(GpuOf(d), oracle::num::Instr::kWgmma))
      return std::string("no wgmma numerics row for this device");
    return harness::WgmmaJudgedUnsupported();
  };
  half.launch = [&](const harness::JudgedRange& r, oracle::num::Gpu gpu) {
    harness::WgmmaJudgedLaunch l;
    static_cast<harness::JudgedRange&>(l) = r;
    l.layouts = table;
    const auto params =
        FastMmaParams(gpu, oracle::num::Instr::kWgmma);  // present: unsupported() said so
    l.f16 = params->first;
    l.bf16 = params->second;
    l.image_bytes = gen::kWgmmaImageBytes;
    return harness::RunWgmmaJudged(l);
  };
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                   oracle::num::Gpu) {
    const gen::GeneratedWgmma g = DrawSmemHwJudgedCase(a.seed, index);
    return JudgeKeptTile(index, g.tile, harness::WgmmaJudgedD(d_regs, g.tile.n), device_failed);
  };
  half.sample_every = kWgmmaJudgedSampleEvery;
  return RunJudgedWorker(a, out, half);
}

}  // namespace tcfuzz::suites
