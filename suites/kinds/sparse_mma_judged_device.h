// The `sparse-mma-judged` GPU suite: mma.sp cases of every variant `sparse-mma-exact` runs
// (f16/bf16, k16/k32, both spellings, every legal selector, f32 accumulators) with float
// values in the dense recipe's three modes, drawn and judged on the device by the bit-exact model's
// 64-bit path with the device's numerics row (harness/sparse_mma_judged.h), one warp per case,
// launches of 65,536. The host rebuilds and judges every failing case and one in
// kSparseJudgedSampleEvery with its own oracle (the general model); a verdict the two models do not
// share is a tcfuzz defect (suites/kinds/judged_worker.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "generators/sparse/device_drawn_gen.h"
#include "harness/judged_suites.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

inline constexpr const char* kSparseMmaJudgedSuite = "sparse-mma-judged";
inline constexpr uint64_t kSparseJudgedSampleEvery = 4096;

// Case `index` of a run with base seed `seed`, as the kernel draws it.
gen::DeviceDrawnSparseFloat DrawSparseJudgedCase(uint64_t seed, uint64_t index);

// The suite's support predicate (DeviceSuite::unsupported).
std::string SparseJudgedUnsupported(const harness::DeviceInfo& d);

// The launch of `tables`' cases on a device of numerics row `gpu` (one the predicate accepts).
harness::SparseJudgedLaunch SparseJudgedLaunchFor(std::span<const harness::SparseExactTable> tables,
                                                  oracle::num::Gpu gpu);

int RunSparseJudgedWorker(const WorkerArgs& args, std::ostream& out);

}  // namespace tcfuzz::suites
