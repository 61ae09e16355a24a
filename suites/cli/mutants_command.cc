// `tcfuzz mutants`: the catalogue of defects planted in the emulator run against the suites, and
// the kill matrix (suites/engine/mutant_run.h).
#include <iostream>
#include <string>

#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/engine/data_files.h"
#include "suites/engine/mutant_run.h"

namespace tcfuzz::cli {
namespace {

class Mutants final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "mutants", "Run defects planted in the emulator against the suites: the mutation score");
    cmd_->add_option("--catalogue", o_.catalogue_path,
                     "mutants, one a line: name | suites | point=value,... | precedent (default: "
                     "the shipped catalogue, mutants/catalogue.txt)");
    AddNumber(cmd_, "--seed", o_.seed, 0, ~uint64_t{0}, "the campaigns' seed (default 1)");
    AddNumber(cmd_, "--cases", o_.cases, 1, uint64_t{1} << 32,
              "cases per suite and mutant (default 2000)");
    cmd_->add_option(
            "--report", o_.report_dir,
            "folder for the kill matrix (summary.json, index.html, junit.xml) and the runs")
        ->capture_default_str();
    cmd_->add_option("--only", o_.only, "run these mutants alone (names, comma-separated)");
  }

  int Run(const Call& call) override {
    if (!*cmd_) return -1;
    if (call.ParseOnly()) return 0;  // reads the catalogue, starts campaigns
    if (o_.catalogue_path.empty()) {
      const auto found = suites::FindDataFile("mutants/catalogue.txt");
      if (!found.ok()) Die(found.error());
      o_.catalogue_path = found.value();
    }
    o_.worker = {"/proc/self/exe"};
    return suites::RunMutants(o_, std::cout, std::cerr);
  }

 private:
  CLI::App* cmd_ = nullptr;
  suites::MutantRunOptions o_;
};

}  // namespace

std::unique_ptr<CommandGroup> MutantsCommands() { return std::make_unique<Mutants>(); }

}  // namespace tcfuzz::cli
