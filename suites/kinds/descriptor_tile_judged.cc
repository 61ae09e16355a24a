#include "suites/kinds/descriptor_tile_judged.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "generators/core/random_source.h"
#include "harness/host_threads.h"
#include "harness/tile_judged_lane.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/device_drawn_tile.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

using oracle::num::Format;

// Every element of A and B inside the image and no two (of either) sharing a byte: the kernel
// places each element once and reads nothing it did not place (the generators' last fallback
// does not check this itself).
bool Placeable(const oracle::tile::DescriptorTile& t) {
  std::vector<uint64_t> bits;
  for (const oracle::smem::SmemCase* c : {&t.a, &t.b}) {
    const auto map = oracle::smem::Map(*c);
    if (!map.ok()) return false;
    for (const uint64_t bit : map.value().bits) {
      if (bit / 8 + 2 > static_cast<uint64_t>(gen::kTileImageBytes)) return false;
      bits.push_back(bit);
    }
  }
  return gen::DistinctSlots(bits, 8);  // no two elements in one byte
}

namespace {

std::vector<oracle::tile::DescriptorTile> DrawPlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::tile::DescriptorTile(gen::Source&)>& draw) {
  // Layout i is the first placeable draw of streams i, i + count, i + 2 count, ... (a bounded
  // search: past it, the layout before, which never happens with the generators as they are).
  // Each layout is its own draw, so they are drawn on every core: a worker, and each rerun of a
  // failing case alone, starts by drawing them (about 1 ms each).
  std::vector<std::optional<oracle::tile::DescriptorTile>> found(count);
  const std::string stream = suite + ".layouts";
  harness::ParallelFor(
      count, harness::DefaultHostThreads(),
      [&](std::size_t i) {
        for (uint64_t at = i; !found[i] && at < uint64_t{1024} * count; at += count) {
          gen::RandomSource s(gen::CaseSeed(seed, stream, at));
          oracle::tile::DescriptorTile t = draw(s);
          if (Placeable(t)) found[i] = std::move(t);
        }
      },
      /*at_least=*/16);
  std::vector<oracle::tile::DescriptorTile> out;
  for (std::optional<oracle::tile::DescriptorTile>& f : found) {
    if (f) {
      out.push_back(std::move(*f));
    } else if (!out.empty()) {
      out.push_back(out.back());
    }
  }
  return out;
}

}  // namespace

const std::vector<oracle::tile::DescriptorTile>& PlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::tile::DescriptorTile(gen::Source&)>& draw) {
  static std::mutex mu;
  static std::map<std::pair<std::string, uint64_t>,
                  std::unique_ptr<const std::vector<oracle::tile::DescriptorTile>>>
      cache;
  const std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{suite, seed}];
  if (!slot) {
    slot = std::make_unique<const std::vector<oracle::tile::DescriptorTile>>(
        DrawPlaceableLayouts(seed, suite, count, draw));
  }
  return *slot;
}

void SetTileFamilies(JudgedSuiteHalf& half,
                     const std::vector<oracle::tile::DescriptorTile>& layouts, uint64_t seed,
                     const char* suite) {
  std::vector<std::string> names;
  for (const oracle::tile::DescriptorTile& t : layouts) names.push_back(TileFamily(t));
  SetFamilies(half, std::move(names), seed, suite,
              [count = static_cast<uint32_t>(layouts.size())](uint64_t case_seed) {
                return oracle::tile::drawn::LayoutIndex(case_seed, count);
              });
}

gen::GeneratedTile DrawJudgedTile(uint64_t seed, const char* suite,
                                  const std::vector<oracle::tile::DescriptorTile>& layouts,
                                  uint64_t index) {
  namespace wd = oracle::tile::drawn;
  const uint64_t cs = gen::CaseSeed(seed, suite, index);
  gen::GeneratedTile g;
  g.tile = layouts[wd::LayoutIndex(cs, static_cast<uint32_t>(layouts.size()))];
  g.values = gen::TileValues::kRandom;
  g.fill = harness::kTileJudgedPoison;
  oracle::tile::DescriptorTile& t = g.tile;
  const uint32_t bf16 = t.ab == Format::kBF16;
  const oracle::mma::drawn::Mode mode = wd::ModeOf(cs);
  std::vector<uint64_t> a, b;
  for (int row = 0; row < t.a.view.rows; ++row) {
    for (int k = 0; k < harness::kTileJudgedK; ++k) a.push_back(wd::ABits(cs, row, k, bf16, mode));
  }
  for (int n = 0; n < t.n; ++n) {
    for (int k = 0; k < harness::kTileJudgedK; ++k) b.push_back(wd::BBits(cs, n, k, bf16, mode));
  }
  t.image.assign(gen::kTileImageBytes, g.fill);
  oracle::tile::PlaceOperand(t, oracle::smem::Operand::kA, a);
  oracle::tile::PlaceOperand(t, oracle::smem::Operand::kB, b);
  return g;
}

std::string JudgeKeptTile(uint64_t index, const oracle::tile::DescriptorTile& t,
                          const std::vector<uint32_t>& d, bool device_failed) {
  // The general model: the host's judge shares no arithmetic code with the device's.
  const auto want = oracle::tile::TileReference(t, /*general_only=*/true);
  if (!want.ok())
    return CaseLine(index, CaseOutcome::kHarnessError, "tcfuzz defect: " + want.error());
  return JudgeKept(index, want.value(), d, device_failed);
}

}  // namespace tcfuzz::suites
