// `tcfuzz replay` (reproducer and corpus files judged again), `tcfuzz repro` (one standalone
// CUDA file, suites/cli/repro_cu.h) and `tcfuzz minimize` (a failing GPU reproducer shrunk on the
// device, suites/cli/minimize_command.h).
#include <iostream>
#include <string>
#include <vector>

#include "oracle/core/text_format.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/device_options.h"
#include "suites/cli/minimize_command.h"
#include "suites/cli/repro_cu.h"
#include "suites/engine/case_file.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::cli {
namespace {

int Replay(const std::vector<std::string>& files) {
  int failed = 0;
  for (const std::string& path : files) {
    const auto doc = suites::ReadCaseDoc(path);
    if (!doc.ok()) Die(doc.error());
    const auto kind = suites::KindOf(path, doc.value());
    if (!kind.ok()) Die(kind.error());
    const auto result = kind.value()->replay(doc.value());
    if (!result.ok()) Die(path + ": " + result.error());
    if (result.value().failures.empty()) {
      std::cout << "PASS " << oracle::OneLine(path)
                << (result.value().note.empty() ? ""
                                                : " (" + oracle::OneLine(result.value().note) + ")")
                << "\n";
    } else {
      ++failed;
      for (const auto& f : result.value().failures) {
        std::cout << "FAIL " << oracle::OneLine(path) << " " << f.check << ": "
                  << oracle::OneLine(f.message) << "\n";
      }
    }
  }
  return failed ? 1 : 0;
}

class Reproducer final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    repro_ =
        app.add_subcommand("repro", "Turn a reproducer into something that runs without tcfuzz");
    repro_
        ->add_option("FILE", repro_file_,
                     "a sparse_mma, dense_mma or wgmma_tile case file (reproducer or corpus)")
        ->required();
    repro_->add_option("--emit-cu", emit_cu_, "write one standalone CUDA file here")->required();
    repro_->add_option(
        "--gpu-row", gpu_row_,
        "numerics row for the expected values when the file names none (default sm_90)");

    minimize_ = app.add_subcommand("minimize",
                                   "Shrink a failing GPU reproducer (sparse_mma or "
                                   "wgmma_tile) on the device while it fails the same way");
    minimize_->add_option("FILE", min_file_, "a sparse_mma or wgmma_tile reproducer")->required();
    minimize_->add_option("--out", min_out_,
                          "where the minimized case goes (default FILE.min.txt)");
    AddNumber(minimize_, "--budget", min_budget_, 1, 100000, "device runs at most (default 400)");
    min_device_.Add(minimize_);

    replay_ = app.add_subcommand("replay", "Re-run reproducer or corpus files");
    replay_->add_option("FILE", files_, "text-form case files")->required();
    replay_device_.Add(replay_);  // given: each GPU case executed again there, not its record
  }

  int Run(const Call& call) override {
    if (!*repro_ && !*minimize_ && !*replay_) return -1;
    if (*minimize_) min_device_.Select(call.ParseOnly());
    if (*replay_) replay_device_.Select(call.ParseOnly());
    if (call.ParseOnly()) return 0;  // each reads a file
    if (*repro_) return suites::ReproEmitCu(repro_file_, emit_cu_, gpu_row_);
    if (*replay_ && *replay_device_.device_option)
      return suites::ReplayOnBackend(files_, {"/proc/self/exe"}, std::cout, std::cerr);
    if (*replay_) return Replay(files_);
    return suites::RunMinimize(min_file_, min_out_.empty() ? min_file_ + ".min.txt" : min_out_,
                               min_budget_, {"/proc/self/exe"}, std::cerr);
  }

 private:
  CLI::App *repro_ = nullptr, *minimize_ = nullptr, *replay_ = nullptr;
  std::string repro_file_, emit_cu_, gpu_row_ = "sm_90", min_file_, min_out_;
  std::vector<std::string> files_;
  int min_budget_ = 400;
  DeviceOptions min_device_, replay_device_;
};

}  // namespace

std::unique_ptr<CommandGroup> ReproducerCommands() { return std::make_unique<Reproducer>(); }

}  // namespace tcfuzz::cli
