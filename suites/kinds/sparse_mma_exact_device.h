// The worker side of the `sparse-mma-exact` GPU suite: small-integer mma.sp cases (f16/bf16,
// k16/k32, both spellings, every legal selector) drawn and checked on the device, one warp per
// case, so a launch of a million cases ships back only what failed (harness/sparse_mma_exact.h).
// The host still judges with the oracle: every failing case, and one case in
// kSparseExactSampleEvery (picked by case seed) whatever the device said, which keeps the
// device-side draw and check honest against the host generator and the bit-exact reference.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "generators/sparse/device_drawn_gen.h"
#include "harness/sparse_mma_exact_lane.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

inline constexpr uint64_t kSparseExactSampleEvery = 4096;

// One table per variant, same order: the oracle's fragment maps, metadata locations, defined
// nibbles and kept positions, and the small integers' bit patterns.
std::vector<harness::SparseExactTable> SparseExactTables(
    std::span<const gen::DrawnVariant> variants);

// The support predicate of both sparse-mma-exact suites (DeviceSuite::unsupported).
std::string SparseExactUnsupported(const harness::DeviceInfo& d);

int RunSparseExactWorker(const WorkerArgs& args, std::ostream& out);

}  // namespace tcfuzz::suites
