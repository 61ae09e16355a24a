// The batch kernel every warp-level MMA module shares: one warp per case, four warps a block;
// each lane loads its A, B, C (and sparse metadata) registers from per-lane arrays, issues the
// instruction once and stores D. Rendering only.
#pragma once

#include <string>

namespace tcfuzz::harness {

// "{%name0, %name1, ...}"
std::string PtxRegList(const char* name, int n);

struct WarpMmaKernel {
  std::string entry;        // e.g. "tcfuzz_mma_sp"
  std::string version;      // ".version 8.5"
  std::string instruction;  // one line, registers %a0.., %b0.., %c0.., %d0.. (and %e)
  int a_regs = 0, b_regs = 0, cd_regs = 0;
  bool metadata = false;  // a per-lane %e (sparse): the parameters are a, b, c, e, d, n
};

// Parameters a, b, c, [e,] d (u64 pointers) and n (u32 cases), in that order.
std::string WarpMmaModule(const WarpMmaKernel& k, const std::string& target);

}  // namespace tcfuzz::harness
