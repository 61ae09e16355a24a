#include "suites/cli/tiling_commands.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>

#include "oracle/ascend/reference_tiler.h"
#include "oracle/ascend/tiling_rules.h"
#include "oracle/ascend/tiling_sim.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/engine/atomic_file.h"
#include "suites/tiling/tiling_fuzz.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::ascend;

nlohmann::ordered_json Entries(const oracle::Verdict& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& x : v.violations())
    a.push_back({{"rule", std::string(x.rule->id)}, {"message", x.message}});
  return a;
}

struct Loaded {
  ChipProfile chip;
  Problem problem;
  TCubeTiling tiling;
};

Loaded Load(const std::string& chip_arg, const std::string& problem_file,
            const std::string& tiling_file) {
  Loaded l{LoadChip(chip_arg), {}, {}};
  auto ptext = ReadFile(problem_file);
  if (!ptext.ok()) cli::Die(ptext.error());
  auto problem = ProblemFromJson(ptext.value());
  if (!problem.ok()) cli::Die(problem_file + ": " + problem.error());
  l.problem = problem.value();
  auto ttext = ReadFile(tiling_file);
  if (!ttext.ok()) cli::Die(ttext.error());
  oracle::Result<TCubeTiling> tiling = oracle::Result<TCubeTiling>::Fail("");
  if (tiling_file.ends_with(".bin")) {
    const std::string& s = ttext.value();
    tiling =
        FromImage(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  } else if (tiling_file.ends_with(".json")) {
    tiling = FromJson(ttext.value());
  } else {
    cli::Die("TILING: '" + tiling_file + "' must be a .bin image or a .json form");
  }
  if (!tiling.ok()) cli::Die(tiling_file + ": " + tiling.error());
  l.tiling = tiling.value();
  return l;
}

}  // namespace

ChipProfile LoadChip(const std::string& name_or_file) {
  if (const ChipProfile* c = FindChip(name_or_file)) return *c;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(name_or_file, ec)) {
    cli::Die("--chip: '" + name_or_file +
             "' is neither a known SoC (tcfuzz tiling chips) nor a profile file");
  }
  auto text = ReadFile(name_or_file);
  if (!text.ok()) cli::Die(text.error());
  auto chip = ChipFromJson(text.value());
  if (!chip.ok()) cli::Die(name_or_file + ": " + chip.error());
  return chip.value();
}

int TilingChips(bool json) {
  if (json) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const ChipProfile& c : ChipProfiles())
      a.push_back(nlohmann::ordered_json::parse(ChipToJson(c)));
    std::cout << a.dump(2) << "\n";
    return 0;
  }
  std::printf("%-13s %5s %6s %6s %6s %7s %8s %7s %5s  %s\n", "SoC", "arch", "cores", "L0A", "L0B",
              "L0C", "L1", "UB", "BT", "note");
  for (const ChipProfile& c : ChipProfiles()) {
    std::printf("%-13s %5d %3d/%-2d %6lld %6lld %7lld %8lld %7lld %5lld  %s%s\n", c.name.c_str(),
                c.npu_arch, c.ai_cores, c.vector_cores, static_cast<long long>(c.l0a),
                static_cast<long long>(c.l0b), static_cast<long long>(c.l0c),
                static_cast<long long>(c.l1), static_cast<long long>(c.ub),
                static_cast<long long>(c.bias_table), c.confirmed ? "" : "[unconfirmed] ",
                c.note.c_str());
  }
  return 0;
}

