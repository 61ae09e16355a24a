// The host halves of the GPU suites drawn and judged on the device (the launch structs they fill
// are in harness/judged_suites.h, the kernels in harness/<suite>.cu):
//  - `sparse-mma-exact`: small-integer mma.sp cases (f16/bf16, k16/k32, both spellings, every
//    legal selector), one warp per case, a launch of a million shipping back only what failed.
//  - `sparse-mma-judged`: the same variants with float values in the dense recipe's three modes,
//    judged by the bit-exact model's 64-bit path with the device's numerics row.
//  - `dense-mma-judged`: m16n8k16 f16/bf16 -> f32 mma.sync cases in float value modes, judged the
//    same way, launches of 65,536.
//  - `smem-hw-judged`: wgmma.mma_async m64nNk16 f16/bf16 -> f32 tiles (sm_90a) whose
//    shared-memory image is built on the device, one warpgroup per case; the layouts (both
//    descriptors, N, type) are the smem-hw generator's, kWgmmaJudgedLayouts of them drawn from the
//    base seed alone, and case `index` picks one by its case seed and draws its values.
//  - `tcgen05-judged`: tcgen05.mma and .mma.ws (kind::f16, cta_group::1) M = 128 tiles (sm_100a)
//    built and judged the same way, one CTA per case, a third through .ws with a legal
//    zero-column mask.
// The host rebuilds and judges every failing case and one in kJudgedSampleEvery (picked by case
// seed) with its own oracle, the general model; a verdict the two models do not share is a tcfuzz
// defect (suites/kinds/judged_worker.h). A new judged suite adds its lines to each group below.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "generators/mma/device_drawn_dense_gen.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "generators/sparse/device_drawn_gen.h"
#include "harness/judged_suites.h"
#include "oracle/core/result.h"
#include "oracle/numerics/dot_product.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

// Names (sparse-mma-exact's is the engine's: suites/engine/device_campaign.h) and how often a
// passing case is sampled for the host's judgement.
inline constexpr const char* kDenseMmaJudgedSuite = "dense-mma-judged";
inline constexpr const char* kSparseMmaJudgedSuite = "sparse-mma-judged";
inline constexpr const char* kSmemHwJudgedSuite = "smem-hw-judged";
inline constexpr const char* kTcgen05JudgedSuite = "tcgen05-judged";
inline constexpr uint64_t kJudgedSampleEvery = 4096;
// Layouts a tile suite's run draws from its base seed.
inline constexpr uint32_t kWgmmaJudgedLayouts = 1024;
inline constexpr uint32_t kTcgen05JudgedLayouts = 1024;

// The kernels' tables, from the oracle's maps. Sparse: one per variant, same order (fragment
// maps, metadata locations, defined nibbles, kept positions, the small integers' bit patterns);
// dense: where each lane's register elements sit (f16 and bf16 share them); the tiles': a run's
// layouts (tiles without values, drawn once per process) and the same as the kernel's table (for
// tcgen05 the instruction descriptor from the oracle's encoder and the column map from its
// expansion of the mask; an error names a layout the kernel cannot run).
std::vector<harness::SparseExactTable> SparseExactTables(
    std::span<const gen::DrawnVariant> variants);
harness::DenseJudgedTable DenseJudgedTableOf();
const std::vector<oracle::tile::DescriptorTile>& WgmmaJudgedLayoutTiles(uint64_t seed);
std::vector<harness::WgmmaJudgedLayout> WgmmaJudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts);
const std::vector<oracle::tile::DescriptorTile>& Tcgen05JudgedLayoutTiles(uint64_t seed);
oracle::Result<std::vector<harness::Tcgen05JudgedLayout>> Tcgen05JudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts);

// The family of each drawn variant (SparseFamily: f32 accumulators), in the variants' order; and
// a judged sparse suite's families from them.
std::vector<std::string> SparseVariantFamilies(std::span<const gen::DrawnVariant> variants);
void SetSparseFamilies(JudgedSuiteHalf& half, std::span<const gen::DrawnVariant> variants,
                       uint64_t seed, std::string_view suite);

// Case `index` of a run with base seed `seed`, as the kernel draws it (a tile: its layout and its
// values placed in a poisoned image).
gen::DeviceDrawnSparseFloat DrawSparseJudgedCase(uint64_t seed, uint64_t index);
gen::DeviceDrawnDense DrawDenseJudgedCase(uint64_t seed, uint64_t index);
gen::GeneratedTile DrawSmemHwJudgedCase(uint64_t seed, uint64_t index);
gen::GeneratedTile DrawTcgen05JudgedCase(uint64_t seed, uint64_t index);

// The support predicates (DeviceSuite::unsupported); both sparse-mma-exact suites share one.
std::string SparseExactUnsupported(const harness::DeviceInfo& d);
std::string SparseJudgedUnsupported(const harness::DeviceInfo& d);
std::string DenseJudgedUnsupported(const harness::DeviceInfo& d);
std::string WgmmaJudgedUnsupported(const harness::DeviceInfo& d);
std::string Tcgen05JudgedUnsupported(const harness::DeviceInfo& d);

// The launch of a table's cases on a device of numerics row `gpu` (one the predicate accepts).
harness::SparseJudgedLaunch SparseJudgedLaunchFor(std::span<const harness::SparseExactTable> tables,
                                                  oracle::num::Gpu gpu);
harness::DenseJudgedLaunch DenseJudgedLaunchFor(const harness::DenseJudgedTable& table,
                                                oracle::num::Gpu gpu);
harness::WgmmaJudgedLaunch WgmmaJudgedLaunchFor(std::span<const harness::WgmmaJudgedLayout> table,
                                                oracle::num::Gpu gpu);
harness::Tcgen05JudgedLaunch Tcgen05JudgedLaunchFor(
    std::span<const harness::Tcgen05JudgedLayout> table, oracle::num::Gpu gpu);

// The workers (DeviceSuite::run_worker).
int RunSparseExactWorker(const WorkerArgs& args, std::ostream& out);
int RunSparseJudgedWorker(const WorkerArgs& args, std::ostream& out);
int RunDenseJudgedWorker(const WorkerArgs& args, std::ostream& out);
int RunWgmmaJudgedWorker(const WorkerArgs& args, std::ostream& out);
int RunTcgen05JudgedWorker(const WorkerArgs& args, std::ostream& out);

// What a dense-mma-judged case and the D the device returned show (DeviceSuite::describe).
DescribedCase DescribeDenseJudged(uint64_t seed, uint64_t index,
                                  const std::vector<uint32_t>& observed, oracle::num::Gpu gpu);

}  // namespace tcfuzz::suites
