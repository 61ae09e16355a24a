// The host half of smem-hw-judged (harness/judged_suites.h) that needs no CUDA (built with or
// without a toolkit).
#include "harness/judged_suites.h"

namespace tcfuzz::harness {

bool WgmmaJudgedSpells(int n) {
  for (const int spelled : kWgmmaJudgedNs) {
    if (n == spelled) return true;
  }
  return false;
}

std::vector<uint32_t> WgmmaJudgedD(std::span<const uint32_t> regs, int n) {
  const int per_thread = n / 2;
  std::vector<uint32_t> d(static_cast<std::size_t>(kWgmmaJudgedM * n), 0);
  for (int t = 0; t < kWgmmaJudgedThreads; ++t) {
    for (int x = 0; x < per_thread; ++x) {
      const std::size_t at = static_cast<std::size_t>(t * per_thread + x);
      if (at >= regs.size()) return d;
      const oracle::tile::Coord c = oracle::tile::MapD(t, x);
      d[static_cast<std::size_t>(c.row * n + c.col)] = regs[at];
    }
  }
  return d;
}

}  // namespace tcfuzz::harness
