// `tcfuzz run` as CI runs it: shards from the schedulers' variables merged into exactly the
// unsharded report, SIGTERM mid-run leaving an interrupted report (and the seed line already in
// the log) that --resume completes, progress lines off a terminal, and docs/ci.md's examples.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "suites/cli/run_cli.h"
#include "suites/cli/run_shards.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/run_expectations.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/doc_blocks.h"
#include "suites/tests/support/report_compare.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz {
namespace {

namespace fs = std::filesystem;
using suites::CommandOptions;
using suites::CommandResult;
using suites::ReadFile;

// Every variable a scheduler sets, so the caller's own environment cannot shard these runs.
constexpr const char* kSchedulerVars[] = {
    "GTEST_SHARD_INDEX",      "GTEST_TOTAL_SHARDS",   "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_JOB_ID",     "JOB_COMPLETION_INDEX", "CI_NODE_INDEX",
    "CI_NODE_TOTAL",          "CI_PIPELINE_ID",       "GITHUB_RUN_ID",
    "TCFUZZ_RUN_ID"};

// The tcfuzz binary with exactly these scheduler variables.
CommandResult Tcfuzz(const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::string>>& env = {},
                     int timeout_s = 120) {
  std::vector<std::string> argv = {"/usr/bin/env"};
  for (const char* v : kSchedulerVars) argv.insert(argv.end(), {"-u", v});
  for (const auto& [k, v] : env) argv.push_back(k + "=" + v);
  argv.push_back(TCFUZZ_BIN);
  argv.insert(argv.end(), args.begin(), args.end());
  CommandOptions o;
  o.timeout = std::chrono::seconds(timeout_s);
  return suites::RunArgv(argv, "", o);
}

cli::Getenv Env(std::map<std::string, std::string> vars) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [held](const char* name) -> const char* {
    const auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

// `tcfuzz ARGS` started through the shell with stdout and stderr to `log_path`, as a CI job logs
// it; returns its pid once `line` is in the log (the stop handler is in place before the first
// line), or after 12 s.
pid_t StartLogged(const std::string& args, const std::string& log_path, const std::string& line) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const char* v : kSchedulerVars) ::unsetenv(v);
    const std::string cmd =
        std::string("exec ") + TCFUZZ_BIN + " " + args + " > " + log_path + " 2>&1";
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int i = 0; pid > 0 && i < 600; ++i) {
    const auto log = ReadFile(log_path);
    if (log.ok() && log.value().find(line) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return pid;
}

TEST(RunCi, EachSchedulersVariablesGiveTheShard) {
  const std::pair<std::map<std::string, std::string>, std::string> good[] = {
      {{{"GTEST_SHARD_INDEX", "2"}, {"GTEST_TOTAL_SHARDS", "5"}}, "2/5"},
      {{{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}, "3/4"},
      // --array=1-4: ids 1..4 are shards 0..3.
      {{{"SLURM_ARRAY_TASK_ID", "4"},
        {"SLURM_ARRAY_TASK_COUNT", "4"},
        {"SLURM_ARRAY_TASK_MIN", "1"}},
       "3/4"},
      {{{"JOB_COMPLETION_INDEX", "1"}}, "1/3"},                   // with --shard-count 3 below
      {{{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}}, "0/2"},  // GitLab counts from 1
      {{{"CI_NODE_TOTAL", "1"}}, "0/1"},                          // GitLab without parallel:
      {{}, "0/1"},
  };
  for (const auto& [vars, want] : good) {
    const auto c = cli::ChooseShard(
        std::nullopt,
        vars.count("JOB_COMPLETION_INDEX") ? std::optional<uint64_t>(3) : std::nullopt, Env(vars));
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(std::to_string(c.value().index) + "/" + std::to_string(c.value().count), want)
        << c.value().source;
  }
  // --shard wins over the environment.
  const auto flag =
      cli::ChooseShard(std::string("1/2"), std::nullopt,
                       Env({{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "5"}}));
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag.value().source, "--shard");
  const std::pair<std::map<std::string, std::string>, std::string> bad[] = {
      {{{"GTEST_SHARD_INDEX", "1"}}, "GTEST_SHARD_INDEX is set without GTEST_TOTAL_SHARDS"},
      {{{"GTEST_SHARD_INDEX", "5"}, {"GTEST_TOTAL_SHARDS", "5"}}, "need 0 <= index < count"},
      {{{"GTEST_SHARD_INDEX", "x"}, {"GTEST_TOTAL_SHARDS", "5"}}, "GTEST_SHARD_INDEX"},
      {{{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "2"}}, "below its first value 1"},
      {{{"JOB_COMPLETION_INDEX", "0"}}, "pass --shard-count N"},
      {{{"SLURM_ARRAY_TASK_ID", "2"},
        {"SLURM_ARRAY_TASK_COUNT", "4"},
        {"SLURM_ARRAY_TASK_STEP", "2"}},
       "SLURM_ARRAY_TASK_STEP"},
  };
  for (const auto& [vars, want] : bad) {
    const auto c = cli::ChooseShard(std::nullopt, std::nullopt, Env(vars));
    ASSERT_FALSE(c.ok()) << want;
    EXPECT_NE(c.error().find(want), std::string::npos) << c.error();
  }
  // A run id gives every shard the same seed; another id another seed.
  const auto a = cli::SeedFromRunId(Env({{"CI_PIPELINE_ID", "41"}}));
  const auto b = cli::SeedFromRunId(Env({{"CI_PIPELINE_ID", "41"}, {"CI_NODE_INDEX", "2"}}));
  const auto c = cli::SeedFromRunId(Env({{"CI_PIPELINE_ID", "42"}}));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->seed, b->seed);
  EXPECT_NE(a->seed, c->seed);
  EXPECT_EQ(a->source, "CI_PIPELINE_ID=41");
  EXPECT_FALSE(cli::SeedFromRunId(Env({})));
}

