#include "suites/kinds/judged_worker.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "generators/core/random_source.h"
#include "harness/host_threads.h"
#include "harness/ptx_kernel.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

std::string JudgeKept(uint64_t index, const std::vector<uint32_t>& want,
                      const std::vector<uint32_t>& got, bool device_failed) {
  const std::string what = MismatchDetail(want, got);
  if (what.empty()) {
    return device_failed ? CaseLine(index, CaseOutcome::kHarnessError,
                                    "tcfuzz defect: the device-side check failed a D the host "
                                    "oracle agrees with" +
                                        ObservedField(got))
                         : std::string();
  }
  return CaseLine(index, CaseOutcome::kMismatch,
                  what +
                      (device_failed ? "" : " (tcfuzz defect: the device-side check passed it)") +
                      ObservedField(got));
}

std::optional<std::pair<oracle::num::fast::Params, oracle::num::fast::Params>> FastMmaParams(
    oracle::num::Gpu gpu, oracle::num::Instr instr) {
  using oracle::num::Format;
  const auto f16 = oracle::num::ParamsFor(gpu, instr, Format::kF16, Format::kF32);
  const auto bf16 = oracle::num::ParamsFor(gpu, instr, Format::kBF16, Format::kF32);
  std::pair<oracle::num::fast::Params, oracle::num::fast::Params> out;
  if (!f16 || !bf16 || !oracle::num::fast::ParamsOf(*f16, Format::kF32, out.first) ||
      !oracle::num::fast::ParamsOf(*bf16, Format::kF32, out.second))
    return std::nullopt;
  return out;
}

int RunJudgedWorker(const WorkerArgs& a, std::ostream& out, const JudgedSuiteHalf& half) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  const IndexProgression shard = ShardProgression(a);
  const uint64_t start = shard.start, stride = shard.stride, n = shard.count;
  std::vector<uint64_t> planted;  // test-only indices in this shard's range
  for (const auto* set : {&a.plant_fault, &a.plant_hang}) {
    for (const uint64_t i : *set) {
      if (i >= start && i < a.first + a.count && (i - start) % stride == 0) planted.push_back(i);
    }
  }
  std::sort(planted.begin(), planted.end());
  if (const auto r = RunPlantedFaults(a, planted, out)) return *r;
  const DeviceSuite* suite = FindDeviceSuite(a.suite);
  const std::string_view family = suite != nullptr ? suite->family : "mma";
  const auto d = DeviceOrSkip(n, out, family == "mma" ? "" : SmemMmaHostLacks(), family);
  if (!d) return 0;
  const unsigned threads =
      a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  // Cases per family over the shard's indices, each thread counting its own stretch.
  const auto count_families = [&] {
    if (!half.family_of) return FamilyCounts{};  // a suite without families: its cases uncounted
    std::vector<std::vector<uint64_t>> per_thread(threads,
                                                  std::vector<uint64_t>(half.families.size()));
    harness::ParallelFor(
        threads, threads,
        [&](std::size_t t) {
          for (uint64_t k = n * t / threads; k < n * (t + 1) / threads; ++k) {
            const std::size_t e = half.family_of(start + k * stride);
            if (e < half.families.size()) ++per_thread[t][e];
          }
        },
        1);
    FamilyCounts counts;
    for (const auto& mine : per_thread) {
      for (std::size_t e = 0; e < mine.size(); ++e) {
        if (mine[e] > 0) counts[half.families[e]] += mine[e];
      }
    }
    return counts;
  };
  if (const std::string why = half.unsupported(*d); !why.empty()) {
    out << "unsupported " << n << " " << why << "\n"
        << FamilyLines({}, count_families()) << "ran " << n << "\ndone\n";
    return 0;
  }
  // Counted on the host's threads while the device runs the launches.
  FamilyCounts families;
  std::jthread counting([&] { families = count_families(); });
  const oracle::num::Gpu gpu = GpuOf(*d);
  const uint64_t per_launch = std::max<uint64_t>(1, a.cases_per_launch);
  // What the host judges: every kept D (the sampled cases and the first failures of each launch),
  // gathered over launches (one keeps only about 16, too few to spread) and judged on every host
  // thread once kJudgeBatch are waiting and at the end, so a worker holds at most that many D's
  // (a wgmma tile's is up to 64 KiB).
  constexpr std::size_t kJudgeBatch = 1024;
  struct Kept {
    uint64_t index;
    std::vector<uint32_t> d_regs;
    bool device_failed;
  };
  std::vector<Kept> kept;
  std::size_t kept_failures = 0;
  double device_s = 0, judge_s = 0;
  const auto judge_kept = [&] {
    const Clock::time_point t1 = Clock::now();
    std::vector<std::string> lines(kept.size());
    harness::ParallelFor(kept.size(), threads, [&](std::size_t i) {
      lines[i] = half.judge(kept[i].index, kept[i].d_regs, kept[i].device_failed, gpu);
    });
    for (const std::string& line : lines) {
      if (!line.empty()) out << line << "\n";
    }
    kept.clear();
    judge_s += seconds_since(t1);
  };
  for (uint64_t done = 0; done < n; done += per_launch) {
    harness::JudgedRange r;
    r.suite_key = gen::SuiteKey(a.seed, a.suite);
    r.first = start + done * stride;
    r.stride = stride;
    r.count = std::min(per_launch, n - done);
    r.sample_every = half.sample_every;
    // A device that fails everything must not fill the host's memory with D's: past 8,192 kept
    // failures the rest are reported by index alone.
    r.keep_mismatches = kept_failures < 8192 ? 256 : 0;
    const Clock::time_point t0 = Clock::now();
    const auto got = half.launch(r, gpu);
    device_s += seconds_since(t0);
    if (!got.ok()) {
      if (!harness::IsContextSafeError(got.error())) {
        out << "fault " << got.error() << "\n" << std::flush;
        return kWorkerFaultExit;
      }
      for (uint64_t w = 0; w < r.count; ++w)
        out << CaseLine(r.first + w * stride, CaseOutcome::kHarnessError, got.error()) << "\n";
      continue;
    }
    harness::JudgedResult result = got.value();
    std::vector<uint64_t>& failed = result.failed;
    std::sort(failed.begin(), failed.end());
    std::vector<bool> has_d(failed.size(), false);
    for (harness::JudgedCase& k : result.kept) {
      const auto it = std::lower_bound(failed.begin(), failed.end(), k.index);
      const bool device_failed = it != failed.end() && *it == k.index;
      if (device_failed) {
        has_d[static_cast<std::size_t>(it - failed.begin())] = true;
        ++kept_failures;
      }
      kept.push_back({k.index, std::move(k.d_regs), device_failed});
    }
    for (std::size_t i = 0; i < failed.size(); ++i) {
      if (!has_d[i]) {
        out << CaseLine(failed[i], CaseOutcome::kMismatch,
                        "the device-side check failed it (its D was not kept: too many failures)")
            << "\n";
      }
    }
    if (kept.size() >= kJudgeBatch) judge_kept();
  }
  judge_kept();
  counting.join();
  out << FamilyLines(families, {});
  out << PhaseLine("draw", 0) << "\n"
      << PhaseLine("device", device_s) << "\n"
      << PhaseLine("judge", judge_s) << "\n";
  out << "ran " << n << "\ndone\n";
  return 0;
}

}  // namespace tcfuzz::suites
