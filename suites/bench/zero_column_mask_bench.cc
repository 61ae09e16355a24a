// Throughput of the zero-column-mask oracle and of one campaign case (Google Benchmark).
// Numbers and how they were taken: docs/performance.md.
#include <benchmark/benchmark.h>

#include "generators/core/random_source.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/checks/zero_column_mask_checks.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/case_kind.h"

namespace {

using namespace tcfuzz;

void BM_Validate(benchmark::State& state) {
  gen::RandomSource s(1);
  const auto g = gen::DrawZcm(s, gen::Intent::kLegal);
  for (auto _ : state) benchmark::DoNotOptimize(oracle::tcgen05::Validate(g.c));
}
BENCHMARK(BM_Validate);

void BM_ExpandN256M32(benchmark::State& state) {
  uint64_t desc = 0x0203028301020100ull;
  for (auto _ : state) {
    benchmark::DoNotOptimize(oracle::tcgen05::Expand(desc, 32, 256));
    ++desc;
  }
}
BENCHMARK(BM_ExpandN256M32);

void BM_DrawLegal(benchmark::State& state) {
  gen::RandomSource s(2);
  for (auto _ : state) benchmark::DoNotOptimize(gen::DrawZcm(s, gen::Intent::kLegal));
}
BENCHMARK(BM_DrawLegal);

void BM_CampaignCase(benchmark::State& state) {
  auto suite = suites::FindCaseKind("zero_column_mask")->host_suite();
  uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(suite->RunCase(i, gen::CaseSeed(3, suite->name(), i)));
    ++i;
  }
  state.SetItemsProcessed(static_cast<int64_t>(i));
}
BENCHMARK(BM_CampaignCase);

}  // namespace