TEST(RunCi, ShardsFromEachSchedulerMergeIntoTheUnshardedReport) {
  const std::string root = test::TempDir("ci_shards");
  const std::vector<std::string> run = {"run",     "--suite", "zero-column-mask", "--suite", "smem",
                                        "--cases", "1500",    "--no-progress"};
  auto full_args = run;
  full_args.insert(full_args.end(), {"--seed", "77", "--report", root + "/full"});
  const CommandResult full = Tcfuzz(full_args);
  ASSERT_EQ(full.exit_code, 0) << full.out << full.err;
  // Four shards, each told its place by a different scheduler; the seed from a shared run id.
  const std::vector<std::vector<std::pair<std::string, std::string>>> envs = {
      {{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "4"}, {"TCFUZZ_RUN_ID", "nightly-7"}},
      {{"SLURM_ARRAY_TASK_ID", "2"},
       {"SLURM_ARRAY_TASK_COUNT", "4"},
       {"SLURM_ARRAY_TASK_MIN", "1"},
       {"TCFUZZ_RUN_ID", "nightly-7"}},
      {{"JOB_COMPLETION_INDEX", "2"}, {"TCFUZZ_RUN_ID", "nightly-7"}},
      {{"CI_NODE_INDEX", "4"}, {"CI_NODE_TOTAL", "4"}, {"TCFUZZ_RUN_ID", "nightly-7"}},
  };
  std::vector<std::string> merge = {"merge"};
  for (std::size_t i = 0; i < envs.size(); ++i) {
    auto args = run;
    args.insert(args.end(), {"--report", root + "/s" + std::to_string(i)});
    if (i == 2) args.insert(args.end(), {"--shard-count", "4"});
    const CommandResult r = Tcfuzz(args, envs[i]);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("shard " + std::to_string(i) + "/4 ("), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(TCFUZZ_RUN_ID=nightly-7)"), std::string::npos) << r.out;
    merge.push_back(root + "/s" + std::to_string(i));
  }
  merge.insert(merge.end(), {"--report", root + "/merged"});
  const CommandResult m = Tcfuzz(merge);
  ASSERT_EQ(m.exit_code, 0) << m.out << m.err;
  // The unsharded run under the seed the run id gave.
  const auto seed = nlohmann::json::parse(ReadFile(root + "/s0/summary.json").value())["seed"];
  auto same_args = run;
  same_args.insert(same_args.end(),
                   {"--seed", std::to_string(seed.get<uint64_t>()), "--report", root + "/same"});
  ASSERT_EQ(Tcfuzz(same_args).exit_code, 0);
  EXPECT_EQ(test::SummaryDiff(root + "/merged", root + "/same"), "[]");
  // A sharded run with no seed to share is refused before it starts.
  const CommandResult no_seed = Tcfuzz({"run", "--cases", "10", "--report", root + "/x"},
                                       {{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "2"}});
  EXPECT_EQ(no_seed.exit_code, 2);
  EXPECT_NE(no_seed.err.find("needs the seed every shard shares"), std::string::npos)
      << no_seed.err;
  EXPECT_FALSE(fs::exists(root + "/x"));
  fs::remove_all(root);
}

