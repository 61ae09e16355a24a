// The `tcgen05-judged` GPU suite: dense tcgen05.mma and tcgen05.mma.ws (kind::f16, cta_group::1)
// M = 128 f16/bf16 -> f32 tiles (sm_100a) whose shared-memory image is built on the device and
// whose D is judged there (harness/tcgen05_judged.h), one CTA per case. The layouts (both
// descriptors: major-ness, swizzle, start inside a swizzle row, LBO/SBO, base offset; N of
// 8..128; type; a third through .ws with a legal zero-column mask) are the tcgen05 generator's,
// kTcgen05JudgedLayouts of them drawn from the base seed alone; case `index` picks one by its case
// seed and draws its values as smem-hw-judged does. The host rebuilds and judges every failing case
// and one in kTcgen05JudgedSampleEvery with its own oracle (the general model); a verdict the two
// models do not share is a tcfuzz defect (suites/kinds/judged_worker.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "generators/smem/descriptor_tile_gen.h"
#include "harness/judged_suites.h"
#include "oracle/core/result.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

inline constexpr const char* kTcgen05JudgedSuite = "tcgen05-judged";
inline constexpr uint64_t kTcgen05JudgedSampleEvery = 4096;
inline constexpr uint32_t kTcgen05JudgedLayouts = 1024;

// The layouts of a run with base seed `seed` (tiles without values), drawn once per process.
const std::vector<oracle::tile::DescriptorTile>& Tcgen05JudgedLayoutTiles(uint64_t seed);
// The same as the kernel's table (the instruction descriptor from the oracle's encoder, the
// column map from the oracle's expansion of the mask); an error names a layout the kernel cannot
// run.
oracle::Result<std::vector<harness::Tcgen05JudgedLayout>> Tcgen05JudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts);

// Case `index` of a run with base seed `seed`, as the kernel builds it.
gen::GeneratedTile DrawTcgen05JudgedCase(uint64_t seed, uint64_t index);

// The suite's support predicate (DeviceSuite::unsupported).
std::string Tcgen05JudgedUnsupported(const harness::DeviceInfo& d);

// The launch of `table`'s cases on a device of numerics row `gpu` (one the predicate accepts).
harness::Tcgen05JudgedLaunch Tcgen05JudgedLaunchFor(
    std::span<const harness::Tcgen05JudgedLayout> table, oracle::num::Gpu gpu);

int RunTcgen05JudgedWorker(const WorkerArgs& args, std::ostream& out);

}  // namespace tcfuzz::suites
