// The parent side of a GPU suite: it never initializes CUDA. It asks a worker process whether
// there is a device (`tcfuzz worker --probe`), runs the case space through the batch engine
// (suites/engine/batch_engine.h) with `tcfuzz worker` as the worker, and turns the engine's
// result into the campaign report: one family per result class, and for every failing case a
// reproducer rebuilt on the host from (seed, index) with what the device returned.
#pragma once

#include <cstddef>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "generators/sparse/device_drawn_gen.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/engine/campaign.h"
#include "suites/engine/report.h"
#include "suites/engine/run_expectations.h"

namespace tcfuzz::suites {

inline constexpr const char* kSparseMmaDeviceSuite = "sparse-mma";
inline constexpr const char* kSparseMmaExactSuite = "sparse-mma-exact";
inline constexpr const char* kSparseMmaExactF16K32Suite =
    "sparse-mma-exact-f16k32";  // m16n8k32.f16 alone

// Case `index` of the sparse-mma suite: a legal case from CaseSeed(seed, "sparse-mma", index).
gen::GeneratedSparse DrawSparseMmaCase(uint64_t seed, uint64_t index);
// The instruction variants of a sparse-mma-exact suite (empty for any other name), and its case
// `index` as the device drew it (gen::DrawDeviceDrawn).
std::span<const gen::DrawnVariant> ExactSuiteVariants(std::string_view suite);
gen::GeneratedSparse DrawSparseExactCase(std::string_view suite, uint64_t seed, uint64_t index);

struct DeviceProbe {
  bool available = false;
  int cc_major = 0, cc_minor = 0;
  int driver_version = 0, runtime_version = 0;  // CUDA driver API and runtime, e.g. 13000
  std::string name;
  std::string reason;  // when not available
};

// Where a GPU suite runs, for --expectations and --skips: name, "9.0", driver and runtime
// "13.0" (all empty without a device).
RunPlace PlaceOf(const DeviceProbe& device);

// Runs `<worker> worker --probe` in a child process (worker: the tcfuzz binary).
DeviceProbe ProbeInWorker(const std::vector<std::string>& worker);

// The numerics-model row (oracle::num::Gpu name) a device of this compute capability follows.
std::string GpuRowName(int cc_major, int cc_minor);

// The numerics row of the device a case file was run on: origin.gpu, else the compute
// capability in origin.device ("..., CC 9.0, ..."); nullopt when the file names neither.
std::optional<oracle::num::Gpu> RecordedGpuRow(const oracle::TextDoc& doc);

// "S7 (spec), R100-tcgen05 (hypothesis)": the readings of `ids` that are not hardware-backed on
// `target` ("sm_90"); empty when every one is.
std::string UnconfirmedReadings(std::span<const std::string_view> ids, std::string_view target);

bool IsDeviceSuite(const std::string& name);
// Whether GPU suite `name` runs on the probed device (one there, of a compute capability the
// suite takes), as RunDeviceSuite decides before it starts a worker.
bool DeviceSuiteRuns(const std::string& name, const DeviceProbe& probed);

// " --device emulated --as sm_90a ..." (each word quoted for the shell where it needs it): the
// process's backend options, for the commands a report or reproducer prints; "" for cuda.
std::string BackendWords();
std::vector<std::string> DeviceSuiteNames();
std::vector<std::string> DefaultDeviceSuiteNames();  // what `tcfuzz run` without --suite runs

// Runs one device suite per the campaign options (cases, time, shard, seed) from index `start`
// (a resumed run's), writing its files into the report's work folder `work` (`shown_dir` is
// where they end up, for the log). `reproducers_before` and `seconds_before`: what the
// interrupted run already spent of the suite's caps.
SuiteReport RunDeviceSuite(const std::string& suite, const CampaignOptions& o,
                           const DeviceProbe& device, const std::string& work,
                           const std::string& shown_dir, uint64_t start,
                           uint64_t reproducers_before, double seconds_before,
                           RunExpectations& expectations, std::ostream& log);

}  // namespace tcfuzz::suites
