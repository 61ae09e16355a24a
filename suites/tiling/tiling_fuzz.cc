#include "suites/tiling/tiling_fuzz.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "generators/ascend/tcube_tiling_gen.h"
#include "generators/core/random_source.h"
#include "oracle/ascend/problem_contract.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/report_folder.h"
#include "suites/engine/stop_signals.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {

using namespace oracle::ascend;

namespace {

// The problem on one line (ProblemToJson ends with a newline).
std::string OneLine(const Problem& p) {
  std::string s = ProblemToJson(p);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string ContractClass(const Problem& p, const ChipProfile& chip) {
  const oracle::Verdict v = ValidateProblem(p, chip);
  return v.legal() ? "inside the contract"
                   : "outside the contract: " + oracle::JoinRuleIds(v.RuleIds());
}

struct Kept {
  Finding finding;
  uint64_t first_case = 0;
  uint64_t count = 0;
  std::string chip_arg;
  const ChipProfile* chip = nullptr;  // the built-in profile, or options.chip
  Problem original, minimized;
  std::optional<TCubeTiling> tiling;  // the tiler's answer to the minimized problem
  std::string consequence;
};

// The reproducer's text. Its commands run from the reproducer folder, every word quoted.
std::string Reproducer(const Kept& k, const TilingFuzzOptions& o, const std::string& stem) {
  // A chip profile file by its absolute path: the commands run from the reproducer folder.
  std::error_code ec;
  const std::string chip_path = std::filesystem::is_regular_file(k.chip_arg, ec)
                                    ? std::filesystem::absolute(k.chip_arg, ec).string()
                                    : k.chip_arg;
  const std::string chip = ShellQuote(chip_path);
  const std::string problem = ShellQuote(stem + ".problem.json");
  std::string s = "tcfuzz tiling fuzz finding: " + k.finding.rule +
                  (k.finding.warning ? " (warning)" : "") + "\n";
  s += "message: " + k.finding.message + "\n";
  s += "consequence: " + k.consequence + "\n";
  s +=
      "tiler: " + (o.tiler_command.empty() ? std::string("the reference tiler") : o.tiler_command) +
      "\n";
  s += "chip: " + k.chip_arg + "\n";
  s += "problem class: " + ContractClass(k.minimized, *k.chip) + "\n";
  s += "seed: " + std::to_string(o.seed) + ", case " + std::to_string(k.first_case) + ", seen " +
       std::to_string(k.count) + " times\n";
  s += "original problem: " + OneLine(k.original) + "\n";
  s += "minimized problem (" + stem + ".problem.json): " + OneLine(k.minimized) + "\n";
  s += "rerun the tiler (from this folder):\n  ";
  if (o.tiler_command.empty()) {
    s += ToolCommand() + " tiling make --chip " + chip + " --problem " + problem + "\n";
  } else {
    // The tiler runs in the folder tcfuzz ran in (its command may name files relative to it),
    // with the environment the protocol gives it; the problem comes from this folder.
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (o.protocol == TilerProtocol::kLines) {
      // The one request line the fuzz sent, to a fresh process.
      s += "printf '%s\\n' " +
           ShellQuote(TilerRequestLine(k.minimized, *k.chip, k.chip_arg, o.tiler_l1)) + " | (cd " +
           ShellQuote(cwd) + " && TCFUZZ_TILER_PROTOCOL=lines sh -c " +
           ShellQuote(o.tiler_command) + ")\n";
    } else {
      s += "(cd " + ShellQuote(cwd) + " && TCFUZZ_CHIP=" + chip +
           " TCFUZZ_CHIP_PROFILE=" + ShellQuote(ChipToJson(*k.chip)) +
           " TCFUZZ_L1_SIZE=" + std::to_string(o.tiler_l1 > 0 ? o.tiler_l1 : k.chip->l1_platform) +
           " sh -c " + ShellQuote(o.tiler_command) + ") < " + problem + "\n";
    }
  }
  if (k.tiling) {
    const std::string tiling = ShellQuote(stem + ".tiling.json");
    s += "check its answer (" + stem + ".tiling.json):\n  " + ToolCommand() +
         " tiling check --chip " + chip + " --problem " + problem + " " + tiling + "\n  " +
         ToolCommand() + " tiling simulate --chip " + chip + " --problem " + problem + " " +
         tiling + " --numeric\n";
  }
  return s;
}

struct Counts {
  uint64_t done = 0, in_contract = 0, answered = 0, refused = 0, refused_out_of_contract = 0,
           validated_only = 0;
  std::map<std::string, uint64_t> warnings, refusals;  // by rule / by reason
};

}  // namespace

TilingCase DrawTilingCase(uint64_t case_seed, const ChipProfile* fixed_chip) {
  gen::RandomSource src(case_seed);
  const auto chips = ChipProfiles();
  TilingCase c;
  c.chip = fixed_chip != nullptr ? fixed_chip : &chips[src.Below(chips.size())];
  c.problem = gen::DrawTilingProblem(src, *c.chip);
  return c;
}

int RunTilingFuzz(const TilingFuzzOptions& o, std::ostream& out) {
  const Tiler tiler = o.tiler ? o.tiler
                      : o.tiler_command.empty()
                          ? ReferenceTilerUnderTest()
                          : ExternalTiler(o.tiler_command, o.timeout, o.tiler_l1, o.protocol);
  // The report folder is checked before the first case: no run ends unable to write it. A
  // rerun replaces the previous report whole (no stale reproducers beside new findings).
  auto opened = ReportFolder::Open(o.out_dir, false);
  if (!opened.ok()) {
    out << oracle::ErrorLine(opened.error());
    return 2;
  }
  ReportFolder folder = std::move(opened).value();
  const uint64_t cases = o.cases == 0 && o.seconds <= 0 ? 2000 : o.cases;
  out << "tcfuzz tiling fuzz: seed " << o.seed << ", tiler "
      << (o.tiler_command.empty() ? std::string("reference") : "'" + o.tiler_command + "'")
      << ", chip " << (o.chip_arg.empty() ? std::string("every built-in") : o.chip_arg) << "\n";
  StopSignals signals;  // from here on a stop request ends in a report
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::map<std::string, Kept> kept;  // by rule
  Counts n;
  for (uint64_t i = o.first; o.seconds > 0 ? elapsed() < o.seconds : i - o.first < cases; ++i) {
    if (StopRequested()) break;
    const TilingCase c =
        DrawTilingCase(gen::CaseSeed(o.seed, kTilingFuzzName, i), o.chip ? &*o.chip : nullptr);
    const ChipProfile& chip = *c.chip;
    const std::string chip_arg = o.chip ? o.chip_arg : chip.name;
    const Problem& p = c.problem;
    const bool in_contract = ValidateProblem(p, chip).legal();
    const TilerAnswer a = tiler(p, chip, chip_arg);
    ++n.done;
    n.in_contract += in_contract;
    if (a.kind == TilerAnswer::Kind::kRefused) {
      ++n.refused;
      if (!in_contract) {
        ++n.refused_out_of_contract;  // the right answer
      } else if (n.refusals.size() < 32 || n.refusals.count(a.detail)) {
        ++n.refusals[a.detail];
      }
    }
    std::vector<Finding> findings;
    if (a.kind == TilerAnswer::Kind::kTiling) {
      ++n.answered;
      const TilingVerdict v = Validate(p, a.tiling, chip);  // once: warnings, then the judgement
      for (const auto& w : v.warnings.violations()) ++n.warnings[std::string(w.rule->id)];
      if (in_contract && TooLargeToSimulate(p, a.tiling)) ++n.validated_only;
      findings = JudgeTiling(p, a.tiling, v);
    } else {
      findings = Judge(p, chip, a);
    }
    for (const Finding& f : findings) {
      auto [it, fresh] = kept.try_emplace(f.rule);
      ++it->second.count;
      if (!fresh) continue;
      Kept& k = it->second;
      k.finding = f, k.first_case = i, k.chip_arg = chip_arg, k.original = p, k.chip = &chip;
      out << "case " << i << ": " << f.rule << (f.warning ? " (warning)" : "") << ": " << f.message
          << " (minimizing)\n";
      // Every try at a hang costs the whole deadline: a few only.
      const int budget =
          f.rule == "tiler.hang" ? std::min(o.minimize_budget, 6) : o.minimize_budget;
      k.minimized = MinimizeProblem(p, chip, chip_arg, tiler, f, budget);
      const TilerAnswer again = tiler(k.minimized, chip, chip_arg);
      for (const Finding& g : Judge(k.minimized, chip, again)) {
        if (g.rule == f.rule) k.finding = g;  // the message of the minimized problem
      }
      if (again.kind == TilerAnswer::Kind::kTiling) {
        k.tiling = again.tiling;
        k.consequence = Consequence(k.minimized, chip, again.tiling, k.finding, o.tiler_l1);
      } else {
        k.consequence = Consequence(k.minimized, chip, TCubeTiling{}, k.finding, o.tiler_l1);
      }
    }
  }
  const bool interrupted = StopRequested();
  // Reproducers, then the summary, in the staged folder; then one switch.
  const double seconds = elapsed();
  nlohmann::ordered_json j;
  j["kind"] = "tiling_fuzz";
  j["command_line"] = o.command_line;
  j["seed"] = o.seed;
  j["tiler"] = o.tiler_command.empty() ? "reference" : o.tiler_command;
  j["tiler_protocol"] = o.protocol == TilerProtocol::kLines ? "lines" : "process";
  j["chip"] = o.chip_arg.empty() ? "every built-in" : o.chip_arg;
  j["interrupted"] = interrupted;
  j["cases"] = n.done;
  j["in_contract"] = n.in_contract;
  j["out_of_contract"] = n.done - n.in_contract;
  j["answered"] = n.answered;
  j["refused"] = n.refused;
  j["refused_out_of_contract"] = n.refused_out_of_contract;
  j["validated_only"] = n.validated_only;
  j["seconds"] = seconds;
  j["warnings"] = n.warnings;
  j["refusals_in_contract"] = n.refusals;
  j["findings"] = nlohmann::ordered_json::array();
  const std::string dir = folder.work() + "/reproducers";
  bool write_failed = false;
  int index = 0, errors = 0;
  for (auto& [rule, k] : kept) {
    char num[16];
    std::snprintf(num, sizeof num, "%02d-", index++);
    const std::string stem = num + rule;
    const std::string base = dir + "/" + stem;
    bool ok = WriteFileAtomic(base + ".problem.json", ProblemToJson(k.minimized)).ok();
    if (k.tiling) ok = ok && WriteFileAtomic(base + ".tiling.json", ToJson(*k.tiling)).ok();
    ok = ok && WriteFileAtomic(base + ".txt", Reproducer(k, o, stem)).ok();
    write_failed = write_failed || !ok;
    errors += !k.finding.warning;
    j["findings"].push_back(
        {{"rule", rule},
         {"severity", k.finding.warning ? "warning" : "error"},
         {"message", k.finding.message},
         {"consequence", k.consequence},
         {"count", k.count},
         {"first_case", k.first_case},
         {"chip", k.chip_arg},
         {"problem_class", ContractClass(k.minimized, *k.chip)},
         {"reproducer", "reproducers/" + stem + ".txt"},
         {"problem", nlohmann::json::parse(ProblemToJson(k.minimized))},
         {"original_problem", nlohmann::json::parse(ProblemToJson(k.original))}});
  }
  // A tiler's stderr reaches the summary (refusal reasons, crash messages): invalid UTF-8 is
  // replaced rather than thrown on.
  const auto summary =
      WriteFileAtomic(folder.work() + "/summary.json",
                      j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  const auto committed =
      summary.ok() && !write_failed ? folder.Commit() : oracle::Result<bool>::Ok(false);
  if (!summary.ok() || write_failed || !committed.ok()) {
    out << oracle::ErrorLine(std::string("cannot write the report in ") + o.out_dir + ": " +
                             (!summary.ok()     ? summary.error()
                              : !committed.ok() ? committed.error()
                                                : std::string("a reproducer")));
    return 2;
  }
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f s, %.0f cases/s", seconds,
                seconds > 0 ? static_cast<double>(n.done) / seconds : 0.0);
  out << n.done << " cases (" << n.in_contract << " inside the contract; " << n.answered
      << " answered; " << n.refused << " refused, " << n.refused_out_of_contract
      << " of them rightly as outside the contract; " << n.validated_only
      << " too large to simulate) in " << rate << "; " << errors << " failing rule"
      << (errors == 1 ? "" : "s") << ", " << kept.size() - errors << " warning"
      << (kept.size() - errors == 1 ? "" : "s") << "\n";
  for (const auto& [rule, k] : kept)
    out << "  " << rule << (k.finding.warning ? " (warning)" : "") << " x" << k.count << ": "
        << k.finding.message << "\n";
  out << "report: " << oracle::OneLine(o.out_dir) << "/summary.json\n";
  if (interrupted) {
    out << "INTERRUPTED (signal " << StopSignal() << ") after " << n.done << " cases\n";
    return 128 + StopSignal();
  }
  return errors == 0 ? 0 : 1;
}

}  // namespace tcfuzz::suites
