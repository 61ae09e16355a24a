#include "suites/cli/toolchain_commands.h"

#include <unistd.h>

#include <iostream>
#include <sstream>

#include "oracle/core/text_format.h"
#include "oracle/ptx/ptx_target.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/data_files.h"

namespace tcfuzz::suites {
namespace {

constexpr uint64_t kMaxItem = uint64_t{1} << 32;  // far past any scan's items

std::vector<std::string> SplitTargets(const std::string& list) {
  std::vector<std::string> out;
  if (list == "all") {
    for (const auto& t : oracle::ptx::AllTargets()) out.emplace_back(t.name);
    return out;
  }
  std::stringstream in(list);
  for (std::string t; std::getline(in, t, ',');) {
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

}  // namespace

void AddToolchainCommands(CLI::App& app, ToolchainCli& t) {
  CLI::App* tc =
      app.add_subcommand("toolchain", "Assemblers against the instruction-form legality model");
  tc->require_subcommand(1);
  t.scan = tc->add_subcommand(
      "scan", "every form x target through nvJitLink or ptxas (exit 1 on any unexpected verdict)");
  t.scan->add_option("--targets", t.targets,
                     "comma-separated targets (default: all, sm_75 .. sm_121f)");
  t.scan->add_option("--forms", t.options.forms,
                     "only the forms whose key matches this glob, e.g. 'wgmma*.sp*'");
  t.scan->add_option("--assembler", t.options.assembler, "nvjitlink (in process, default) or ptxas")
      ->check(CLI::IsMember({"nvjitlink", "ptxas"}));
  t.scan->add_option("--ptxas", t.options.ptxas,
                     "the ptxas binary (default: /usr/local/cuda/bin/ptxas)");
  t.scan->add_option("--expectations", t.options.expectations_file,
                     "known deviations per toolkit (default: toolchain/expectations.txt of "
                     "$TCFUZZ_DATA_DIR, the install's share/tcfuzz or the source tree's corpus/)");
  t.scan->add_flag("--no-expectations", t.no_expectations, "hold every verdict to the model alone");
  cli::AddNumber(t.scan, "--jobs", t.options.jobs, 1, 256,
                 "worker processes at once (default: every core)");
  t.scan->add_flag("--json", t.json, "one JSON object per form and target instead of the table");
  cli::AddNumber(t.scan, "--item-timeout-ms", t.item_timeout_ms, 1, 3600000,
                 "a worker's deadline for one item (default 30000)");
  cli::AddNumber(t.scan, "--plant-crash", t.options.plant_crash, 0, kMaxItem,
                 "(test only) the worker crashes at this item")
      ->group("");
  cli::AddNumber(t.scan, "--plant-hang", t.options.plant_hang, 0, kMaxItem,
                 "(test only) the worker hangs at this item")
      ->group("");
  t.scan->add_option("--out", t.out, "write the table or JSON here (atomically) instead of stdout");

  t.worker = tc->add_subcommand("worker",
                                "(internal) assemble a range of the scan's items; started by scan");
  t.worker->add_option("--assembler", t.options.assembler, "nvjitlink or ptxas");
  t.worker->add_option("--ptxas", t.options.ptxas, "the ptxas binary");
  t.worker->add_option("--targets", t.targets, "comma-separated targets");
  t.worker->add_option("--forms", t.options.forms, "the scan's form pattern");
  // Every number through the one parser: "-1" is an error, never 2^64 - 1.
  cli::AddNumber(t.worker, "--first", t.first, 0, kMaxItem, "first item");
  cli::AddNumber(t.worker, "--plant-crash", t.options.plant_crash, 0, kMaxItem,
                 "(test only) crash at this item");
  cli::AddNumber(t.worker, "--plant-hang", t.options.plant_hang, 0, kMaxItem,
                 "(test only) hang at this item");
  cli::AddNumber(t.worker, "--count", t.count, 0, kMaxItem, "number of items");
  t.worker
      ->add_flag("--lines", t.lines,
                 "answer item indices of the whole scan read from stdin, one verdict line each")
      ->excludes("--first")
      ->excludes("--count")
      ->excludes("--targets")
      ->excludes("--forms")
      ->excludes("--plant-crash")
      ->excludes("--plant-hang");
}

int RunToolchainCommand(ToolchainCli& t) {
  if (t.scan == nullptr || (!*t.scan && !*t.worker)) return -1;
  t.options.targets = SplitTargets(t.targets);
  if (*t.worker) {
    if (t.lines) return RunScanLineWorker(t.options, std::cin, std::cout, std::cerr);
    if (t.worker->count("--first") == 0 || t.worker->count("--count") == 0)
      cli::Die("toolchain worker: give --first and --count, or --lines");
    return RunScanWorker(t.options, t.first, t.count, std::cout);
  }

  if (t.no_expectations) {
    t.options.expectations_file.clear();
  } else if (t.options.expectations_file.empty()) {
    // A binary without its data would report the toolkit's known deviations as failures.
    auto found = FindDataFile("toolchain/expectations.txt");
    if (!found.ok()) {
      std::cerr << oracle::ErrorLine(found.error() +
                                     ", or give --expectations FILE or --no-expectations");
      return 2;
    }
    t.options.expectations_file = found.value();
  }
  if (t.options.jobs <= 0)
    t.options.jobs = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  t.options.worker_argv = {"/proc/self/exe", "toolchain", "worker"};
  t.options.item_timeout = std::chrono::milliseconds(t.item_timeout_ms);
  ScanError why = ScanError::kBadInput;
  const auto report = RunScan(t.options, &why);
  if (!report.ok()) {
    if (why == ScanError::kAssemblerMissing) {
      std::cerr << oracle::ErrorLine(report.error());
      return kExitNoAssembler;
    }
    cli::Die(report.error());
  }
  std::ostringstream text;
  if (t.json)
    PrintScanJson(report.value(), text);
  else
    PrintScanTable(report.value(), text);
  if (t.out.empty()) {
    std::cout << text.str();
  } else if (const auto w = WriteFileAtomic(t.out, text.str()); !w.ok()) {
    cli::Die("--out: " + w.error());
  } else if (!t.json) {
    // The verdict line still reaches the terminal.
    std::cerr << report.value().unexpected << " unexpected verdicts, "
              << report.value().stale.size() << " stale expectations; table in "
              << oracle::OneLine(t.out) << "\n";
  }
  return report.value().unexpected > 0 || !report.value().stale.empty() ? 1 : 0;
}

}  // namespace tcfuzz::suites

namespace tcfuzz::cli {
namespace {

class Toolchain final : public CommandGroup {
 public:
  void Add(CLI::App& app) override { suites::AddToolchainCommands(app, t_); }
  int Run(const Call& call) override {
    if (!*t_.scan && !*t_.worker) return -1;
    return call.ParseOnly() ? 0 : suites::RunToolchainCommand(t_);  // it starts processes
  }

 private:
  suites::ToolchainCli t_;
};

}  // namespace

std::unique_ptr<CommandGroup> ToolchainCommands() { return std::make_unique<Toolchain>(); }

}  // namespace tcfuzz::cli
