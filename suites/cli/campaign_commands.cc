// `tcfuzz run` (a campaign and its report, suites/engine/campaign.h) and `tcfuzz merge` (the
// shard reports of one run added into one, suites/engine/merge.h).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/device_options.h"
#include "suites/cli/run_shards.h"
#include "suites/engine/campaign.h"
#include "suites/engine/data_files.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/merge.h"
#include "suites/tiling/tiling_suite.h"
#include "suites/toolchain/toolchain_suite.h"

namespace tcfuzz::cli {
namespace {

class Campaign final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    run_ = app.add_subcommand("run", "Run a campaign and write a report");
    suite_ =
        run_->add_option("--suite", o_.suites,
                         "suite name (repeatable; default: every suite: zero-column-mask, smem, "
                         "sparse-oracle, toolchain, tiling-fuzz, and the GPU suites)");
    seed_ = run_->add_option("--seed", seed_text_, "base seed (default: random, printed)");
    cases_ = AddNumber(run_, "--cases", cases_value_, 1, uint64_t{1} << 40,
                       "cases per suite (default: each suite's own, about 30 s each)");
    time_ = AddSeconds(run_, "--time", seconds_value_,
                       "the whole run's seconds, shared by its suites, instead of a case count (a "
                       "suite that ends early leaves its time to the next)");
    suite_time_ = AddSeconds(run_, "--suite-time", suite_seconds_value_,
                             "seconds per suite instead of a case count (with --time: at most "
                             "this for each suite)");
    cases_->excludes(time_);
    cases_->excludes(suite_time_);
    shard_ = run_->add_option(
        "--shard", shard_text_,
        "I/N: run shard I of N (indices i with i % N == I); default: the scheduler's variables "
        "(GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS, SLURM_ARRAY_TASK_ID/COUNT, JOB_COMPLETION_INDEX "
        "with --shard-count, CI_NODE_INDEX/CI_NODE_TOTAL)");
    shard_count_ = AddNumber(run_, "--shard-count", shard_count_value_, 1, uint64_t{1} << 20,
                             "shards in all, for a Kubernetes Indexed Job (its completions)");
    auto* report = run_->add_option("--report", o_.report_dir, "report folder (default: report)");
    run_->add_flag("--no-progress", no_progress_, "no live progress line");
    AddSeconds(run_, "--progress-every", progress_every_,
               "off a terminal: a progress line this often (default 30 s)");
    auto* expectations = run_->add_option(
        "--expectations", o_.expectations_file,
        "known failures (docs/ci.md): matching cases are expected_fail, not failures");
    auto* skips =
        run_->add_option("--skips", o_.skips_file, "suites not to run on a device (docs/ci.md)");
    auto* strict =
        run_->add_flag("--strict", o_.strict, "stale expectation lines and flakes fail the run");
    AddNumber(run_, "--reruns", reruns_, 0, 10,
              "GPU suites: runs of a failing case again, each in a fresh worker (default 2)");
    AddNumber(run_, "--cases-per-launch", o_.device_cases_per_launch, 1, uint64_t{1} << 20,
              "GPU suites: cases per kernel launch (default 65536; 1 is the "
              "one-case-per-launch baseline)");
    AddNumber(run_, "--threads", o_.host_threads, 0, 4096,
              "host suites: threads that run cases (default 0: every core, one under "
              "AddressSanitizer; the report is the same for any number)");
    device_.Add(run_);
    auto* gpu = run_->add_option("--gpu", o_.gpu,
                                 "GPU suites: auto (run when a device answers), require, off "
                                 "(default auto)")
                    ->check(CLI::IsMember({"auto", "require", "off"}));
    tiler_ = run_->add_option("--tiler", tiler_command_,
                              "the tiling-fuzz suite's tiler, a command speaking the lines "
                              "protocol (docs/tiler-under-test.md; default: the example tiler "
                              "beside tcfuzz, else the reference tiler)");
    resume_ = run_->add_option("--resume", resume_dir_,
                               "finish the interrupted run whose report is in this folder "
                               "(with its own suites, seed, shard, report folder and "
                               "baseline: options naming those are refused)");
    // What the interrupted run recorded is what it goes on with: an option it would ignore is an
    // error, not a silent no-op.
    for (CLI::Option* o : {suite_, seed_, cases_, time_, suite_time_, shard_, shard_count_, report,
                           expectations, skips, strict, gpu, tiler_})
      resume_->excludes(o);

    merge_ = app.add_subcommand("merge", "Add the shard reports of one run into one report");
    merge_->add_option("dirs", merge_dirs_, "shard report folders")->required();
    merge_->add_option("--report", merge_out_, "folder of the merged report")->required();
    merge_->add_flag("--allow-partial", allow_partial_,
                     "merge missing and interrupted shards as far as they ran; the report says "
                     "what it lacks, and the exit is 1 while anything does");
  }

