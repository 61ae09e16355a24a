// The wgmma_tile kind: one descriptor tile (wgmma on sm_90a, tcgen05.mma / .ws / .sp on the
// sm_100a family): both descriptors, the types, the shared-memory image as bytes, and the D a
// device returned when there is one (oracle/tile/descriptor_tile_text.h).
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/kinds/descriptor_tile_device.h"
#include "suites/kinds/emit_cu.h"
#include "suites/kinds/judged_device.h"
#include "suites/reduce/tile_minimize.h"

namespace tcfuzz::suites {
namespace {

using oracle::tile::DescriptorTileFile;

std::string Text(const DescriptorTileFile& f, const Origin& origin = {}) {
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(w, f.tile, f.fill, f.observed ? &*f.observed : nullptr);
  for (const auto& [key, value] : origin) w.Add(key, value);
  return w.str();
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  const auto f = oracle::tile::DescriptorTileFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  // No oracle here: replay computes the answer for every tile, broken ones included.
  return oracle::Result<std::string>::Ok(Text(f.value()));
}

// wgmma dense and .sp; tcgen05 dense, .ws and .sp.
std::string Draw(gen::Source& s) {
  const uint64_t which = s.Below(5);
  const gen::GeneratedTile g = which == 0   ? gen::DrawWgmmaSpTile(s)
                               : which == 1 ? gen::DrawWgmmaTile(s)
                               : which == 2 ? gen::DrawTcgen05SpTile(s)
                                            : gen::DrawTcgen05Tile(s, which == 3);
  return Text(DescriptorTileFile{g.tile, g.fill, std::nullopt});
}

int RunOnDevice(const std::string& file, const oracle::TextDoc& doc, std::ostream& out) {
  const auto f = oracle::tile::DescriptorTileFromDoc(doc);
  return f.ok() ? RunDescriptorTileCaseWorker(f.value().tile, out)
                : CaseFileError(file + ": " + f.error(), out);
}

oracle::Result<MinimizeJob> Minimize(const std::string& file, const oracle::TextDoc& doc,
                                     int budget) {
  auto read = oracle::tile::DescriptorTileFromDoc(doc);
  if (!read.ok()) return oracle::Result<MinimizeJob>::Fail(file + ": " + read.error());
  DescriptorTileFile start = std::move(read).value();
  MinimizeJob job;
  job.start_text = Text(start);
  job.minimize = [start, budget](const FailureSignature& sig, const auto& observed,
                                 const auto& eval, const Origin& origin) mutable {
    start.observed = observed;
    const TileMinimizeResult r = MinimizeTile(
        start, sig, [&](const DescriptorTileFile& f) { return eval(Text(f)); }, budget);
    return std::pair{Text(r.minimized, origin),
                     std::to_string(r.accepted) + " steps kept of " + std::to_string(r.tries) +
                         " tried; " + TileFamily(start.tile) + " N " +
                         std::to_string(start.tile.n) + " -> " + TileFamily(r.minimized.tile) +
                         " N " + std::to_string(r.minimized.tile.n) + "; " +
                         std::to_string(NonZeroValues(start)) + " -> " +
                         std::to_string(NonZeroValues(r.minimized)) + " non-zero values"};
  };
  return oracle::Result<MinimizeJob>::Ok(std::move(job));
}

template <gen::GeneratedTile (*Draw)(uint64_t, uint64_t)>
DescribedCase DescribeTile(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed,
                           oracle::num::Gpu) {
  const gen::GeneratedTile g = Draw(seed, index);
  const bool full = observed.size() == static_cast<std::size_t>(g.tile.a.view.rows) *
                                           static_cast<std::size_t>(g.tile.n);
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(w, g.tile, g.fill, full ? &observed : nullptr);
  std::string mode(gen::Name(g.values));
  if (g.broken) mode += ", breaks " + std::string(g.broken->id);
  DescribedCase d{TileFamily(g.tile),
                  g.broken ? std::string() : TileProbeExplanation(g, observed),
                  mode,
                  w.str(),
                  BrokenRules(g.tile),
                  oracle::tile::ReadingsOf(g.tile)};
  if (const auto want = oracle::tile::TileReference(g.tile); full && want.ok()) {
    AddArithmetic(d.rests_on, oracle::tile::TileParams(g.tile),
                  g.values != gen::TileValues::kRandom, want.value(), observed, false);
    d.expected = want.value();
    d.cols = g.tile.n;
    d.d_format = std::string(oracle::num::Name(g.tile.d));
  }
  return d;
}

// A descriptor tile is a CTA with a 64 KiB image and up to 64 x 256 dot products, so a worker takes
// fewer cases than the warp-level suites and gets longer each.
const DeviceSuite kDeviceSuites[] = {
    {.name = kSmemHwSuite,
     .text_kind = oracle::tile::kDescriptorTileKind,
     .description = "wgmma (sm_90a) with generated shared-memory descriptors: placement, swizzle, "
                    "LBO/SBO, base offset; "
                    "one in eight breaks a rule (undefined by spec, recorded)",
     .worker_batch = 8192,
     .watchdog_per_case = std::chrono::microseconds(2000),
     .describe = DescribeTile<DrawSmemHwCase>,
     .run_worker = [](const WorkerArgs& a,
                      std::ostream& out) { return RunDescriptorTileWorker(a, false, out); },
     .runs_on = [](int major, int minor) { return major == 9 && minor == 0; },
     .runs_on_what = "sm_90a (wgmma)",
     .family = "wgmma"},
    // Built and judged on the device: a warpgroup per case. A worker takes 2^24 tiles (about 8 s
    // on the H100, 2 s of it the worker's start): a campaign's --time is checked between batches.
    {.name = kSmemHwJudgedSuite,
     .text_kind = oracle::tile::kDescriptorTileKind,
     .description = "wgmma (sm_90a) f16/bf16 tiles on smem-hw's descriptors, the shared-memory "
                    "image built and D judged on the device by the oracle's maps and bit-exact "
                    "model, one in 4096 and every failure judged again by the oracle on the host",
     .worker_batch = uint64_t{1} << 24,
     .watchdog_per_case = std::chrono::microseconds(20),
     .describe = DescribeTile<DrawSmemHwJudgedCase>,
     .run_worker = RunWgmmaJudgedWorker,
     .unsupported = WgmmaJudgedUnsupported,
     .runs_on = [](int major, int minor) { return major == 9 && minor == 0; },
     .runs_on_what = "sm_90a (wgmma)",
     .family = "wgmma"},
    {.name = kTcgen05Suite,
     .text_kind = oracle::tile::kDescriptorTileKind,
     .description = "tcgen05.mma / .sp / .ws (sm_100a, CC 10.x) with generated descriptors, sparse "
                    "metadata and "
                    "zero-column masks",
     .worker_batch = 8192,
     .watchdog_per_case = std::chrono::microseconds(4000),
     .describe = DescribeTile<DrawTcgen05Case>,
     .run_worker = [](const WorkerArgs& a,
                      std::ostream& out) { return RunDescriptorTileWorker(a, true, out); },
     .runs_on = [](int major, int) { return major == 10; },
     .runs_on_what = "compute capability 10.x (tcgen05)",
     .family = "tcgen05"},
    // Built and judged on the device: a CTA per case, as smem-hw-judged.
    {.name = kTcgen05JudgedSuite,
     .text_kind = oracle::tile::kDescriptorTileKind,
     .description = "tcgen05.mma / .ws (sm_100a, CC 10.0) f16/bf16 M = 128 tiles on the tcgen05 "
                    "generator's descriptors and masks, the shared-memory image built and D judged "
                    "on the device by the oracle's maps and bit-exact model, one in 4096 and every "
                    "failure judged again by the oracle on the host",
     .worker_batch = uint64_t{1} << 24,
     .watchdog_per_case = std::chrono::microseconds(20),
     .describe = DescribeTile<DrawTcgen05JudgedCase>,
     .run_worker = RunTcgen05JudgedWorker,
     .unsupported = Tcgen05JudgedUnsupported,
     .in_default_campaign = false,  // until it has run on a CC 10.0 GPU (doc-vs-hardware.md)
     .runs_on = [](int major, int minor) { return major == 10 && minor == 0; },
     .runs_on_what = "compute capability 10.0 (tcgen05, sm_100a code)",
     .family = "tcgen05"},
};

}  // namespace

const CaseKind& WgmmaTileKind() {
  static const CaseKind kind{oracle::tile::kDescriptorTileKind,
                             "descriptor tile: wgmma or tcgen05 descriptors, types, the "
                             "shared-memory image, the D a device returned",
                             ReplayDescriptorTile,
                             Reprint,
                             Draw,
                             RunOnDevice,
                             EmitTileCu,
                             Minimize,
                             nullptr,
                             kDeviceSuites};
  return kind;
}

}  // namespace tcfuzz::suites
