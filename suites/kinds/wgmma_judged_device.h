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
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "generators/smem/wgmma_tile_gen.h"
#include "harness/wgmma_judged_lane.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

inline constexpr const char* kSmemHwJudgedSuite = "smem-hw-judged";
inline constexpr uint64_t kWgmmaJudgedSampleEvery = 4096;
inline constexpr uint32_t kWgmmaJudgedLayouts = 1024;

// What the descriptor-tile judged suites (this one, tcgen05-judged) share:
// Whether every element of t's A and B lies inside the image, no two (of either) in one byte.
bool Placeable(const oracle::wgmma::WgmmaTile& t);
// `count` layouts of a run with base seed `seed`, drawn once per process: layout i is the first
// placeable tile `draw` returns from the streams "<suite>.layouts" i, i + count, ...
const std::vector<oracle::wgmma::WgmmaTile>& PlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::wgmma::WgmmaTile(gen::Source&)>& draw);
// Case `index` of `suite` with base seed `seed`, as the kernels build it: the layout its case seed
// picks from `layouts`, the recipe's values (oracle/wgmma/device_drawn_tile.h) placed by the
// oracle in an image of poison.
gen::GeneratedWgmma DrawJudgedTile(uint64_t seed, const char* suite,
                                   const std::vector<oracle::wgmma::WgmmaTile>& layouts,
                                   uint64_t index);
// The host's line for a kept tile whose D (row-major) came back: judged by the general model
// (suites/kinds/judged_worker.h JudgeKept).
std::string JudgeKeptTile(uint64_t index, const oracle::wgmma::WgmmaTile& t,
                          const std::vector<uint32_t>& d, bool device_failed);

// The layouts of a run with base seed `seed` (tiles without values), drawn once per process.
const std::vector<oracle::wgmma::WgmmaTile>& WgmmaJudgedLayoutTiles(uint64_t seed);
// The same as the kernel's table.
std::vector<harness::WgmmaJudgedLayout> WgmmaJudgedTable(
    const std::vector<oracle::wgmma::WgmmaTile>& layouts);

// Case `index` of a run with base seed `seed`, as the kernel builds it: its layout, its values
// placed in a poisoned image.
gen::GeneratedWgmma DrawSmemHwJudgedCase(uint64_t seed, uint64_t index);

int RunWgmmaJudgedWorker(const WorkerArgs& args, std::ostream& out);

}  // namespace tcfuzz::suites
