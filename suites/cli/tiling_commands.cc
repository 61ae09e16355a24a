#include "suites/cli/tiling_commands.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "oracle/ascend/reference_tiler.h"
#include "oracle/ascend/tiling_rules.h"
#include "oracle/ascend/tiling_sim.h"
#include "suites/cli/cli_common.h"
#include "suites/engine/atomic_file.h"

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
