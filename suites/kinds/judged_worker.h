// The worker half every device-judged GPU suite shares (sparse-mma-exact, dense-mma-judged): the
// shard's indices in launches of cases drawn and judged on the device (harness/judged_launch.h),
// then every failing case and the sampled ones rebuilt and judged again by the host's oracle on
// every host thread. A suite says how to launch a range and how the host judges one kept case.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/judged_launch.h"
#include "oracle/core/counter_hash.h"
#include "oracle/core/result.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/fast_dot.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

struct JudgedSuiteHalf {
  // Why this device cannot run the suite's kernel, or empty.
  std::function<std::string(const harness::DeviceInfo&)> unsupported;
  // One launch over `range` on a device of numerics row `gpu`.
  std::function<oracle::Result<harness::JudgedResult>(const harness::JudgedRange& range,
                                                      oracle::num::Gpu gpu)>
      launch;
  // The host's case line for a kept case (its lanes' D registers), empty when it agrees with a
  // device that passed it.
  std::function<std::string(uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                            oracle::num::Gpu gpu)>
      judge;
  uint64_t sample_every = 4096;
  // The families its cases fall in (DescribedCase::family, one per table entry: an instruction
  // variant or a layout; names may repeat) and which entry case `index` is: the cheap first step
  // of the case's recipe, so every case is counted without drawing its values.
  std::vector<std::string> families;
  std::function<std::size_t(uint64_t index)> family_of;
};

// The row of `gpu`'s `instr` (mma.sync and mma.sp share kMma's) for f16 and for bf16 inputs into
// f32, as the device model takes it; nullopt where the oracle has no row or the fast path does not
// serve it.
std::optional<std::pair<oracle::num::fast::Params, oracle::num::fast::Params>> FastMmaParams(
    oracle::num::Gpu gpu, oracle::num::Instr instr = oracle::num::Instr::kMma);

int RunJudgedWorker(const WorkerArgs& a, std::ostream& out, const JudgedSuiteHalf& half);

// Sets `half`'s families: `names[e]` for table entry e, and case `index` of `suite` (base seed
// `seed`) is the entry `pick(case seed)` (the recipe's own choice of its table entry).
template <class Pick>
void SetFamilies(JudgedSuiteHalf& half, std::vector<std::string> names, uint64_t seed,
                 std::string_view suite, Pick pick) {
  half.families = std::move(names);
  half.family_of = [key = gen::SuiteKey(seed, suite), pick](uint64_t index) {
    return static_cast<std::size_t>(pick(oracle::CaseSeedFromKey(key, index)));
  };
}

// A judged suite's launches: `make(gpu)` gives the suite's launch on a device of numerics row
// `gpu` (its tables and rows: the suite's XLaunchFor, which its GPU tests call too), the
// worker's range goes in.
template <class Launch, class Make>
auto JudgedLaunches(Make make) {
  return [make](const harness::JudgedRange& r, oracle::num::Gpu gpu) {
    Launch l = make(gpu);
    static_cast<harness::JudgedRange&>(l) = r;
    return harness::RunJudged(l);
  };
}

// The tail every judged suite's support predicate shares, after its target check: the device's
// numerics row for `instr` (none for exact sums), then an image of the suite's kernel.
template <class Launch>
std::string JudgedKernelUnsupported(const harness::DeviceInfo& d,
                                    std::optional<oracle::num::Instr> instr) {
  if (instr && !FastMmaParams(GpuOf(d), *instr))
    return std::string("no ") + Launch::kSuite + " numerics row for this device";
  return harness::JudgedUnsupported<Launch>();
}

// The host's verdict on a kept case: the oracle's D `want` against the device's `got`.
// `device_failed`: the device-side check failed it. A device-side verdict the host does not share
// is a tcfuzz defect (the device model and the host model disagree), reported as a harness error.
std::string JudgeKept(uint64_t index, const std::vector<uint32_t>& want,
                      const std::vector<uint32_t>& got, bool device_failed);

}  // namespace tcfuzz::suites
