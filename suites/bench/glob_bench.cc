// The pattern matcher (Google Benchmark): compiling a pattern and matching it once (an
// expectation line read), and one pattern over many texts (`--forms` over the form keys).
// Numbers and how they were taken: docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "suites/engine/glob.h"

namespace {

using tcfuzz::suites::Glob;

const std::string kKey = "wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16@sm_90a";

void BM_GlobCompileAndMatchOnce(benchmark::State& state) {
  for (auto _ : state) {
    const auto g = Glob::Compile("*wgmma*@(f16|bf16)*sm_90a");
    benchmark::DoNotOptimize(g.value().Matches(kKey));
  }
}
BENCHMARK(BM_GlobCompileAndMatchOnce);

// 60 alternatives after stars: about 1,800 automaton states active a character.
void BM_GlobAlternativesOverKeys(benchmark::State& state) {
  std::string p = "@(*";
  for (int i = 1; i < 60; ++i) p += "|*" + std::string(static_cast<std::size_t>(i), '?');
  const auto g = Glob::Compile(p + ")x");
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(kKey + std::to_string(i));
  for (auto _ : state) {
    for (const std::string& k : keys) benchmark::DoNotOptimize(g.value().Matches(k));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(keys.size()));
}
BENCHMARK(BM_GlobAlternativesOverKeys)->Unit(benchmark::kMillisecond);

}  // namespace
