// A report's way through merge and --resume with N families (Google Benchmark): written as
// summary.json, read back, added to a second shard's, written as JUnit. A shard's report is
// untrusted (issue 33): the time must grow linearly in N, which `Complexity` fits.
// Numbers and how they were taken: docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>

#include "oracle/core/text_format.h"
#include "suites/engine/report.h"

namespace {

using namespace tcfuzz;

suites::CampaignReport WideReport(int64_t families) {
  suites::CampaignReport r;
  r.tool = std::string(oracle::ToolVersion());
  r.cases = 1;
  r.planned_suites = {"smem"};
  suites::SuiteReport s;
  s.suite = "smem";
  for (int64_t k = 0; k < families; ++k) {
    s.declared_families.push_back("declared." + std::to_string(k));
    s.families["family." + std::to_string(k)] = {};
  }
  r.suites.push_back(s);
  return r;
}

void BM_ReportWithFamilies(benchmark::State& state) {
  const suites::CampaignReport wide = WideReport(state.range(0));
  for (auto _ : state) {
    const auto back = suites::ParseSummary(suites::SummaryJson(wide));
    if (!back.ok()) {
      state.SkipWithError(back.error().c_str());
      break;
    }
    suites::CampaignReport merged = back.value();
    suites::AddSuiteReport(merged.suites[0], wide.suites[0]);
    benchmark::DoNotOptimize(suites::JUnitXml(merged).size());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_ReportWithFamilies)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 16)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

}  // namespace
