// `tcfuzz worker` (internal): the process that touches the GPU, started by `run` and `minimize`
// (suites/engine/device_workers.h).
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/device_options.h"
#include "suites/cli/run_shards.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::cli {
namespace {

class Worker final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    worker_ = app.add_subcommand("worker",
                                 "(internal) run a range of a GPU suite's cases; started by run");
    worker_->add_flag("--probe", probe_, "print the device this process sees and exit");
    worker_->add_option("--case-file", case_file_, "run one sparse case from this file");
    worker_->add_option("--suite", wa_.suite, "GPU suite");
    AddNumber(worker_, "--seed", wa_.seed, 0, ~uint64_t{0}, "base seed");
    AddNumber(worker_, "--first", wa_.first, 0, ~uint64_t{0}, "first case index");
    AddNumber(worker_, "--count", wa_.count, 0, uint64_t{1} << 26, "number of case indices");
    shard_ = worker_->add_option("--shard", shard_text_, "I/N");
    // Indices through the one number parser ("-1" must not wrap to 2^64-1).
    for (const auto& [name, set, help] :
         {std::tuple{"--plant-fault", &wa_.plant_fault,
                     "(test only) run an illegal-address kernel at this index"},
          std::tuple{"--plant-hang", &wa_.plant_hang,
                     "(test only) run a kernel that never ends at this index"}}) {
      std::set<uint64_t>* into = set;  // clang 14 captures no structured binding
      worker_->add_option_function<std::vector<std::string>>(
          name,
          [into, option = std::string(name)](const std::vector<std::string>& texts) {
            for (const std::string& t : texts)
              into->insert(ParseNumberArg(option, t, ~uint64_t{0}));
          },
          help);
    }
    AddNumber(worker_, "--threads", wa_.threads, 0, 4096,
              "host threads for generation and the oracle (default: every core)");
    device_.Add(worker_);
    AddNumber(worker_, "--cases-per-launch", wa_.cases_per_launch, 1, uint64_t{1} << 20,
              "cases per kernel launch (1: the baseline mode)");
  }

  int Run(const Call& call) override {
    if (!*worker_) return -1;
    device_.Select(call.ParseOnly());
    if (call.ParseOnly() && (probe_ || !case_file_.empty())) return 0;
    if (probe_) return suites::ProbeWorker(std::cout);
    if (!case_file_.empty()) return suites::RunCaseFileWorker(case_file_, std::cout);
    if (!suites::IsDeviceSuite(wa_.suite)) {
      std::string known;
      for (const std::string& name : suites::DeviceSuiteNames())
        known += (known.empty() ? "" : ", ") + name;
      Die("worker: --suite '" + wa_.suite + "' is not a GPU suite (" + known + ")");
    }
    if (wa_.first > ~uint64_t{0} - wa_.count)
      Die("worker: --first/--count: at most 2^26 cases, and first + count must not pass 2^64");
    if (*shard_) {
      const auto shard = ChooseShard(shard_text_, std::nullopt,
                                     [](const char*) -> const char* { return nullptr; });
      if (!shard.ok()) Die(shard.error());
      wa_.shard_index = shard.value().index;
      wa_.shard_count = shard.value().count;
    }
    if (call.ParseOnly()) return 0;
    return suites::RunDeviceWorker(wa_, std::cout);
  }

 private:
  CLI::App* worker_ = nullptr;
  CLI::Option* shard_ = nullptr;
  suites::WorkerArgs wa_;
  DeviceOptions device_;
  std::string shard_text_, case_file_;
  bool probe_ = false;
};

}  // namespace

std::unique_ptr<CommandGroup> WorkerCommands() { return std::make_unique<Worker>(); }

}  // namespace tcfuzz::cli
