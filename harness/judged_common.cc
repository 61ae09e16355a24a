// The host half of the device-judged suites (harness/judged_suites.h) that needs no CUDA (built
// with or without a toolkit): what a launch's tables may hold, which the kernel and the host path
// (harness/judged_host.h) both check, and smem-hw-judged's D.
#include <span>

#include "harness/judged_suites.h"

namespace tcfuzz::harness {

namespace {

// The sparse kernels: every table's instruction one the kernel spells (harness/sparse_mma_asm.cuh:
// f16/bf16, k16/k32, both spellings, the selectors of the shape).
std::string CheckSpelled(std::span<const SparseExactTable> tables) {
  if (tables.empty()) return "no tables";  // a case picks its table modulo their count
  for (const SparseExactTable& t : tables) {
    const SparseExactInstruction& in = t.instruction;
    if (in.bf16 > 1 || in.k32 > 1 || in.ordered > 1 || in.selector > (in.k32 ? 1 : 3))
      return "the kernel spells no such instruction";
  }
  return {};
}

}  // namespace

template <>
std::string JudgedCheck(const SparseExactLaunch& l) {
  return CheckSpelled(l.tables);
}

template <>
std::string JudgedCheck(const SparseJudgedLaunch& l) {
  return CheckSpelled(l.tables);
}

template <>
std::string JudgedCheck(const DenseJudgedLaunch& l) {
  return l.table == nullptr ? "no table" : "";
}

template <>
std::string JudgedCheck(const WgmmaJudgedLaunch& l) {
  if (l.layouts.empty()) return "no layouts";  // a case picks its layout modulo their count
  int max_n = 0;
  for (const WgmmaJudgedLayout& layout : l.layouts) {
    if (!WgmmaJudgedSpells(layout.n) || layout.bf16 > 1 || layout.mn_a > 1 || layout.mn_b > 1)
      return "the kernel spells no such wgmma";
    max_n = layout.n > max_n ? layout.n : max_n;
  }
  // After the instruction the kernel's image holds the threads' D (128 x N/2 words) for the judge.
  if (l.image_bytes % 1024 != 0 || l.image_bytes > 128 * 1024 ||
      l.image_bytes < kWgmmaJudgedThreads * (max_n / 2) * sizeof(uint32_t))
    return "the image is not whole KiB, at most 128 KiB, holding D";
  return {};
}

template <>
std::string JudgedCheck(const Tcgen05JudgedLaunch& l) {
  if (l.layouts.empty()) return "no layouts";
  for (const Tcgen05JudgedLayout& layout : l.layouts) {
    if (layout.n < 8 || layout.n > kTcgen05JudgedMaxN || layout.n % 8 != 0 || layout.bf16 > 1 ||
        layout.mn_a > 1 || layout.mn_b > 1 || layout.ws > 1)
      return "the kernel runs no such tile";
  }
  // After the instruction the kernel's image holds D (128 x N words) for the judge.
  if (l.image_bytes % 1024 != 0 || l.image_bytes > 128 * 1024 ||
      l.image_bytes < kTcgen05JudgedThreads * kTcgen05JudgedMaxN * sizeof(uint32_t))
    return "the image is not whole KiB, at most 128 KiB, holding D";
  return {};
}

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
