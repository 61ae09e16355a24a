// One group of tcfuzz commands, owned by its operand or job (explain, oracle, tiling, run ...):
// it adds its subcommands and their options to the app and, after parsing, runs the one given.
// RunCli (main.cc) is the table of groups: a new command is an edit of its group, a new group a
// new row.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "suites/cli/run_cli.h"

namespace tcfuzz::cli {

// What RunCli was called with.
struct Call {
  int argc = 0;
  char** argv = nullptr;
  CliMode mode = CliMode::kRun;

  bool ParseOnly() const { return mode == CliMode::kParseOnly; }
  // The arguments joined by spaces, as reports record the command.
  std::string CommandLine() const;
};

class CommandGroup {
 public:
  virtual ~CommandGroup() = default;
  virtual void Add(CLI::App& app) = 0;
  // The exit code of this group's command that was given, or -1 when none of them was. Under
  // CliMode::kParseOnly a command that would read a file or stdin, write a file or start a
  // process checks its options and returns 0 instead.
  virtual int Run(const Call& call) = 0;
};

// The groups, in the order `tcfuzz --help` lists their commands.
std::unique_ptr<CommandGroup> ExplainCommands();   // explain zcm | smem | sparse | batch
std::unique_ptr<CommandGroup> OracleCommands();    // oracle dot|rows|readings|captures, discover
std::unique_ptr<CommandGroup> TilingCommands();    // tiling chips | check | simulate | make | fuzz
std::unique_ptr<CommandGroup> EncodeCommands();    // encode smem | batch
std::unique_ptr<CommandGroup> CampaignCommands();  // run, merge
std::unique_ptr<CommandGroup> WorkerCommands();    // worker (internal, started by run)
std::unique_ptr<CommandGroup> ReproducerCommands();  // repro, minimize, replay
std::unique_ptr<CommandGroup> ToolchainCommands();   // toolchain scan | worker
std::unique_ptr<CommandGroup> RulesCommands();       // rules
std::unique_ptr<CommandGroup> MutantsCommands();     // mutants

// A row of the table RunCli builds from: the top-level commands a group adds, so that a command
// line naming one of them builds that group's options alone. CLI11 takes about a millisecond per
// hundred options, and `tcfuzz worker` is started thousands of times a campaign; the argument
// fuzzer's inputs ran at half speed building the whole tree.
struct CommandGroupRow {
  std::vector<std::string_view> commands;
  std::unique_ptr<CommandGroup> (*make)();
};
const std::vector<CommandGroupRow>& CommandGroupTable();

}  // namespace tcfuzz::cli
