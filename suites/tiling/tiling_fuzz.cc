#include "suites/tiling/tiling_fuzz.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "generators/ascend/tcube_tiling_gen.h"
#include "generators/core/random_source.h"
#include "oracle/ascend/reference_tiler.h"
#include "oracle/ascend/tiling_math.h"
#include "oracle/ascend/tiling_sim.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {

using namespace oracle::ascend;

namespace {

// Symbolic simulation walks every C tile: past this many the answer is validated only (and
// counted as such in the report). The numeric check runs below kNumericMacs multiply-adds.
constexpr int64_t kMaxSimTiles = int64_t{1} << 18;
constexpr int64_t kNumericMacs = int64_t{1} << 18;

TilerAnswer ParseAnswer(const std::string& out) {
  TilerAnswer a;
  const std::size_t first = out.find_first_not_of(" \t\r\n");
  oracle::Result<TCubeTiling> t = oracle::Result<TCubeTiling>::Fail("");
  if (first != std::string::npos && out[first] == '{') {
    t = FromJson(out);
  } else if (out.size() == 4 * kTilingFields) {
    t = FromImage(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(out.data()), out.size()));
  } else {
    t = oracle::Result<TCubeTiling>::Fail("stdout is neither a JSON tiling nor a 200-byte image (" +
                                          std::to_string(out.size()) + " bytes)");
  }
  if (!t.ok()) {
    a.kind = TilerAnswer::Kind::kGarbage;
    a.detail = t.error();
    return a;
  }
  a.kind = TilerAnswer::Kind::kTiling;
  a.tiling = t.value();
  return a;
}

