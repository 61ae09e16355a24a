// The `smem-hw-judged` GPU suite: dense wgmma.mma_async m64nNk16 f16/bf16 -> f32 tiles (sm_90a)
// whose shared-memory image is built on the device and whose D is judged there
// (harness/wgmma_judged.h), one warpgroup per case, launches of 65,536. The layouts (both
// descriptors: major-ness, swizzle, start inside a swizzle row, LBO/SBO, base offset; N; type) are
// the smem-hw generator's, kWgmmaJudgedLayouts of them drawn from the base seed alone; case
// `index` picks one by its case seed and draws its values. The host rebuilds and judges every
// failing case and one in kWgmmaJudgedSampleEvery with its own oracle (the general model); a
// verdict the two models do not share is a tcfuzz defect (suites/kinds/judged_worker.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "generators/smem/descriptor_tile_gen.h"
#include "harness/judged_suites.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/descriptor_tile_judged.h"

namespace tcfuzz::suites {

inline constexpr const char* kSmemHwJudgedSuite = "smem-hw-judged";
inline constexpr uint64_t kWgmmaJudgedSampleEvery = 4096;
inline constexpr uint32_t kWgmmaJudgedLayouts = 1024;

// The layouts of a run with base seed `seed` (tiles without values), drawn once per process.
const std::vector<oracle::tile::DescriptorTile>& WgmmaJudgedLayoutTiles(uint64_t seed);
// The same as the kernel's table.
std::vector<harness::WgmmaJudgedLayout> WgmmaJudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts);

// Case `index` of a run with base seed `seed`, as the kernel builds it: its layout, its values
// placed in a poisoned image.
gen::GeneratedTile DrawSmemHwJudgedCase(uint64_t seed, uint64_t index);

// The suite's support predicate (DeviceSuite::unsupported).
std::string WgmmaJudgedUnsupported(const harness::DeviceInfo& d);

// The launch of `table`'s cases on a device of numerics row `gpu` (one the predicate accepts).
harness::WgmmaJudgedLaunch WgmmaJudgedLaunchFor(std::span<const harness::WgmmaJudgedLayout> table,
                                                oracle::num::Gpu gpu);

int RunWgmmaJudgedWorker(const WorkerArgs& args, std::ostream& out);

}  // namespace tcfuzz::suites
