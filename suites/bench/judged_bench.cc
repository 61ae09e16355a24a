// The device-judged suites' two halves on one CPU thread. "Lane" benchmarks run what the kernel
// runs for one case (every lane's or thread's share: draw, place, judge), the host-run twin's code:
// the work a case puts on the device, counted on a CPU. "HostJudge" benchmarks run what the
// worker's host does for each sampled or failing case: rebuild it from its seed and judge it with
// the general model. Items are cases. Figures: docs/performance.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "generators/core/random_source.h"
#include "generators/sparse/device_drawn_gen.h"
#include "harness/sparse_mma_judged_lane.h"
#include "harness/tcgen05_judged_lane.h"
#include "harness/wgmma_judged_lane.h"
#include "oracle/core/counter_hash.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

namespace {

using namespace tcfuzz;
constexpr uint64_t kSeed = 20261125;

void BM_SparseJudgedLaneCase(benchmark::State& state) {
  static const std::vector<harness::SparseExactTable> tables =
      suites::SparseExactTables(gen::DrawnVariants());
  const auto params = suites::FastMmaParams(oracle::num::Gpu::kSm90);
  const uint64_t key = gen::SuiteKey(kSeed, suites::kSparseMmaJudgedSuite);
  harness::SparseJudgedValues v;
  uint64_t index = 0;
  for (auto _ : state) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index++);
    const harness::SparseExactTable& t = tables[oracle::sparse::drawn::Pick(
        cs, oracle::sparse::drawn::kVariant, 0, 0, static_cast<uint32_t>(tables.size()))];
    uint32_t sum = 0;
    for (int lane = 0; lane < 32; ++lane) sum += harness::DrawJudgedLane(t, cs, lane, v).e;
    for (int lane = 0; lane < 32; ++lane) {
      for (int x = 0; x < 4; ++x)
        sum += harness::ExpectedJudgedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x],
                                        t.instruction.bf16 ? params->second : params->first);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
}
BENCHMARK(BM_SparseJudgedLaneCase);

void BM_SparseJudgedHostJudge(benchmark::State& state) {
  uint64_t index = 0;
  for (auto _ : state) {
    const oracle::sparse::SparseTile t = suites::DrawSparseJudgedCase(kSeed, index++).sparse.tile;
    benchmark::DoNotOptimize(oracle::sparse::Reference(
        t, *suites::SparseParams(t, oracle::num::Gpu::kSm90),
        oracle::sparse::SparseBlocking::kCompressed, /*general_only=*/true));
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
}
BENCHMARK(BM_SparseJudgedHostJudge);

// The wgmma kernel's work for one case: poison, every thread's placement, every accumulator's
// dot product, over the layout table's mix of N (the outputs_per_case counter).
void BM_SmemHwJudgedLaneCase(benchmark::State& state) {
  static const std::vector<harness::WgmmaJudgedLayout> table =
      suites::WgmmaJudgedTable(suites::WgmmaJudgedLayoutTiles(kSeed));
  const auto params = suites::FastMmaParams(oracle::num::Gpu::kSm90, oracle::num::Instr::kWgmma);
  const uint64_t key = gen::SuiteKey(kSeed, suites::kSmemHwJudgedSuite);
  auto v = std::make_unique<harness::WgmmaJudgedValues>();
  std::vector<uint8_t> image(gen::kTileImageBytes);
  uint64_t index = 0, outputs = 0;
  for (auto _ : state) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index++);
    const harness::WgmmaJudgedLayout& l =
        table[oracle::tile::drawn::LayoutIndex(cs, static_cast<uint32_t>(table.size()))];
    std::fill(image.begin(), image.end(), harness::kWgmmaJudgedPoison);
    const auto store = [&image](uint64_t byte, uint32_t bits) {
      image[byte] = static_cast<uint8_t>(bits);
      image[byte + 1] = static_cast<uint8_t>(bits >> 8);
    };
    for (int thread = 0; thread < harness::kWgmmaJudgedThreads; ++thread)
      harness::PlaceShare(l, cs, thread, image.size(), store, *v);
    uint32_t sum = 0;
    for (int thread = 0; thread < harness::kWgmmaJudgedThreads; ++thread) {
      for (int x = 0; x < l.n / 2; ++x)
        sum += harness::ExpectedWgmmaD(l, *v, thread, x, l.bf16 ? params->second : params->first);
    }
    outputs += static_cast<uint64_t>(64 * l.n);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
  state.counters["outputs_per_case"] =
      benchmark::Counter(static_cast<double>(outputs) / static_cast<double>(index ? index : 1));
}
BENCHMARK(BM_SmemHwJudgedLaneCase);

void BM_SmemHwJudgedHostJudge(benchmark::State& state) {
  uint64_t index = 0;
  for (auto _ : state) {
    const gen::GeneratedTile g = suites::DrawSmemHwJudgedCase(kSeed, index++);
    benchmark::DoNotOptimize(oracle::tile::TileReference(g.tile, /*general_only=*/true));
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
}
BENCHMARK(BM_SmemHwJudgedHostJudge);

// The tcgen05 kernel's work for one case, likewise (M = 128, N of 8..128, a third .ws).
void BM_Tcgen05JudgedLaneCase(benchmark::State& state) {
  static const std::vector<harness::Tcgen05JudgedLayout> table =
      suites::Tcgen05JudgedTable(suites::Tcgen05JudgedLayoutTiles(kSeed)).value();
  const auto params = suites::FastMmaParams(oracle::num::Gpu::kSm100, oracle::num::Instr::kTcgen05);
  const uint64_t key = gen::SuiteKey(kSeed, suites::kTcgen05JudgedSuite);
  auto v = std::make_unique<harness::Tcgen05JudgedValues>();
  std::vector<uint8_t> image(gen::kTileImageBytes);
  uint64_t index = 0, outputs = 0;
  for (auto _ : state) {
    const uint64_t cs = oracle::CaseSeedFromKey(key, index++);
    const harness::Tcgen05JudgedLayout& l =
        table[oracle::tile::drawn::LayoutIndex(cs, static_cast<uint32_t>(table.size()))];
    std::fill(image.begin(), image.end(), harness::kTileJudgedPoison);
    const auto store = [&image](uint64_t byte, uint32_t bits) {
      image[byte] = static_cast<uint8_t>(bits);
      image[byte + 1] = static_cast<uint8_t>(bits >> 8);
    };
    for (int thread = 0; thread < harness::kTcgen05JudgedThreads; ++thread)
      harness::PlaceTcgen05Share(l, cs, thread, image.size(), store, *v);
    uint32_t sum = 0;
    for (int row = 0; row < harness::kTcgen05JudgedM; ++row) {
      for (int col = 0; col < l.n; ++col)
        sum += harness::ExpectedTcgen05D(l, *v, row, col, l.bf16 ? params->second : params->first);
    }
    outputs += static_cast<uint64_t>(harness::kTcgen05JudgedM * l.n);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
  state.counters["outputs_per_case"] =
      benchmark::Counter(static_cast<double>(outputs) / static_cast<double>(index ? index : 1));
}
BENCHMARK(BM_Tcgen05JudgedLaneCase);

void BM_Tcgen05JudgedHostJudge(benchmark::State& state) {
  uint64_t index = 0;
  for (auto _ : state) {
    const gen::GeneratedTile g = suites::DrawTcgen05JudgedCase(kSeed, index++);
    benchmark::DoNotOptimize(oracle::tile::TileReference(g.tile, /*general_only=*/true));
  }
  state.SetItemsProcessed(static_cast<int64_t>(index));
}
BENCHMARK(BM_Tcgen05JudgedHostJudge);

}  // namespace