int TilingCheck(const std::string& chip_arg, const std::string& problem_file,
                const std::string& tiling_file, bool json) {
  const Loaded l = Load(chip_arg, problem_file, tiling_file);
  const ChipProfile& chip = l.chip;
  const TilingVerdict v = Validate(l.problem, l.tiling, chip);
  if (json) {
    nlohmann::ordered_json j;
    j["kind"] = "tcube_tiling";
    j["in_contract"] = v.in_contract();
    j["problem_violations"] = Entries(v.problem);
    j["legal"] = v.legal();
    j["violations"] = Entries(v.hard);
    j["warnings"] = Entries(v.warnings);
    std::cout << j.dump() << "\n";
  } else if (!v.in_contract()) {
    std::cout << "problem outside the contract on " << chip.name
              << ": no tiling can serve it (a tiler should refuse it); the tiling is not judged\n";
    for (const auto& x : v.problem.violations())
      std::cout << "  " << x.rule->id << " [" << x.rule->section << "]: " << x.message << "\n";
  } else {
    std::cout << "TCubeTiling on " << chip.name << ": " << (v.hard.legal() ? "legal" : "ILLEGAL")
              << "\n";
    for (const auto& x : v.hard.violations()) {
      std::cout << "  " << x.rule->id << " [" << x.rule->section << "] " << x.field << ": "
                << x.message << "\n";
    }
    for (const auto& x : v.warnings.violations())
      std::cout << "  warning " << x.rule->id << ": " << x.message << "\n";
  }
  return v.legal() ? 0 : 1;
}

int TilingMake(const std::string& chip_arg, const std::string& problem_file) {
  const ChipProfile chip = LoadChip(chip_arg);
  auto ptext = ReadFile(problem_file);
  if (!ptext.ok()) cli::Die(ptext.error());
  auto problem = ProblemFromJson(ptext.value());
  if (!problem.ok()) cli::Die(problem_file + ": " + problem.error());
  auto t = MakeTiling(problem.value(), chip);
  if (!t.ok()) {
    std::cerr << "tcfuzz: " << t.error() << "\n";
    return 1;
  }
  std::cout << ToJson(t.value());
  return 0;
}

int TilingSimulate(const std::string& chip_arg, const std::string& problem_file,
                   const std::string& tiling_file, bool numeric) {
  const Loaded l = Load(chip_arg, problem_file, tiling_file);
  const TilingVerdict v = Validate(l.problem, l.tiling, l.chip);
  const SimResult r = Simulate(l.problem, l.tiling, numeric);
  std::cout << "verdict: "
            << (!v.in_contract() ? "problem outside the contract (" +
                                       oracle::JoinRuleIds(v.problem.RuleIds()) + ")"
                : v.hard.legal()
                    ? "legal"
                    : "ILLEGAL (" + std::to_string(v.hard.violations().size()) + " rules)")
            << "\nsimulation: " << r.tiles << " C tiles, " << r.k_steps << " K steps each, "
            << (r.clean ? "every element of C written exactly once, no access outside A, B, C"
                        : "FINDINGS")
            << "\n";
  for (const SimFinding& f : r.findings) std::cout << "  " << f.id << ": " << f.message << "\n";
  if (numeric) {
    std::cout << (r.numeric_run ? (r.clean ? "numeric: tiled product equals the plain matmul\n"
                                           : "numeric: see findings\n")
                                : "numeric: not run (shape too large or coverage already wrong)\n");
  }
  std::cout << SimPicture(l.problem, l.tiling, r);
  return r.clean ? 0 : 1;
}

}  // namespace tcfuzz::suites

namespace tcfuzz::cli {
namespace {

class Tiling final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    CLI::App* tiling =
        app.add_subcommand("tiling", "Ascend C Matmul TCubeTiling: chips and checks");
    tiling->require_subcommand(1);
    chips_ = tiling->add_subcommand("chips", "list the built-in SoC profiles");
    chips_->add_flag("--json", json_, "as JSON");
    check_ = tiling->add_subcommand("check", "validate a tiling (exit 0 legal, 1 illegal)");
    simulate_ = tiling->add_subcommand(
        "simulate", "run the tiled execution on the CPU (exit 0 clean, 1 findings)");
    make_ = tiling->add_subcommand("make", "the reference tiler's answer, as the JSON form");
    for (CLI::App* c : {check_, simulate_, make_}) {
      c->add_option("--chip", chip_, "SoC name (case-insensitive) or a profile JSON file")
          ->required();
      c->add_option("--problem", problem_, "problem JSON ('-' for stdin)")->required();
      if (c != make_)
        c->add_option("TILING", tiling_, "a 200-byte .bin image or a .json form")->required();
    }
    check_->add_flag("--json", json_, "print the JSON verdict");
    simulate_->add_flag("--numeric", numeric_,
                        "also compare the tiled product with a plain matmul (small shapes)");

