// What the two sparse host-run twins (sparse-mma-exact, sparse-mma-judged) share: a lane's
// registers as the kernel builds them, held to the harness's packing of the oracle's case.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>

#include "generators/sparse/sparse_mma_gen.h"
#include "harness/sparse_mma_exact_lane.h"
#include "harness/sparse_mma_exec.h"

namespace tcfuzz::test {

// The harness's packing of one generated case (what the batched kernel's lanes hold).
inline harness::PackedMmaSp PackOne(const gen::GeneratedSparse& g) {
  const harness::MmaSpSpec spec{g.op.form,     g.op.variant, g.op.selector, g.tile.a_type,
                                g.tile.b_type, g.tile.cd,    false};
  const harness::MmaSpCase one{g.op, g.tile};
  return harness::PackMmaSp(spec, std::span<const harness::MmaSpCase>(&one, 1));
}

// Lane `lane`'s A, B, C and metadata registers `r` equal the packed case `p`'s; `what` names
// the case in a failure.
inline void ExpectLaneIsPacked(const harness::SparseExactLane& r, const harness::PackedMmaSp& p,
                               int a_regs, int b_regs, int lane, const std::string& what) {
  for (int x = 0; x < a_regs; ++x)
    ASSERT_EQ(r.a[x], p.a[static_cast<std::size_t>(lane * a_regs + x)]) << what << " lane " << lane;
  for (int x = 0; x < b_regs; ++x)
    ASSERT_EQ(r.b[x], p.b[static_cast<std::size_t>(lane * b_regs + x)]) << what << " lane " << lane;
  for (int x = 0; x < 4; ++x)
    ASSERT_EQ(r.c[x], p.c[static_cast<std::size_t>(lane * 4 + x)]) << what << " lane " << lane;
  ASSERT_EQ(r.e, p.e[static_cast<std::size_t>(lane)]) << what << " lane " << lane;
}

}  // namespace tcfuzz::test