// The problem on one line (ProblemToJson ends with a newline).
std::string OneLine(const Problem& p) {
  std::string s = ProblemToJson(p);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string FirstLine(const std::string& s) {
  const std::string line = s.substr(0, s.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

}  // namespace

Tiler ReferenceTilerUnderTest() {
  return [](const Problem& p, const ChipProfile& chip, const std::string&) {
    TilerAnswer a;
    auto t = MakeTiling(p, chip);
    if (!t.ok()) {
      a.kind = TilerAnswer::Kind::kRefused;
      a.detail = t.error();
      return a;
    }
    a.kind = TilerAnswer::Kind::kTiling;
    a.tiling = t.value();
    return a;
  };
}

Tiler ExternalTiler(const std::string& command, std::chrono::milliseconds timeout) {
  return [command, timeout](const Problem& p, const ChipProfile&, const std::string& chip_arg) {
    CommandOptions o;
    o.timeout = timeout;
    o.env = {{"TCFUZZ_CHIP", chip_arg}};
    const CommandResult r = RunCommand(command, ProblemToJson(p), o);
    TilerAnswer a;
    if (!r.started) {
      a.kind = TilerAnswer::Kind::kCrash;
      a.detail = r.Describe(timeout);
    } else if (r.timed_out) {
      a.kind = TilerAnswer::Kind::kHang;
      a.detail = r.Describe(timeout);
    } else if (r.signal != 0 || (r.exit_code != 0 && r.exit_code != 1)) {
      a.kind = TilerAnswer::Kind::kCrash;
      a.detail = r.Describe(timeout) + (r.err.empty() ? "" : ": " + FirstLine(r.err));
    } else if (r.exit_code == 1) {
      if (r.out.find_first_not_of(" \t\r\n") == std::string::npos) {
        a.kind = TilerAnswer::Kind::kRefused;
        a.detail = FirstLine(r.err);
      } else {
        a.kind = TilerAnswer::Kind::kGarbage;
        a.detail = "exit 1 (a refusal) with output on stdout";
      }
    } else if (r.out_truncated) {
      a.kind = TilerAnswer::Kind::kGarbage;
      a.detail = "more than 1 MiB on stdout";
    } else {
      a = ParseAnswer(r.out);
    }
    return a;
  };
}

namespace {

bool TooLargeToSimulate(const Problem& p, const TCubeTiling& t) {
  return SatMul({CeilDiv(p.m, t[kBaseM]), CeilDiv(p.n, t[kBaseN])}) > kMaxSimTiles;
}

// A tiling answer, given its verdict: the first hard rule it breaks, else what simulating it finds.
std::optional<Finding> JudgeTiling(const Problem& p, const TCubeTiling& t, const TilingVerdict& v) {
  if (!v.hard.legal())
    return Finding{std::string(v.hard.violations()[0].rule->id), v.hard.violations()[0].message};
  if (TooLargeToSimulate(p, t)) return std::nullopt;
  const SimResult r = Simulate(p, t, SatMul({p.m, p.n, p.k}) <= kNumericMacs);
  if (!r.clean) return Finding{"tiling.simulation", r.findings[0]};
  return std::nullopt;
}

}  // namespace

std::optional<Finding> Judge(const Problem& p, const ChipProfile& chip, const TilerAnswer& a) {
  switch (a.kind) {
    case TilerAnswer::Kind::kRefused:
      return std::nullopt;
    case TilerAnswer::Kind::kCrash:
      return Finding{"tiler.crash", a.detail};
    case TilerAnswer::Kind::kHang:
      return Finding{"tiler.hang", a.detail};
    case TilerAnswer::Kind::kGarbage:
      return Finding{"tiler.garbage", a.detail};
    case TilerAnswer::Kind::kTiling:
      break;
  }
  return JudgeTiling(p, a.tiling, Validate(p, a.tiling, chip));
}

Problem MinimizeProblem(const Problem& start, const ChipProfile& chip, const std::string& chip_arg,
                        const Tiler& tiler, const std::string& rule, int budget) {
  Problem best = start;
  const auto fails = [&](const Problem& q) {
    if (budget <= 0) return false;
    --budget;
    const auto f = Judge(q, chip, tiler(q, chip, chip_arg));
    return f && f->rule == rule;
  };
  // A dimension: the smallest value that still fails, by bisection below the current one
  // (which fails); 1 first, the simplest answer.
  const auto shrink_dim = [&](int64_t Problem::*dim) {
    Problem q = best;
    q.*dim = 1;
    if (best.*dim > 1 && fails(q)) {
      best = q;
      return;
    }
    int64_t lo = 1, hi = best.*dim;  // lo passes (or is untested), hi fails
    while (hi - lo > 1 && budget > 0) {
      q.*dim = lo + (hi - lo) / 2;
      if (fails(q)) {
        hi = q.*dim;
      } else {
        lo = q.*dim;
      }
    }
    best.*dim = hi;
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

namespace {

struct Kept {
  Finding finding;
  uint64_t first_case = 0;
  uint64_t count = 0;
  std::string chip_arg;
  Problem original, minimized;
  std::optional<TCubeTiling> tiling;  // the tiler's answer to the minimized problem
  std::string files;                  // path prefix of the reproducer files
};

std::string Reproducer(const Kept& k, const TilingFuzzOptions& o, const std::string& stem) {
  const std::string tiler = o.tiler_command.empty()
                                ? "tcfuzz tiling make --chip \"$TCFUZZ_CHIP\" --problem -"
                                : o.tiler_command;
  std::string s = "tcfuzz tiling fuzz finding: " + k.finding.rule + "\n";
  s += "message: " + k.finding.message + "\n";
  s +=
      "tiler: " + (o.tiler_command.empty() ? std::string("the reference tiler") : o.tiler_command) +
      "\n";
  s += "chip: " + k.chip_arg + "\n";
  s += "seed: " + std::to_string(o.seed) + ", case " + std::to_string(k.first_case) + ", seen " +
       std::to_string(k.count) + " times\n";
  s += "original problem: " + OneLine(k.original) + "\n";
  s += "minimized problem (" + stem + ".problem.json): " + OneLine(k.minimized) + "\n";
  s += "rerun the tiler:\n  TCFUZZ_CHIP='" + k.chip_arg + "' sh -c '" + tiler + "' < " + stem +
       ".problem.json\n";
  if (k.tiling) {
    s += "check its answer (" + stem + ".tiling.json):\n  tcfuzz tiling check --chip '" +
         k.chip_arg + "' --problem " + stem + ".problem.json " + stem +
         ".tiling.json\n  tcfuzz tiling simulate --chip '" + k.chip_arg + "' --problem " + stem +
         ".problem.json " + stem + ".tiling.json --numeric\n";
  }
  return s;
}

}  // namespace

int RunTilingFuzz(const TilingFuzzOptions& o, std::ostream& out) {
  const Tiler tiler = o.tiler_command.empty() ? ReferenceTilerUnderTest()
                                              : ExternalTiler(o.tiler_command, o.timeout);
  const uint64_t cases = o.cases == 0 && o.seconds <= 0 ? 2000 : o.cases;
  out << "tcfuzz tiling fuzz: seed " << o.seed << ", tiler "
      << (o.tiler_command.empty() ? std::string("reference") : "'" + o.tiler_command + "'")
      << ", chip " << (o.chip_arg.empty() ? std::string("every built-in") : o.chip_arg) << "\n";
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::map<std::string, Kept> kept;                    // by rule
  std::map<std::string, uint64_t> warnings, refusals;  // by rule / by reason
  uint64_t done = 0, refused = 0, answered = 0, validated_only = 0;
  const auto chips = ChipProfiles();
  for (uint64_t i = 0; o.seconds > 0 ? elapsed() < o.seconds : i < cases; ++i) {
    gen::RandomSource src(gen::CaseSeed(o.seed, "tiling-fuzz", i));
    const ChipProfile& chip = o.chip ? *o.chip : chips[src.Below(chips.size())];
    const std::string chip_arg = o.chip ? o.chip_arg : chip.name;
    const Problem p = gen::DrawTilingProblem(src);
    const TilerAnswer a = tiler(p, chip, chip_arg);
    ++done;
    if (a.kind == TilerAnswer::Kind::kRefused) {
      ++refused;
      if (refusals.size() < 32 || refusals.count(a.detail)) ++refusals[a.detail];
    }
    std::optional<Finding> f;
    if (a.kind == TilerAnswer::Kind::kTiling) {
      ++answered;
      const TilingVerdict v = Validate(p, a.tiling, chip);  // once: warnings, then the judgement
      for (const auto& w : v.warnings.violations()) ++warnings[std::string(w.rule->id)];
      if (v.hard.legal() && TooLargeToSimulate(p, a.tiling)) ++validated_only;
      f = JudgeTiling(p, a.tiling, v);
    } else {
      f = Judge(p, chip, a);
    }
    if (!f) continue;
    auto [it, fresh] = kept.try_emplace(f->rule);
    ++it->second.count;
    if (!fresh) continue;
    Kept& k = it->second;
    k.finding = *f, k.first_case = i, k.chip_arg = chip_arg, k.original = p;
    out << "case " << i << ": " << f->rule << ": " << f->message << " (minimizing)\n";
    // Every try at a hang costs the whole deadline: a few only.
    const int budget = f->rule == "tiler.hang" ? std::min(o.minimize_budget, 6) : o.minimize_budget;
    k.minimized = MinimizeProblem(p, chip, chip_arg, tiler, f->rule, budget);
    const TilerAnswer again = tiler(k.minimized, chip, chip_arg);
    if (const auto g = Judge(k.minimized, chip, again); g && g->rule == f->rule) k.finding = *g;
    if (again.kind == TilerAnswer::Kind::kTiling) k.tiling = again.tiling;
  }
  // Reproducers, then the summary: each file written atomically.
  const double seconds = elapsed();
  nlohmann::ordered_json j;
  j["kind"] = "tiling_fuzz";
  j["command_line"] = o.command_line;
  j["seed"] = o.seed;
  j["tiler"] = o.tiler_command.empty() ? "reference" : o.tiler_command;
  j["chip"] = o.chip_arg.empty() ? "every built-in" : o.chip_arg;
  j["cases"] = done;
  j["answered"] = answered;
  j["refused"] = refused;
  j["validated_only"] = validated_only;
  j["seconds"] = seconds;
  j["warnings"] = warnings;
  j["refusals"] = refusals;
  j["findings"] = nlohmann::ordered_json::array();
  int index = 0;
  bool write_failed = false;
  for (auto& [rule, k] : kept) {
    const std::string stem = std::to_string(index++) + "-" + rule;
    const std::string base = o.out_dir + "/" + stem;
    bool ok = WriteFileAtomic(base + ".problem.json", ProblemToJson(k.minimized)).ok();
    if (k.tiling) ok = ok && WriteFileAtomic(base + ".tiling.json", ToJson(*k.tiling)).ok();
    ok = ok && WriteFileAtomic(base + ".txt", Reproducer(k, o, stem)).ok();
    write_failed = write_failed || !ok;
    j["findings"].push_back(
        {{"rule", rule},
         {"message", k.finding.message},
         {"count", k.count},
         {"first_case", k.first_case},
         {"chip", k.chip_arg},
         {"reproducer", base + ".txt"},
         {"problem", nlohmann::json::parse(ProblemToJson(k.minimized))},
         {"original_problem", nlohmann::json::parse(ProblemToJson(k.original))}});
  }
  // A tiler's stderr reaches the summary (refusal reasons, crash messages): invalid UTF-8 is
  // replaced rather than thrown on.
  const auto summary =
      WriteFileAtomic(o.out_dir + "/summary.json",
                      j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (!summary.ok() || write_failed) {
    out << "tcfuzz: error: cannot write the report in " << o.out_dir
        << (summary.ok() ? "" : ": " + summary.error()) << "\n";
    return 2;
  }
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f s, %.0f cases/s", seconds,
                seconds > 0 ? static_cast<double>(done) / seconds : 0.0);
  out << done << " cases (" << answered << " answered, " << refused << " refused, "
      << validated_only << " too large to simulate) in " << rate << "; " << kept.size()
      << " failing rule" << (kept.size() == 1 ? "" : "s") << "\n";
  for (const auto& [rule, k] : kept)
    out << "  " << rule << " x" << k.count << ": " << k.finding.message << "\n";
  out << "report: " << o.out_dir << "/summary.json\n";
  return kept.empty() ? 0 : 1;
}

}  // namespace tcfuzz::suites
