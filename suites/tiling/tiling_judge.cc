#include "suites/tiling/tiling_judge.h"

#include <algorithm>
#include <functional>
#include <set>

#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/tiling_math.h"
#include "oracle/ascend/tiling_sim.h"
#include "suites/engine/stop_signals.h"

namespace tcfuzz::suites {

using namespace oracle::ascend;

namespace {

// Symbolic simulation walks every C tile: past this many the answer is validated only (and
// counted as such in the report). The numeric check runs below kNumericMacs multiply-adds.
constexpr int64_t kMaxSimTiles = int64_t{1} << 18;
constexpr int64_t kNumericMacs = int64_t{1} << 18;

bool Has(const std::vector<Finding>& fs, const std::string& rule) {
  return std::any_of(fs.begin(), fs.end(), [&](const Finding& f) { return f.rule == rule; });
}

// The operand and layout a read_past finding is about ("A NZ"), so a minimized NZ over-read
// stays one.
std::string SimReason(const SimFinding& f) {
  if (f.id.ends_with("read_past_a") || f.id.ends_with("read_past_b"))
    return f.message.substr(0, 1) + (f.message.compare(1, 4, " (NZ") == 0 ? " NZ" : " ND");
  return f.id;
}

SimResult Sim(const Problem& p, const TCubeTiling& t, bool clip) {
  return Simulate(p, t, SimOptions{SatMul({p.m, p.n, p.k}) <= kNumericMacs, clip});
}

// The accesses out of range (and C elements missed or repeated) under one kernel mode.
std::string Accesses(const SimResult& r) {
  if (r.Has("too_large")) return "not simulated (too many tiles)";
  std::string out;
  for (const SimFinding& f : r.findings) {
    static constexpr std::string_view kAccess[] = {
        "read_past_a",     "read_past_b", "write_past_c", "core_outside_grid", "c_unwritten",
        "c_written_twice", "k_past_end",  "k_loop",       "numeric_mismatch"};
    for (std::string_view k : kAccess) {
      if (f.id.ends_with(k)) out += (out.empty() ? "" : "; ") + f.message;
    }
  }
  return out.empty() ? "no access outside A, B or C, every element of C written once" : out;
}

}  // namespace

bool TooLargeToSimulate(const Problem& p, const TCubeTiling& t) {
  return SatMul({CeilDiv(p.m, t[kBaseM]), CeilDiv(p.n, t[kBaseN])}) > kMaxSimTiles;
}

std::vector<Finding> Judge(const Problem& p, const ChipProfile& chip, const TilerAnswer& a) {
  switch (a.kind) {
    case TilerAnswer::Kind::kRefused:
      return {};
    case TilerAnswer::Kind::kCrash:
      return {{"tiler.crash", "crash", a.detail}};
    case TilerAnswer::Kind::kHang:
      return {{"tiler.hang", "hang", a.detail}};
    case TilerAnswer::Kind::kGarbage:
      return {{"tiler.garbage", "garbage", a.detail}};
    case TilerAnswer::Kind::kTiling:
      break;
  }
  return JudgeTiling(p, a.tiling, Validate(p, a.tiling, chip));
}

std::vector<Finding> JudgeTiling(const Problem& p, const TCubeTiling& t, const TilingVerdict& v) {
  std::vector<Finding> out;
  if (!v.in_contract()) {
    for (const auto& x : v.problem.violations()) {
      if (!Has(out, std::string(x.rule->id)))
        out.push_back({std::string(x.rule->id), std::string(x.rule->id),
                       "answered a problem outside the contract (" + x.message + ")", true});
    }
    return out;
  }
  for (const auto& x : v.hard.violations()) {
    if (!Has(out, std::string(x.rule->id)))
      out.push_back({std::string(x.rule->id), x.field, x.message});
  }
  // The simulation runs on illegal answers too: a misaligned NZ tile is both a broken rule and
  // an over-read, and the second is what costs a kernel.
  if (v.hard.Violates("tiling.positive") || TooLargeToSimulate(p, t)) return out;
  for (const SimFinding& f : Sim(p, t, true).findings) {
    if (!Has(out, f.id)) out.push_back({f.id, SimReason(f), f.message});
  }
  return out;
}

std::string Consequence(const Problem& p, const ChipProfile& chip, const TCubeTiling& t,
                        const Finding& f, int64_t tiler_l1) {
  if (f.rule.starts_with("tiler.")) return "no tiling to judge";
  if (f.warning)
    return "no tiling can serve this problem; the tiler should refuse it (exit 1 with a reason)";
  if (f.rule == "tiling.l1_fit" || f.rule == "tiling.l1_kernel_reserve") {
    const int64_t told = tiler_l1 > 0 ? tiler_l1 : chip.l1_platform;
    std::string s = f.rule == "tiling.l1_fit"
                        ? "every kernel: the L1 blocks overrun the buffer itself"
                        : "kernels driven by their vector cores (MIX mode): their message "
                          "word in the top " +
                              std::to_string(chip.l1_platform - chip.l1) +
                              " B of L1 (TOTAL_L1_SIZE, from the kernel source) is overwritten";
    s += "; the tiler was told L1 = " + std::to_string(told) + " B (TCFUZZ_L1_SIZE)";
    const int64_t kernel = std::min(chip.l1, chip.l1_platform);
    if (told > kernel)
      s += ", more than the kernel's " + std::to_string(kernel) +
           " B: plan against the kernel's budget";
    return s;
  }
  if (t[kSingleCoreM] <= 0 || t[kSingleCoreN] <= 0 || t[kSingleCoreK] <= 0 || t[kBaseM] <= 0 ||
      t[kBaseN] <= 0 || t[kBaseK] <= 0 || t[kStepM] <= 0 || t[kStepN] <= 0 ||
      TooLargeToSimulate(p, t))
    return "not simulated";
  const std::string clipped = Accesses(Sim(p, t, true)), whole = Accesses(Sim(p, t, false));
  // What the simulation does not model, it cannot call harmless.
  const std::string scope =
      f.rule.starts_with("tiling.sim.") || f.rule == "tiling.single_core" ||
              f.rule == "tiling.too_few_cores" || f.rule == "tiling.nz_alignment"
          ? ""
          : " (the simulation models the core mapping, tile order, K loop and operand reads, not "
            "buffer sizes or field values: " +
                f.rule + " is not simulated)";
  if (clipped == whole) return "every kernel, tails clipped or not: " + clipped + scope;
  return "kernels that clip their tails (SetTail, as the samples do): " + clipped +
         ". Kernels that do not: " + whole + scope;
}

Problem MinimizeProblem(const Problem& start, const ChipProfile& chip, const std::string& chip_arg,
                        const Tiler& tiler, const Finding& f, int budget) {
  Problem best = start;
  const std::set<std::string> contract = ValidateProblem(start, chip).RuleIds();
  const auto fails = [&](const Problem& q) {
    if (budget <= 0 || StopRequested() || ValidateProblem(q, chip).RuleIds() != contract)
      return false;
    --budget;
    for (const Finding& g : Judge(q, chip, tiler(q, chip, chip_arg))) {
      if (g.rule == f.rule) return g.reason == f.reason;
    }
    return false;
  };
  // A dimension: the smallest value that still fails, by bisection below the current one
  // (which fails); 1 first, the simplest answer.
  // Inside the contract, in units of the dimension's granule (an NZ M moves by 16 rows), so
  // the midpoints stay in the class.
  const auto shrink_dim = [&](int64_t Problem::*dim) {
    const DimLimits lim = ContractLimits(best, chip);
    const int64_t g = !contract.empty()    ? 1
                      : dim == &Problem::m ? lim.m_granule
                      : dim == &Problem::n ? lim.n_granule
                                           : lim.k_granule;
    Problem q = best;
    q.*dim = g;
    if (best.*dim > g && fails(q)) {
      best = q;
      return;
    }
    int64_t lo = 1, hi = best.*dim / g;  // in granules: lo passes (or is untested), hi fails
    while (hi - lo > 1 && budget > 0) {
      q.*dim = (lo + (hi - lo) / 2) * g;
      if (fails(q)) {
        hi = q.*dim / g;
      } else {
        lo = q.*dim / g;
      }
    }
    best.*dim = std::max(hi * g, g);
  };
  // Towards the simplest problem: no bias, no transposes, ND, Norm, float16 in / float32 out.
  const std::vector<std::function<void(Problem&)>> simplify = {
      [](Problem& q) { q.is_bias = false; },
      [](Problem& q) { q.trans_a = false; },
      [](Problem& q) { q.trans_b = false; },
      [](Problem& q) { q.a_format = Format::kND; },
      [](Problem& q) { q.b_format = Format::kND; },
      [](Problem& q) { q.schedule = Schedule::kNorm; },
      [](Problem& q) { q.a = q.b = DType::kFloat16, q.c = q.bias = DType::kFloat32; },
  };
  for (int round = 0; round < 4 && budget > 0; ++round) {
    const Problem before = best;
    for (int64_t Problem::*dim : {&Problem::m, &Problem::n, &Problem::k}) shrink_dim(dim);
    for (const auto& step : simplify) {
      Problem q = best;
      step(q);
      if (ProblemToJson(q) != ProblemToJson(best) && fails(q)) best = q;
    }
    if (ProblemToJson(before) == ProblemToJson(best)) break;
  }
  return best;
}

}  // namespace tcfuzz::suites