    fuzz_ = tiling->add_subcommand("fuzz",
                                   "fuzz a tiler: generated problems, every answer "
                                   "validated and simulated (exit 0 clean, 1 findings)");
    fuzz_->add_option("--tiler", tf_.tiler_command,
                      "command: problem JSON on stdin, TCFUZZ_CHIP and TCFUZZ_L1_SIZE in the "
                      "environment; tiling JSON or 200-byte image on stdout (exit 0), or exit 1 "
                      "to refuse (default: the reference tiler; docs/tiler-under-test.md)");
    fuzz_->add_option("--tiler-protocol", protocol_,
                      "process: one process per problem (default); lines: one long-lived process "
                      "answering a JSON line per request line (docs/tiler-under-test.md)");
    fuzz_->add_option("--chip", tf_.chip_arg,
                      "SoC name or profile file (default: every built-in chip in turn)");
    seed_ = fuzz_->add_option("--seed", seed_text_, "base seed (default: random, printed)");
    auto* cases = AddNumber(fuzz_, "--cases", tf_.cases, 1, uint64_t{1} << 40,
                            "number of problems (default 2000)");
    cases->excludes(
        AddSeconds(fuzz_, "--time", tf_.seconds, "seconds to run instead of a case count"));
    AddNumber(fuzz_, "--first", tf_.first, 0, uint64_t{1} << 40,
              "the first case's index (default 0): `--first I --cases 1` is case I of the seed, "
              "as a campaign's tiling-fuzz suite ran it");
    AddNumber(fuzz_, "--timeout-ms", timeout_ms_, 1, 3600000,
              "deadline for one tiler call (default 10000)");
    fuzz_->add_option("--report", tf_.out_dir, "report folder (default: report/tiling-fuzz)");
    AddNumber(fuzz_, "--tiler-l1", tf_.tiler_l1, 1, uint64_t{1} << 40,
              "L1 bytes the tiler is told to plan against, as TCFUZZ_L1_SIZE (default: the "
              "chip's platform L1)");
  }

  int Run(const Call& call) override {
    if (*chips_) return suites::TilingChips(json_);
    if (*fuzz_) return Fuzz(call);
    if (!*check_ && !*simulate_ && !*make_) return -1;
    if (call.ParseOnly()) return 0;  // each reads files
    if (*check_) return suites::TilingCheck(chip_, problem_, tiling_, json_);
    if (*simulate_) return suites::TilingSimulate(chip_, problem_, tiling_, numeric_);
    return suites::TilingMake(chip_, problem_);
  }

 private:
  int Fuzz(const Call& call) {
    if (!tf_.tiler_command.empty()) CheckRunnable("--tiler", tf_.tiler_command);
    if (protocol_ != "process" && protocol_ != "lines")
      Die("--tiler-protocol: want process or lines, not " + oracle::Quoted(protocol_));
    if (protocol_ == "lines" && tf_.tiler_command.empty())
      Die("--tiler-protocol lines needs --tiler (the reference tiler runs in process)");
    tf_.protocol =
        protocol_ == "lines" ? suites::TilerProtocol::kLines : suites::TilerProtocol::kProcess;
    if (!tf_.chip_arg.empty()) tf_.chip = suites::LoadChip(tf_.chip_arg);
    tf_.seed = *seed_ ? ParseNumberArg("--seed", seed_text_, ~uint64_t{0}) : RandomSeed();
    if (tf_.out_dir.empty()) Die("--report: empty folder name");
    tf_.timeout = std::chrono::milliseconds(timeout_ms_);
    tf_.command_line = call.CommandLine();
    if (call.ParseOnly()) return 0;
    ErrorsToStderr split;
    std::ostream log(&split);
    return suites::RunTilingFuzz(tf_, log);
  }

  CLI::App *chips_ = nullptr, *check_ = nullptr, *simulate_ = nullptr, *make_ = nullptr,
           *fuzz_ = nullptr;
  CLI::Option* seed_ = nullptr;
  std::string chip_, problem_, tiling_, seed_text_;
  bool json_ = false, numeric_ = false;
  uint64_t timeout_ms_ = 10000;
  std::string protocol_ = "process";
  suites::TilingFuzzOptions tf_;
};

}  // namespace

std::unique_ptr<CommandGroup> TilingCommands() { return std::make_unique<Tiling>(); }

}  // namespace tcfuzz::cli
