#include "oracle/ascend/problem_contract.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::ascend {
namespace {

// Sections cite docs/ascend-tiling.md, whose rows name the CANN source.
constexpr Rule kNzAlign{"problem.nz_alignment", "docs/ascend-tiling.md P1 (TCubeTiling doc)",
                        "NZ A: M a multiple of 16 and K of C0(A); NZ B: N of 16 and K of C0(B)"};
constexpr Rule kNdInner{"problem.nd_inner_dim", "docs/ascend-tiling.md P2, K12 (doc)",
                        "an ND operand's inner dimension <= 65535 (except arch 3510) unless the "
                        "kernel enables intrinsicsCheck"};
constexpr Rule k310POut{"problem.310p_output", "docs/ascend-tiling.md P3 (kernel assert, 2002)",
                        "310P: N*sizeof(C) a multiple of 32 bytes (the ND output rows)"};

constexpr std::array<const Rule*, 3> kRules = {&kNzAlign, &kNdInner, &k310POut};

constexpr int64_t kNdInnerMax = 65535;

int64_t Lcm(int64_t a, int64_t b) { return a / std::gcd(a, b) * b; }

}  // namespace

Span<const Rule* const> ProblemRules() { return kRules; }

DimLimits ContractLimits(const Problem& p, const ChipProfile& chip) {
  DimLimits d;
  if (p.a_format == Format::kNZ) d.m_granule = 16, d.k_granule = Lcm(d.k_granule, C0(p.a));
  if (p.b_format == Format::kNZ) d.n_granule = 16, d.k_granule = Lcm(d.k_granule, C0(p.b));
  // N * sizeof(C) % 32 == 0: N a multiple of 64 / (2 * sizeof(C)).
  if (chip.npu_arch == 2002)
    d.n_granule = Lcm(d.n_granule, std::max<int64_t>(1, 64 / SizeTimes2(p.c)));
  if (chip.npu_arch != 3510) {
    const auto limit = [](int64_t& max) { max = kNdInnerMax; };
    if (p.a_format == Format::kND) limit(p.trans_a ? d.m_max : d.k_max);
    if (p.b_format == Format::kND) limit(p.trans_b ? d.k_max : d.n_max);
  }
  return d;
}

Verdict ValidateProblem(const Problem& p, const ChipProfile& chip) {
  Verdict v;
  const auto s = [](int64_t x) { return std::to_string(x); };
  if (p.a_format == Format::kNZ && (p.m % 16 || p.k % C0(p.a)))
    v.Add(kNzAlign, "aFormat", static_cast<uint64_t>(p.m % 16 ? p.m : p.k),
          "NZ A needs M % 16 == 0 and K % " + s(C0(p.a)) + " == 0; M = " + s(p.m) +
              ", K = " + s(p.k));
  if (p.b_format == Format::kNZ && (p.n % 16 || p.k % C0(p.b)))
    v.Add(kNzAlign, "bFormat", static_cast<uint64_t>(p.n % 16 ? p.n : p.k),
          "NZ B needs N % 16 == 0 and K % " + s(C0(p.b)) + " == 0; N = " + s(p.n) +
              ", K = " + s(p.k));
  if (chip.npu_arch != 3510) {
    const int64_t a_inner = p.trans_a ? p.m : p.k, b_inner = p.trans_b ? p.k : p.n;
    if (p.a_format == Format::kND && a_inner > kNdInnerMax)
      v.Add(kNdInner, p.trans_a ? "M" : "K", static_cast<uint64_t>(a_inner),
            "ND A's inner dimension " + std::string(p.trans_a ? "M" : "K") + " = " + s(a_inner) +
                " exceeds 65535 on " + chip.name);
    if (p.b_format == Format::kND && b_inner > kNdInnerMax)
      v.Add(kNdInner, p.trans_b ? "K" : "N", static_cast<uint64_t>(b_inner),
            "ND B's inner dimension " + std::string(p.trans_b ? "K" : "N") + " = " + s(b_inner) +
                " exceeds 65535 on " + chip.name);
  }
  if (chip.npu_arch == 2002 && (p.n * SizeTimes2(p.c) / 2) % 32 != 0)
    v.Add(k310POut, "N", static_cast<uint64_t>(p.n),
          "310P needs N*sizeof(C) % 32 == 0; N = " + s(p.n) + " of " + std::string(Name(p.c)));
  return v;
}

}  // namespace tcfuzz::oracle::ascend
