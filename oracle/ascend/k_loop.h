// The K loop of one C tile, as the kernel walks it (../shared/reference/ascend-tcubetiling.md §4):
// Norm steps through singleCoreK in baseK steps with the tail last; MDL (S7 KLoopMDLBase) runs
// an outer loop over L1 chunks of stepKa*baseK (A) and stepKb*baseK (B) columns and an inner loop
// over the smaller chunk. The MDL arithmetic is modelled as the kernel writes it, including the
// parts that go wrong on odd tilings:
//  - the copy loads A's chunk outerIdx / (stepKa / minStep) and B's likewise (integer division),
//    so with stepKa and stepKb not multiples of one another an outer iteration can read K columns
//    that are not in the chunk it loaded (hazard K8);
//  - inner steps are cut in units of ceil(baseK / C0) * C0, so a baseK that is not a multiple of
//    A's C0 leaves K columns unread.
// The validator (rule tiling.mdl_k_loop) and the simulator both ask KLoopFault, so a tiling the
// validator passes walks its K loop cleanly in the simulator. Derived from the kernel source, not
// from hardware.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::oracle::ascend {

struct KStep {
  int64_t k0, len;  // the K columns [k0, k0 + len) this step multiplies
};

// The first place the K loop reads a K column twice, skips one, or reads one from an L1 chunk
// that does not hold it; nullopt when it walks [0, singleCoreK) exactly once. Cost is bounded
// on any image (at most a few thousand outer iterations are walked; the rest repeat them).
// Requires singleCoreK, baseK, stepKa, stepKb > 0.
std::optional<std::string> KLoopFault(const Problem& p, const TCubeTiling& t);

// Every step of the K loop in order (what the numeric simulation multiplies); for tilings with
// at most max_steps baseK steps, else empty.
std::vector<KStep> KLoopSteps(const Problem& p, const TCubeTiling& t, int64_t max_steps);

}  // namespace tcfuzz::oracle::ascend
