// tcfuzz: the command-line tool, a table of command groups (suites/cli/command_group.h). Every
// bad argument is one line on stderr and exit code 2. `tcfuzz --help` and `tcfuzz CMD --help`
// say what each command takes; docs/usage.md shows them at work.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "oracle/core/text_format.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/run_cli.h"

namespace tcfuzz::cli {
namespace {

// CLI11 2.1 leaves a flag's type size at 1; its expected count is what says it takes no value.
bool TakesAValue(const CLI::Option& o) { return o.get_expected_max() != 0; }

// A word that reads as an option: `--x`, or `-x` (no option value is a negative number: the
// number parser refuses a sign anyway, and a file named `-x` is still reachable as ./-x).
bool LooksLikeAnOption(const std::string& v) {
  return v.size() > 1 && v[0] == '-' && !(v[1] >= '0' && v[1] <= '9');
}

// No option takes an empty value or one that is itself an option: `--svg ''` was silently
// ignored and `--report --no-progress` made a folder named --no-progress (issue 33).
void CheckOptionValues(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (!TakesAValue(*o)) continue;
    for (const std::string& v : o->results()) {
      const std::string name = o->get_name().empty() ? "an argument" : o->get_name();
      if (v.empty()) Die(name + ": an empty value (it must name something)");
      if (LooksLikeAnOption(v)) Die(name + ": '" + v + "' is an option, not a value");
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) CheckOptionValues(*sub);
}

CLI::App* SubcommandNamed(CLI::App& app, const std::string& name) {
  for (CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == name) return s;
  return nullptr;
}

// Why a command line CLI11 refused has an option whose value is another option (`run --report
// --cases 5` read "--cases" as the folder, then refused the "5"): said that way, or nothing.
std::string OptionAsValue(CLI::App& app, int argc, char** argv) {
  CLI::App* sub = &app;  // the innermost command named so far (`tiling fuzz`)
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string word = argv[i], next = argv[i + 1];
    if (CLI::App* deeper = SubcommandNamed(*sub, word); deeper != nullptr) {
      sub = deeper;
      continue;
    }
    if (!word.starts_with("--") || !LooksLikeAnOption(next)) continue;
    const CLI::Option* o = sub->get_option_no_throw(word);
    if (o != nullptr && TakesAValue(*o)) return word + ": '" + next + "' is an option, not a value";
  }
  return {};
}

// A command of commands (`explain`, `oracle`) given none, or a word that is none of them: said with
// the word and the commands it has (CLI11 says only "A subcommand is required"); else nothing.
std::string MissingSubcommand(CLI::App& app, int argc, char** argv) {
  CLI::App* sub = &app;
  std::string path;
  int i = 1;
  for (; i < argc; ++i) {
    CLI::App* deeper = SubcommandNamed(*sub, argv[i]);
    if (deeper == nullptr) break;
    sub = deeper;
    path += (path.empty() ? "" : " ") + std::string(argv[i]);
  }
  if (sub == &app || sub->get_subcommands({}).empty()) return {};
  std::string commands;
  for (const CLI::App* s : sub->get_subcommands({}))
    commands += (commands.empty() ? "" : ", ") + s->get_name();
  if (i < argc && !LooksLikeAnOption(argv[i]))
    return path + " has no command '" + argv[i] + "' (" + commands + ")";
  return path + ": name one of its commands (" + commands + ")";
}

// A first word that is no command: say so (CLI11 would say "a subcommand is required"), from the
// table alone, before any group is built.
void CheckCommandWord(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::string commands;
  bool known = false;
  for (const CommandGroupRow& row : CommandGroupTable()) {
    for (const std::string_view c : row.commands) {
      commands += (commands.empty() ? "" : ", ") + std::string(c);
      known = known || c == argv[1];
    }
  }
  if (!known) Die("'" + std::string(argv[1]) + "' is not a command (" + commands + ")");
}

}  // namespace

const std::vector<CommandGroupRow>& CommandGroupTable() {
  static const std::vector<CommandGroupRow> table = {
      {{"explain"}, ExplainCommands},
      {{"oracle", "discover"}, OracleCommands},
      {{"tiling"}, TilingCommands},
      {{"encode"}, EncodeCommands},
      {{"run", "merge"}, CampaignCommands},
      {{"worker"}, WorkerCommands},
      {{"repro", "minimize", "replay"}, ReproducerCommands},
      {{"toolchain"}, ToolchainCommands},
      {{"rules"}, RulesCommands},
      {{"mutants"}, MutantsCommands}};
  return table;
}

int RunCli(int argc, char** argv, CliMode mode) try {
  CLI::App app{"tcfuzz: randomized conformance and fuzz testing for tensor-core operands"};
  app.set_version_flag("--version", std::string(oracle::ToolVersion()));
  app.require_subcommand(1);
  CheckCommandWord(argc, argv);
  // The group of the command named, alone; every group when the first word is an option (help,
  // --version: those list every command).
  const std::string_view first = argc > 1 ? argv[1] : "";
  const auto names_first = [&first](const CommandGroupRow& row) {
    return std::find(row.commands.begin(), row.commands.end(), first) != row.commands.end();
  };
  const auto& table = CommandGroupTable();
  const bool one = std::any_of(table.begin(), table.end(), names_first);
  std::vector<std::unique_ptr<CommandGroup>> groups;
  for (const CommandGroupRow& row : table)
    if (!one || names_first(row)) groups.push_back(row.make());
  for (const auto& g : groups) g->Add(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string why = OptionAsValue(app, argc, argv);
    if (why.empty() && dynamic_cast<const CLI::RequiredError*>(&e) != nullptr &&
        std::string_view(e.what()).find("subcommand") != std::string_view::npos)
      why = MissingSubcommand(app, argc, argv);
    Die(why.empty() ? e.what() : why);
  }
  CheckOptionValues(app);
  const Call call{argc, argv, mode};
  for (const auto& g : groups) {
    if (const int rc = g->Run(call); rc >= 0) return rc;
  }
  return 2;
} catch (const Exit& e) {
  return e.code;
}

}  // namespace tcfuzz::cli