  int Run(const Call& call) override {
    if (*merge_) {
      if (call.ParseOnly()) return 0;
      ErrorsToStderr split;
      std::ostream log(&split);
      return suites::MergeReports(merge_dirs_, merge_out_, log, allow_partial_);
    }
    if (!*run_) return -1;
    const Getenv env = [](const char* name) -> const char* { return std::getenv(name); };
    auto shard = ChooseShard(
        *shard_ ? std::optional<std::string>(shard_text_) : std::nullopt,
        *shard_count_ ? std::optional<uint64_t>(shard_count_value_) : std::nullopt, env);
    if (!shard.ok()) Die(shard.error());
    o_.shard_index = shard.value().index;
    o_.shard_count = shard.value().count;
    o_.shard_source = shard.value().source;
    if (*seed_) {
      o_.seed = ParseNumberArg("--seed", seed_text_, ~uint64_t{0});
    } else if (o_.shard_count > 1 && !*resume_) {
      // Shards add up to one run only under one seed.
      const auto derived = SeedFromRunId(env);
      if (!derived)
        Die("a sharded run (" + o_.shard_source +
            ") needs the seed every shard shares: pass --seed S, or set TCFUZZ_RUN_ID to an id "
            "all shards see");
      o_.seed = derived->seed;
      o_.seed_source = derived->source;
    } else {
      o_.seed = RandomSeed();
      o_.seed_source = "random";
    }
    if (*time_) o_.run_seconds = seconds_value_;
    if (*suite_time_) o_.seconds = suite_seconds_value_;
    if (*cases_) o_.cases = cases_value_;
    // A suite named twice runs once.
    std::vector<std::string> unique;
    for (const std::string& s : o_.suites) {
      if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
    }
    o_.suites = std::move(unique);
    o_.progress = !no_progress_ && ::isatty(STDERR_FILENO);
    o_.progress_every = no_progress_ ? 0 : progress_every_;
    o_.reruns = static_cast<int>(reruns_);
    o_.command_line = call.CommandLine();
    // The literal link, resolved by each worker at exec: the image this process runs, even if
    // the file is rebuilt during a long run.
    o_.worker = {"/proc/self/exe"};
    device_.Select(call.ParseOnly());
    if (*tiler_) CheckRunnable("--tiler", tiler_command_);
    if (call.ParseOnly()) return 0;
    ErrorsToStderr split;
    std::ostream log(&split);
    // Every subject in one report (issue 34): the host suites, the toolchain scan and the tiling
    // fuzz, then the GPU suites.
    o_.tiler = *tiler_ ? tiler_command_ : suites::FindExampleTiler();  // --resume: the recorded
    auto all = suites::MakeHostSuites();
    // Workers start from this process's own image (a shell runs them: /proc/self/exe would be
    // the shell's), even if the file is rebuilt or removed during the run.
    auto expectations = suites::FindDataFile("toolchain/expectations.txt");
    std::error_code ec;
    if (expectations.ok())
      expectations = oracle::Result<std::string>::Ok(
          std::filesystem::absolute(expectations.value(), ec).string());
    all.push_back(suites::MakeToolchainSuite({"/proc/" + std::to_string(::getpid()) + "/exe"},
                                             std::move(expectations)));
    all.push_back(suites::MakeTilingSuite());
    if (*resume_) return suites::ResumeCampaign(resume_dir_, o_, std::move(all), log);
    return suites::RunCampaign(o_, std::move(all), log);
  }

 private:
  CLI::App *run_ = nullptr, *merge_ = nullptr;
  CLI::Option *suite_ = nullptr, *seed_ = nullptr, *cases_ = nullptr, *time_ = nullptr,
              *suite_time_ = nullptr, *shard_ = nullptr, *shard_count_ = nullptr,
              *resume_ = nullptr, *tiler_ = nullptr;
  suites::CampaignOptions o_;
  DeviceOptions device_;
  std::string seed_text_, shard_text_, resume_dir_, merge_out_, tiler_command_;
  std::vector<std::string> merge_dirs_;
  bool allow_partial_ = false;
  uint64_t shard_count_value_ = 0, reruns_ = 2, cases_value_ = 0;
  double progress_every_ = 30, seconds_value_ = 0, suite_seconds_value_ = 0;
  bool no_progress_ = false;
};

}  // namespace

std::unique_ptr<CommandGroup> CampaignCommands() { return std::make_unique<Campaign>(); }

}  // namespace tcfuzz::cli
