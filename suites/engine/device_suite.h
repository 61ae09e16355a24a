// The GPU suites as the parent process sees them: a name for `--suite`, the kind of text file
// their reproducers are, how many cases a worker process takes, and how to rebuild a reported
// case from (seed, index) for the report. Both halves draw case i from CaseSeed(seed, suite, i),
// so the worker sends back only the index, the class and what the device returned. The worker
// half (the GPU code) is suites/engine/device_workers.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/dot_product.h"
#include "suites/checks/check_failure.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

struct DescribedCase {
  std::string family;       // JUnit family (the instruction form, or types and layouts)
  std::string explanation;  // probe cases: which element the device read
  std::string mode;         // value mode, recorded as origin.mode
  std::string text;  // the case and what the device returned, in its text form (no origin lines)
  std::string broken_rules;  // non-empty: the case breaks these rules, so whatever the device did
                             // (a fault or hang included) is undefined by spec, not a failure
  // The readings (oracle/core/backing.h) the expected D rests on: the maps, the numerics row when
  // the values are not exact sums, the sign-of-zero reading when the device differs only there.
  std::vector<std::string_view> rests_on;
  // With the device's D: the expected D, row-major with `cols` columns, in format `d_format`
  // (the report's picture of the tile); empty when there is no D to compare.
  std::vector<uint32_t> expected = {};
  int cols = 0;
  std::string d_format = {};
};

struct DeviceSuite {
  std::string_view name;
  std::string_view text_kind;
  std::string_view description;
  uint64_t worker_batch;  // cases per worker process
  std::chrono::microseconds
      watchdog_per_case;  // worker allowance per case (generation, GPU, oracle)
  // Case `index` with the device's D (empty when the worker sent none), on a device of the
  // numerics row `gpu`.
  DescribedCase (*describe)(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed,
                            oracle::num::Gpu gpu);
  // The worker half: `tcfuzz worker --suite NAME` over a range of case indices.
  int (*run_worker)(const WorkerArgs& args, std::ostream& out) = nullptr;
  // The suite's support predicate: why device `d` cannot run it (its target, a numerics row, an
  // image of its kernel), or empty; nullptr: every device runs_on accepts. Its worker and its GPU
  // tests ask it; the campaign's parent asks only runs_on, which needs no CUDA.
  std::string (*unsupported)(const harness::DeviceInfo& d) = nullptr;
  // false: run only when named (a narrower copy of another suite, or a suite whose kernel has not
  // yet run on a device: a nightly campaign should not be the first to run it).
  bool in_default_campaign = true;
  // The devices that run any of its cases (nullptr: every one the workers accept); on others the
  // suite is skipped with `runs_on_what` as the reason, no worker started.
  bool (*runs_on)(int cc_major, int cc_minor) = nullptr;
  std::string_view runs_on_what = {};
  // The instruction family its cases issue ("mma", "wgmma", "tcgen05"): a host backend runs the
  // suite as the target of its list that executes that family (harness::TargetFor).
  std::string_view family = "mma";
};

// Every kind's GPU suites (each kind lists its own: suites/kinds/case_kind.h).
std::span<const DeviceSuite> DeviceSuites();
const DeviceSuite* FindDeviceSuite(std::string_view name);

// What an expected D rests on besides its maps (a describe's rests_on): the numerics row when the
// values are not exact sums (an exact sum is the same in every row), and the sign-of-zero reading
// (N4 for sm_90 mma, N6 elsewhere) when the device differs from the oracle only in the sign of a
// zero.
void AddArithmetic(std::vector<std::string_view>& ids,
                   const std::optional<oracle::num::DotParams>& params, bool exact,
                   std::span<const uint32_t> want, std::span<const uint32_t> got, bool sm90_mma);

}  // namespace tcfuzz::suites