// Issue 34: the toolchain scan and the tiling fuzz are suites of the one report (summary.json,
// JUnit, HTML), drawn by index like every host suite, so shards merge into the unsharded run.
TEST(RunCi, EverySubjectIsASuiteOfTheOneReport) {
  const std::string root = test::TempDir("ci_subjects");
  const CommandResult full = Tcfuzz({"run", "--cases", "60", "--seed", "31", "--gpu", "off",
                                     "--no-progress", "--report", root + "/full"});
  ASSERT_EQ(full.exit_code, 0) << full.out << full.err;
  const auto j = nlohmann::json::parse(ReadFile(root + "/full/summary.json").value());
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& s : j["suites"]) by_name[s["suite"].get<std::string>()] = s;
  for (const char* name : {"zero-column-mask", "smem", "sparse-oracle", "toolchain", "tiling-fuzz"})
    ASSERT_TRUE(by_name.count(name)) << name << " not in " << j["planned_suites"].dump();
  EXPECT_EQ(by_name["tiling-fuzz"]["cases"], 60);
  const bool toolkit = !by_name["toolchain"].contains("skipped");
  if (toolkit) {
    EXPECT_EQ(by_name["toolchain"]["cases"], 60);
  } else {
    EXPECT_NE(by_name["toolchain"]["skipped"].get<std::string>().find("no CUDA toolkit"),
              std::string::npos);
  }
  const std::string junit = ReadFile(root + "/full/junit.xml").value();
  EXPECT_NE(junit.find("<testsuite name=\"toolchain\""), std::string::npos);
  EXPECT_NE(junit.find("<testsuite name=\"tiling-fuzz\""), std::string::npos);
  EXPECT_NE(junit.find("tiling.Ascend910B2.inside_contract"), std::string::npos);
  EXPECT_NE(ReadFile(root + "/full/index.html").value().find("tiling-fuzz"), std::string::npos);

  // Two shards of those two suites merge into their unsharded run.
  const std::vector<std::string> run = {"run",         "--suite",      "toolchain", "--suite",
                                        "tiling-fuzz", "--cases",      "60",        "--seed",
                                        "31",          "--no-progress"};
  std::vector<std::string> merge = {"merge"};
  for (const char* shard : {"0/2", "1/2"}) {
    auto args = run;
    const std::string dir = root + "/s" + std::string(1, shard[0]);
    args.insert(args.end(), {"--shard", shard, "--report", dir});
    const CommandResult r = Tcfuzz(args);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    merge.push_back(dir);
  }
  merge.insert(merge.end(), {"--report", root + "/merged"});
  const CommandResult m = Tcfuzz(merge);
  ASSERT_EQ(m.exit_code, 0) << m.out << m.err;
  auto same = run;
  same.insert(same.end(), {"--report", root + "/same"});
  ASSERT_EQ(Tcfuzz(same).exit_code, 0);
  EXPECT_EQ(test::SummaryDiff(root + "/merged", root + "/same"), "[]");
  fs::remove_all(root);
}

