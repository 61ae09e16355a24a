// ctest label `slurm` (issue 34): docs/ci.md's Slurm job array, submitted to a real single-node
// Slurm (scripts/slurm_cluster.sh: Debian's slurm-wlm and munge, private to the test), its shards
// merged by the documented merge job, and the merged report equal to the unsharded run's.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/doc_blocks.h"
#include "suites/tests/support/report_compare.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz {
namespace {

namespace fs = std::filesystem;
using suites::CommandOptions;
using suites::CommandResult;

const std::string kCluster = std::string(TCFUZZ_SOURCE_DIR) + "/scripts/slurm_cluster.sh";

CommandResult Launch(const std::vector<std::string>& argv,
                     const std::vector<std::pair<std::string, std::string>>& env = {}) {
  CommandOptions o;
  o.timeout = std::chrono::seconds(80);  // three steps inside ctest's 300 s
  o.env = env;
  return suites::RunArgv(argv, "", o);
}

std::string LogOf(const std::string& path) {
  const auto text = suites::ReadFile(path);
  return text.ok() ? text.value() : text.error();
}

TEST(Slurm, TheDocumentedJobArrayMergesIntoTheUnshardedRun) {
  const std::string dir = test::TempDir("slurm");
  const std::string cluster = dir + "/cluster";
  // Not through RunArgv, which kills whatever its command leaves running: the daemons must stay.
  const auto cluster_do = [&](const char* what) {
    const int status =
        std::system((suites::ShellQuote(kCluster) + " " + what + " " + suites::ShellQuote(cluster) +
                     " >>" + suites::ShellQuote(dir + "/cluster.log") + " 2>&1")
                        .c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  };
  const int started = cluster_do("start");
  if (started == 3) GTEST_SKIP() << LogOf(dir + "/cluster.log");
  ASSERT_EQ(started, 0) << LogOf(dir + "/cluster.log");
  struct Stop {
    std::function<int(const char*)> stop;
    ~Stop() { stop("stop"); }
  } stop{cluster_do};

  // The two scripts of docs/ci.md's example, as a user copies them. The budget becomes a case
  // count (a time budget's cases differ run to run, so no unsharded run could equal it) and the
  // GPU request goes (this node has none); everything else is the page's.
  std::string array, merge;
  for (const test::DocBlock& b : test::DocBlocks(std::string(TCFUZZ_SOURCE_DIR) + "/docs/ci.md")) {
    if (b.heading != "### Slurm job array") continue;
    (array.empty() ? array : merge) = b.text;
  }
  ASSERT_FALSE(merge.empty()) << "docs/ci.md has no Slurm job array and merge job";
  const std::string budget = "--time 600";
  const std::string cases = "--suite zero-column-mask --suite smem --suite tiling-fuzz --cases 400";
  ASSERT_NE(array.find(budget), std::string::npos) << array;
  array.replace(array.find(budget), budget.size(), cases);
  ASSERT_NE(array.find("#SBATCH --gres=gpu:1\n"), std::string::npos) << array;
  array.erase(array.find("#SBATCH --gres=gpu:1\n"), 21);
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/array.sh", array).ok());
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/merge.sh", merge).ok());

  // `tcfuzz` on PATH, as on a cluster where it is installed; sbatch passes the environment on.
  fs::create_directories(dir + "/bin");
  fs::create_symlink(TCFUZZ_BIN, dir + "/bin/tcfuzz");
  const std::vector<std::pair<std::string, std::string>> env = {
      {"SLURM_CONF", cluster + "/slurm.conf"},
      {"PATH", dir + "/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin"}};
  const CommandResult tasks = Launch({"/usr/bin/sbatch", "--wait", "--chdir", dir, "--output",
                                      dir + "/task-%a.log", dir + "/array.sh"},
                                     env);
  ASSERT_EQ(tasks.exit_code, 0) << tasks.out << tasks.err << LogOf(dir + "/task-0.log");
  const CommandResult merged = Launch({"/usr/bin/sbatch", "--wait", "--chdir", dir, "--output",
                                       dir + "/merge.log", dir + "/merge.sh"},
                                      env);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err << LogOf(dir + "/merge.log");

  const auto shard =
      nlohmann::json::parse(suites::ReadFile(dir + "/results/shard-2/summary.json").value());
  EXPECT_EQ(shard["shard"], "2/4");
  EXPECT_NE(shard["shard_source"].get<std::string>().find("SLURM_ARRAY_TASK_ID"),
            std::string::npos);
  EXPECT_NE(shard["seed_source"].get<std::string>().find("SLURM_ARRAY_JOB_ID"), std::string::npos);
  const auto whole =
      nlohmann::json::parse(suites::ReadFile(dir + "/results/merged/summary.json").value());
  EXPECT_EQ(whole["merged_shards"], 4);
  CommandOptions o;
  o.timeout = std::chrono::seconds(80);
  const CommandResult same =
      suites::RunArgv({TCFUZZ_BIN, "run", "--suite", "zero-column-mask", "--suite", "smem",
                       "--suite", "tiling-fuzz", "--cases", "400", "--no-progress", "--seed",
                       std::to_string(shard["seed"].get<uint64_t>()), "--report", dir + "/same"},
                      "", o);
  ASSERT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_EQ(test::SummaryDiff(dir + "/results/merged", dir + "/same"), "[]");
}

}  // namespace
}  // namespace tcfuzz
