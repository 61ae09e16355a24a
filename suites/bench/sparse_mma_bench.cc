// Host side of the sparse-mma GPU suite, per case: drawing it from (seed, index), the bit-exact
// oracle's D, and the whole host share of a verified case (draw, oracle, compare). The GPU
// campaign's end-to-end rate is bounded by these divided by the worker's host threads.
// Numbers and how they were taken: docs/performance.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "generators/core/random_source.h"
#include "harness/emulator/warp_mma_emulator.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_form.h"
#include "oracle/sparse/sparse_metadata.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/worker_protocol.h"

namespace {

using namespace tcfuzz;
using oracle::num::Format;

constexpr uint64_t kSeed = 20261124;

oracle::num::DotParams ParamsOf(const oracle::sparse::SparseTile& t) {
  return suites::SparseParams(t, oracle::num::Gpu::kSm90).value_or(oracle::num::ExactParams(t.cd));
}

// The first `n` drawn cases of m16n8k32 with f16 A/B and f32 C/D: issue 6's measured campaign.
std::vector<gen::GeneratedSparse> F16K32Cases(std::size_t n) {
  std::vector<gen::GeneratedSparse> out;
  for (uint64_t i = 0; out.size() < n; ++i) {
    gen::GeneratedSparse g = suites::DrawSparseMmaCase(kSeed, i);
    if (g.tile.form->k == 32 && g.tile.a_type == Format::kF16 && g.tile.cd == Format::kF32)
      out.push_back(std::move(g));
  }
  return out;
}

void BM_SparseMmaDraw(benchmark::State& state) {
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(suites::DrawSparseMmaCase(kSeed, i++));
  state.SetItemsProcessed(static_cast<int64_t>(i));
}
BENCHMARK(BM_SparseMmaDraw);

void BM_SparseReferenceF16K32(benchmark::State& state) {
  const std::vector<gen::GeneratedSparse> cases = F16K32Cases(64);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& t = cases[i++ % cases.size()].tile;
    benchmark::DoNotOptimize(oracle::sparse::Reference(t, ParamsOf(t)));
  }
  state.SetItemsProcessed(static_cast<int64_t>(i));
}
BENCHMARK(BM_SparseReferenceF16K32);

// Draw, oracle and comparison over the campaign's whole mix of forms (the device's D stood in
// for by the oracle's own, so every case passes, as most do).
void BM_SparseMmaHostCase(benchmark::State& state) {
  uint64_t i = 0;
  for (auto _ : state) {
    const gen::GeneratedSparse g = suites::DrawSparseMmaCase(kSeed, i++);
    const std::vector<uint32_t> want = oracle::sparse::Reference(g.tile, ParamsOf(g.tile));
    benchmark::DoNotOptimize(suites::MismatchDetail(want, want));
  }
  state.SetItemsProcessed(static_cast<int64_t>(i));
}
BENCHMARK(BM_SparseMmaHostCase);

// Packing a launch's operands into each lane's registers (per case, batches of 4,096): the
// worker's host work between the draw and the device.
void BM_SparseMmaPackF16K32(benchmark::State& state) {
  const std::vector<gen::GeneratedSparse> drawn = F16K32Cases(64);
  std::vector<harness::MmaSpCase> batch;
  for (std::size_t i = 0; i < 4096; ++i)
    batch.push_back({drawn[i % drawn.size()].op, drawn[i % drawn.size()].tile});
  const auto& g = drawn.front();
  const harness::MmaSpSpec spec{g.op.form,     g.op.variant, g.op.selector,   g.tile.a_type,
                                g.tile.b_type, g.tile.cd,    g.tile.satfinite};
  int64_t cases = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(harness::PackMmaSp(spec, batch));
    cases += static_cast<int64_t>(batch.size());
  }
  state.SetItemsProcessed(cases);
}
BENCHMARK(BM_SparseMmaPackF16K32);

// The emulated backend's execution of one case (m16n8k32 f16 -> f32, a batch of 64 warps), from
// the packed registers: beside BM_SparseReferenceF16K32, the oracle's D of the same cases.
void BM_EmulatorMmaSpF16K32(benchmark::State& state) {
  const std::vector<gen::GeneratedSparse> drawn = F16K32Cases(64);
  std::vector<harness::MmaSpCase> batch;
  for (const auto& g : drawn) batch.push_back({g.op, g.tile});
  const auto& g = drawn.front();
  const harness::MmaSpSpec spec{g.op.form,     g.op.variant, g.op.selector,   g.tile.a_type,
                                g.tile.b_type, g.tile.cd,    g.tile.satfinite};
  const harness::PackedMmaSp p = harness::PackMmaSp(spec, batch);
  const harness::WarpMmaCall w = harness::WarpMmaCallOf(spec, p);
  tcfuzz_warp_mma call = w.Call();
  std::vector<uint32_t> d(w.DWords());
  call.d = d.data();
  int64_t cases = 0;
  std::string error;
  for (auto _ : state) {
    benchmark::DoNotOptimize(harness::emulator::ExecuteWarpMma(call, "sm_90a", &error));
    cases += static_cast<int64_t>(batch.size());
  }
  state.SetItemsProcessed(cases);
}
BENCHMARK(BM_EmulatorMmaSpF16K32);

}  // namespace