// A host suite one shard's machine cannot run (here: its toolkit expectations unreadable) is not
// merged as if its other shards were the whole run.
TEST(RunCi, ASuiteSkippedOnOneShardIsNotMergedAsWhole) {
  const std::string root = test::TempDir("ci_skipped_shard");
  fs::create_directories(root + "/data/toolchain");
  std::ofstream(root + "/data/toolchain/expectations.txt") << "not an expectations line\n";
  const std::vector<std::string> run = {"run", "--suite", "toolchain", "--cases",
                                        "20",  "--seed",  "4",         "--no-progress"};
  for (const char* shard : {"0/2", "1/2"}) {
    auto args = run;
    args.insert(args.end(), {"--shard", shard, "--report", root + "/s" + shard[0]});
    const auto env =
        shard[0] == '0'
            ? std::vector<std::pair<std::string, std::string>>{{"TCFUZZ_DATA_DIR", root + "/data"}}
            : std::vector<std::pair<std::string, std::string>>{};
    const CommandResult r = Tcfuzz(args, env);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  const auto s0 = nlohmann::json::parse(ReadFile(root + "/s0/summary.json").value());
  ASSERT_NE(s0["suites"][0]["skipped"].get<std::string>().find("toolchain expectations"),
            std::string::npos);
  const auto s1 = nlohmann::json::parse(ReadFile(root + "/s1/summary.json").value());
  if (s1["suites"][0].contains("skipped")) GTEST_SKIP() << "no CUDA toolkit: no shard ran it";
  const CommandResult m = Tcfuzz({"merge", root + "/s0", root + "/s1", "--report", root + "/m"});
  EXPECT_EQ(m.exit_code, 2) << m.out << m.err;
  EXPECT_NE(m.err.find("suite toolchain ran in some shards and was skipped in shard 0"),
            std::string::npos)
      << m.err;
  const CommandResult p =
      Tcfuzz({"merge", root + "/s0", root + "/s1", "--allow-partial", "--report", root + "/p"});
  EXPECT_EQ(p.exit_code, 1) << p.out << p.err;
  const auto merged = nlohmann::json::parse(ReadFile(root + "/p/summary.json").value());
  EXPECT_NE(merged["partial"].get<std::string>().find("toolchain skipped in shard 0"),
            std::string::npos);
  EXPECT_FALSE(merged["suites"][0]["complete"].get<bool>());
  fs::remove_all(root);
}

// A tiler that takes its time: SIGTERM ends the run within a grain of cases, not a batch of a
// thousand, and the resumed run asks the same tiler (recorded in the report), so the whole run
// is one tiler's.
TEST(RunCi, ASlowTilerHeedsSigtermAndAResumeAsksTheSameTiler) {
  const std::string root = test::TempDir("ci_slow_tiler");
  const std::string tiler = root + "/tiler.sh";
  std::ofstream(tiler)
      << "#!/bin/sh\nwhile read -r line; do sleep 0.01; echo '{\"nonsense\": 1}'; done\n";
  fs::permissions(tiler, fs::perms::owner_all);
  const std::string log_path = root + "/log.txt";
  // Its first line is written once the stop handler is in place; a moment later cases are under
  // way (the first batch, all 1,000, would not end for 5 s).
  const pid_t pid = StartLogged("run --suite tiling-fuzz --tiler " + tiler +
                                    " --seed 3 --cases 1000 --no-progress --report " + root + "/r",
                                log_path, "tcfuzz run: seed 3");
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, SIGTERM);
  // 1,000 cases take 5 s on two threads: a stop heeded only between batches would wait for all.
  int status = 0;
  bool ended = false;
  for (int i = 0; i < 300 && !ended; ++i) {
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(ended) << "SIGTERM not heeded within 3 s: " << ReadFile(log_path).value();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << ReadFile(log_path).value();
  const auto cut = nlohmann::json::parse(ReadFile(root + "/r/summary.json").value());
  EXPECT_LT(cut["cases"].get<uint64_t>(), 1000u);
  EXPECT_EQ(cut["options"]["tiler"], tiler);
  const CommandResult resumed = Tcfuzz({"run", "--resume", root + "/r", "--no-progress"}, {}, 120);
  EXPECT_EQ(resumed.exit_code, 1) << resumed.out << resumed.err;
  const auto whole = nlohmann::json::parse(ReadFile(root + "/r/summary.json").value());
  EXPECT_EQ(whole["cases"], 1000);
  EXPECT_EQ(whole["suites"][0]["failed"], 1000);  // every answer the same tiler's nonsense
  fs::remove_all(root);
}

// A tiler that answers nonsense fails every tiling-fuzz case, and each case's reproducer, a shell
// script, finds the same rule again through `tcfuzz tiling fuzz`.
TEST(RunCi, ATilingFuzzFailureReproducesFromItsScript) {
  const std::string root = test::TempDir("ci_bad_tiler");
  const std::string tiler = root + "/tiler.sh";
  std::ofstream(tiler) << "#!/bin/sh\nwhile read -r line; do echo '{\"nonsense\": 1}'; done\n";
  fs::permissions(tiler, fs::perms::owner_all);
  const CommandResult r = Tcfuzz({"run", "--suite", "tiling-fuzz", "--tiler", tiler, "--cases", "4",
                                  "--seed", "9", "--no-progress", "--report", root + "/r"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = nlohmann::json::parse(ReadFile(root + "/r/summary.json").value());
  EXPECT_EQ(j["suites"][0]["failed"], 4);
  const std::string script = root + "/r/reproducers/tiling-fuzz-2.sh";
  ASSERT_TRUE(fs::exists(script));
  CommandOptions o;
  o.timeout = std::chrono::seconds(60);
  const CommandResult again = suites::RunArgv({"/bin/sh", script}, "", o);
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  EXPECT_NE(again.out.find("tiler.garbage"), std::string::npos) << again.out;
  // The script says which case it was, and the campaign's case is the fuzz's case of that seed.
  EXPECT_NE(again.out.find("seed 9"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("case 2: tiler.garbage"), std::string::npos) << again.out;
  fs::remove_all(root);
}

TEST(RunCi, SigtermMidRunLeavesAnInterruptedReportThatResumeCompletes) {
  const std::string root = test::TempDir("ci_sigterm");
  const std::string log_path = root + "/log.txt";
  // The seed line is in the log before any case has run; then the run is stopped.
  const pid_t pid = StartLogged(
      "run --suite sparse-oracle --seed 5 --cases 8000 --progress-every 0.01 --report " + root +
          "/r",
      log_path, "seed 5");
  ASSERT_GT(pid, 0);
  std::string log = ReadFile(log_path).ok() ? ReadFile(log_path).value() : "";
  EXPECT_NE(log.find("tcfuzz run: seed 5 (--seed)"), std::string::npos) << log;
  // Stopped once its first progress line shows it is under way.
  for (int i = 0; i < 600 && log.find("[sparse-oracle] ") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    log = ReadFile(log_path).value();
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << ReadFile(log_path).value();
  const auto cut = nlohmann::json::parse(ReadFile(root + "/r/summary.json").value());
  EXPECT_TRUE(cut["interrupted"].get<bool>());
  EXPECT_FALSE(cut["suites"][0]["complete"].get<bool>());
  EXPECT_LT(cut["cases"].get<uint64_t>(), 8000u);
  EXPECT_NE(ReadFile(log_path).value().find("tcfuzz run --resume " + root + "/r"),
            std::string::npos);
  // An option the resumed run would ignore is refused, and the report is left as it was.
  for (const char* opt : {"--suite", "--report", "--gpu", "--seed"}) {
    const std::string value = std::string(opt) == "--gpu"    ? "off"
                              : std::string(opt) == "--seed" ? "1"
                                                             : "smem";
    const CommandResult ignored = Tcfuzz({"run", "--resume", root + "/r", opt, value}, {}, 60);
    EXPECT_EQ(ignored.exit_code, 2) << opt;
    EXPECT_EQ(ignored.err, std::string("tcfuzz: error: ") + opt + " excludes --resume\n");
  }
  EXPECT_TRUE(nlohmann::json::parse(ReadFile(root + "/r/summary.json").value())["interrupted"]);
  // Resumed, it is the run that was never stopped.
  const CommandResult resumed = Tcfuzz({"run", "--resume", root + "/r", "--no-progress"}, {}, 600);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  const CommandResult whole = Tcfuzz({"run", "--suite", "sparse-oracle", "--seed", "5", "--cases",
                                      "8000", "--report", root + "/whole", "--no-progress"},
                                     {}, 600);
  ASSERT_EQ(whole.exit_code, 0);
  EXPECT_EQ(test::SummaryDiff(root + "/r", root + "/whole"), "[]");
  // --resume takes nothing that would change the run.
  const CommandResult mixed = Tcfuzz({"run", "--resume", root + "/r", "--seed", "1"});
  EXPECT_EQ(mixed.exit_code, 2);
  fs::remove_all(root);
}

TEST(RunCi, OffATerminalProgressIsAPlainPeriodicLine) {
  const std::string root = test::TempDir("ci_progress");
  // Few cases and a short period: every batch (1,024 cases, at least a few ms) is past it, in the
  // sanitizer build too (30,000 cases took past 2 minutes there on a loaded machine).
  const CommandResult r = Tcfuzz({"run", "--suite", "smem", "--seed", "3", "--cases", "3000",
                                  "--progress-every", "0.001", "--report", root + "/r"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Plain lines (no carriage return) with the total, the rate and an ETA.
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  EXPECT_NE(r.err.find("[smem] "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/3000 cases ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" cases/s, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", ETA "), std::string::npos) << r.err;
  fs::remove_all(root);
}

// Issue 34: --time was per suite, so a job of N suites ran N times its budget and its scheduler
// killed it. Now it is the run's: the first of two suites gets half of 2 s (per suite it would
// have had all 2 s), the second what is left (the clock is read between batches, so a batch may
// run past it: seconds under the sanitizers); --suite-time keeps the per-suite budget.
TEST(RunCi, TimeIsTheWholeRunsBudget) {
  const std::string root = test::TempDir("ci_time");
  const CommandResult r =
      Tcfuzz({"run", "--suite", "zero-column-mask", "--suite", "smem", "--seed", "5", "--time", "2",
              "--progress-every", "0.001", "--report", root + "/r"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(", 2.000000 s in all"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(suites::ReadFile(root + "/r/summary.json").value());
  EXPECT_EQ(j["options"]["run_seconds"], 2.0);
  EXPECT_TRUE(j["options"]["seconds"].is_null());
  ASSERT_EQ(j["suites"].size(), 2u);
  const double first = j["suites"][0]["seconds"], second = j["suites"][1]["seconds"];
  EXPECT_GT(j["suites"][0]["cases"].get<uint64_t>(), 0u);
  EXPECT_GT(j["suites"][1]["cases"].get<uint64_t>(), 0u);
  EXPECT_LT(first, 1.5) << "the first suite took more than its half of the run";
  EXPECT_GT(second, 0.0);
  // The progress line's ETA is the run's end: never past the 2 s budget.
  std::size_t etas = 0;
  for (std::size_t at = 0; (at = r.err.find(", ETA ", at)) != std::string::npos; at += 6, ++etas)
    EXPECT_LE(std::stod(r.err.substr(at + 6)), 2.0) << r.err.substr(at, 40);
  EXPECT_GT(etas, 0u) << r.err;
  const CommandResult per =
      Tcfuzz({"run", "--suite", "zero-column-mask", "--seed", "5", "--suite-time", "0.5",
              "--no-progress", "--report", root + "/p"});
  EXPECT_EQ(per.exit_code, 0) << per.err;
  const auto p = nlohmann::json::parse(suites::ReadFile(root + "/p/summary.json").value());
  EXPECT_EQ(p["options"]["seconds"], 0.5);
  EXPECT_FALSE(p["options"].contains("run_seconds"));
  fs::remove_all(root);
}

// The words of `command` as the shell would pass them, its variables set from `env`.
std::vector<std::string> ShellWords(const std::string& command,
                                    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> argv = {"/usr/bin/env", "-i"};
  for (const auto& [k, v] : env) argv.push_back(k + "=" + v);
  argv.insert(argv.end(), {"/bin/sh", "-c", "printf '%s\\n' " + command});
  const CommandResult r = suites::RunArgv(argv, "", {});
  std::vector<std::string> words;
  std::istringstream lines(r.out);
  for (std::string w; std::getline(lines, w);) words.push_back(w);
  return words;
}

// Every `tcfuzz ...` line of an example, run through the CLI's parse-only mode with the
// scheduler's variables set; returns how many there were.
int CheckTcfuzzLines(const std::string& text,
                     const std::vector<std::pair<std::string, std::string>>& vars,
                     const std::string& where) {
  int commands = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find("tcfuzz ");
    if (at == std::string::npos || line.find('#') < at) continue;
    std::string command = line.substr(at);
    // GitHub's expression syntax is not the shell's.
    for (std::size_t p; (p = command.find("${{ matrix.shard }}")) != std::string::npos;)
      command.replace(p, 19, "1");
    if (command.starts_with("tcfuzz run --resume")) continue;  // needs a report; tested above
    std::vector<std::string> words = ShellWords(command, vars);
    EXPECT_GE(words.size(), 2u) << command;
    if (words.size() < 2) continue;
    EXPECT_EQ(words[0], "tcfuzz");
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    for (const char* v : kSchedulerVars) ::unsetenv(v);
    for (const auto& [k, v] : vars) ::setenv(k.c_str(), v.c_str(), 1);
    EXPECT_EQ(cli::RunCli(static_cast<int>(argv.size()), argv.data(), cli::CliMode::kParseOnly), 0)
        << where << ": " << command;
    for (const auto& [k, v] : vars) ::unsetenv(k.c_str());
    ++commands;
  }
  return commands;
}

TEST(RunCi, DocExamplesParseAndTheirCommandsRun) {
  const auto blocks = test::DocBlocks(std::string(TCFUZZ_SOURCE_DIR) + "/docs/ci.md");
  const std::string dir = test::TempDir("ci_docs");
  // What each scheduler sets, by the example's heading.
  const std::map<std::string, std::vector<std::pair<std::string, std::string>>> env = {
      {"### Kubernetes Indexed Job", {{"JOB_COMPLETION_INDEX", "2"}, {"TCFUZZ_RUN_ID", "uid-1"}}},
      {"### Slurm job array",
       {{"SLURM_ARRAY_TASK_ID", "1"},
        {"SLURM_ARRAY_TASK_COUNT", "4"},
        {"SLURM_ARRAY_TASK_MIN", "0"},
        {"SLURM_ARRAY_JOB_ID", "9001"}}},
      {"### GitLab", {{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "4"}, {"CI_PIPELINE_ID", "31"}}},
      {"### GitHub Actions matrix", {{"GITHUB_RUN_ID", "12345"}}},
  };
  int commands = 0, examples = 0;
  for (const test::DocBlock& b : blocks) {
    const std::string file = dir + "/block";
    ASSERT_TRUE(suites::WriteFileAtomic(file, b.text).ok());
    if (b.language == "yaml") {
      ++examples;
      const CommandResult y = suites::RunArgv(
          {"/usr/bin/python3", "-c", "import sys, yaml; yaml.safe_load(open(sys.argv[1]))", file},
          "", {});
      EXPECT_EQ(y.exit_code, 0) << b.heading << ": " << y.err;
    } else if (b.language == "text" && b.heading.find("expectations") != std::string::npos) {
      ++examples;  // an expectations file, read as run reads one
      const auto e = suites::RunExpectations::Load(file, false);
      EXPECT_TRUE(e.ok()) << e.error();
    } else if (b.language == "bash" || b.language == "sh") {
      ++examples;
      const CommandResult n = suites::RunArgv({"/bin/bash", "-n", file}, "", {});
      EXPECT_EQ(n.exit_code, 0) << b.heading << ": " << n.err;
    }
    const auto it = env.find(b.heading);
    const auto vars =
        it == env.end() ? std::vector<std::pair<std::string, std::string>>{} : it->second;
    commands += CheckTcfuzzLines(b.text, vars, b.heading);
  }
  EXPECT_GE(examples, 7);
  EXPECT_GE(commands, 7);
  fs::remove_all(dir);
}

TEST(RunCi, DeployTemplatesParseAndTheirCommandsRun) {
  // deploy/: the GPU-runner image and the CI templates cannot run here; every tcfuzz command they
  // call must exist with those flags, their YAML must parse and their baseline file must load.
  const std::string root = std::string(TCFUZZ_SOURCE_DIR) + "/deploy/";
  for (const char* yml : {"ci/github-actions.yml", "ci/gitlab-ci.yml"}) {
    const CommandResult y =
        suites::RunArgv({"/usr/bin/python3", "-c",
                         "import sys, yaml; yaml.safe_load(open(sys.argv[1]))", root + yml},
                        "", {});
    EXPECT_EQ(y.exit_code, 0) << yml << ": " << y.err;
  }
  EXPECT_TRUE(suites::RunExpectations::Load(root + "ci/expectations.txt", false).ok());
  const int github = CheckTcfuzzLines(suites::ReadFile(root + "ci/github-actions.yml").value(),
                                      {{"GITHUB_RUN_ID", "12345"}}, "github-actions.yml");
  const int gitlab = CheckTcfuzzLines(
      suites::ReadFile(root + "ci/gitlab-ci.yml").value(),
      {{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "4"}, {"CI_PIPELINE_ID", "31"}}, "gitlab-ci.yml");
  EXPECT_EQ(github, 2);
  EXPECT_EQ(gitlab, 2);
  // The image: its RUN lines' tcfuzz commands, and ENTRYPOINT + CMD as one command.
  const std::string docker = suites::ReadFile(root + "Dockerfile").value();
  std::string runs;  // the RUN instructions (COPY and ENV lines name the install folder)
  std::istringstream lines(docker);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("RUN ")) runs += line + "\n";
  }
  EXPECT_EQ(CheckTcfuzzLines(runs, {}, "Dockerfile RUN"), 1);
  const auto cmd_at = docker.find("\nCMD [");
  ASSERT_NE(cmd_at, std::string::npos);
  std::string cmd = docker.substr(cmd_at + 6, docker.find(']', cmd_at) - cmd_at - 6);
  std::string joined = "tcfuzz";
  for (std::size_t p = 0; (p = cmd.find('"', p)) != std::string::npos;) {
    const std::size_t e = cmd.find('"', p + 1);
    joined += " " + cmd.substr(p + 1, e - p - 1);
    p = e + 1;
  }
  EXPECT_EQ(CheckTcfuzzLines(joined, {}, "Dockerfile CMD"), 1) << joined;
  EXPECT_NE(docker.find("ENTRYPOINT [\"tcfuzz\"]"), std::string::npos);
}

}  // namespace
}  // namespace tcfuzz
