// The `dense-mma-judged` GPU suite: m16n8k16 f16/bf16 -> f32 mma.sync cases in float value modes,
// drawn and judged on the device by the bit-exact model's 64-bit path with the device's numerics
// row (harness/dense_judged.h), one warp per case, launches of 65,536. The host rebuilds and
// judges every failing case and one in kDenseJudgedSampleEvery with its own oracle; a verdict the
// two models do not share is reported as a tcfuzz defect (suites/kinds/judged_worker.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "generators/mma/device_drawn_dense_gen.h"
#include "harness/judged_suites.h"
#include "oracle/numerics/dot_product.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

inline constexpr const char* kDenseMmaJudgedSuite = "dense-mma-judged";
inline constexpr uint64_t kDenseJudgedSampleEvery = 4096;

// Where each lane's register elements sit: the oracle's m16n8k16 fragment maps (f16 and bf16
// share them).
harness::DenseJudgedTable DenseJudgedTableOf();

// Case `index` of a run with base seed `seed`, as the kernel draws it.
gen::DeviceDrawnDense DrawDenseJudgedCase(uint64_t seed, uint64_t index);

// The suite's support predicate (DeviceSuite::unsupported).
std::string DenseJudgedUnsupported(const harness::DeviceInfo& d);

// The launch of `table`'s cases on a device of numerics row `gpu` (one the predicate accepts).
harness::DenseJudgedLaunch DenseJudgedLaunchFor(const harness::DenseJudgedTable& table,
                                                oracle::num::Gpu gpu);

int RunDenseJudgedWorker(const WorkerArgs& args, std::ostream& out);

DescribedCase DescribeDenseJudged(uint64_t seed, uint64_t index,
                                  const std::vector<uint32_t>& observed, oracle::num::Gpu gpu);

}  // namespace tcfuzz::suites
