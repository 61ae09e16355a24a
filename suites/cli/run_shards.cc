#include "suites/cli/run_shards.h"

#include "generators/core/random_source.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::cli {
namespace {

constexpr uint64_t kMaxShards = uint64_t{1} << 20;

oracle::Result<uint64_t> Number(const char* name, const char* text) {
  auto n = oracle::ParseUint(text, ~uint64_t{0});
  if (!n.ok()) return oracle::Error(std::string(name) + ": " + n.error());
  return oracle::Result<uint64_t>::Ok(n.value());
}

// A pair of variables: both set, or neither; index < count <= kMaxShards.
oracle::Result<std::optional<ShardChoice>> Pair(const Getenv& env, const char* index_var,
                                                const char* count_var, uint64_t index_base) {
  const char* i = env(index_var);
  const char* n = env(count_var);
  using R = oracle::Result<std::optional<ShardChoice>>;
  if (i == nullptr && n == nullptr) return R::Ok(std::nullopt);
  if (i == nullptr || n == nullptr)
    return oracle::Error(std::string(i ? index_var : count_var) + " is set without " +
                         (i ? count_var : index_var));
  auto index = Number(index_var, i);
  if (!index.ok()) return oracle::Error(index.error());
  auto count = Number(count_var, n);
  if (!count.ok()) return oracle::Error(count.error());
  if (index.value() < index_base)
    return oracle::Error(std::string(index_var) + " = " + i + " is below its first value " +
                         std::to_string(index_base));
  ShardChoice c{index.value() - index_base, count.value(),
                std::string(index_var) + "/" + count_var};
  if (c.count == 0 || c.count > kMaxShards || c.index >= c.count)
    return oracle::Error(c.source + ": need 0 <= index < count <= " + std::to_string(kMaxShards) +
                         ", got " + i + " and " + n);
  return R::Ok(c);
}

oracle::Result<ShardChoice> Ok(ShardChoice c) {
  return oracle::Result<ShardChoice>::Ok(std::move(c));
}

}  // namespace

oracle::Result<ShardChoice> ChooseShard(const std::optional<std::string>& flag,
                                        std::optional<uint64_t> count_flag, const Getenv& env) {
  if (flag) {
    const std::size_t slash = flag->find('/');
    if (slash == std::string::npos)
      return oracle::Error("--shard: expected I/N, got " + oracle::Quoted(*flag));
    auto index = oracle::ParseUint(flag->substr(0, slash), kMaxShards);
    auto count = oracle::ParseUint(flag->substr(slash + 1), kMaxShards);
    if (!index.ok()) return oracle::Error("--shard index: " + index.error());
    if (!count.ok()) return oracle::Error("--shard count: " + count.error());
    if (count.value() == 0 || index.value() >= count.value())
      return oracle::Error("--shard: need 0 <= I < N, got " + oracle::Quoted(*flag));
    return Ok({index.value(), count.value(), "--shard"});
  }
  // GoogleTest's sharding protocol (also what CTest and many runners export).
  auto gtest = Pair(env, "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS", 0);
  if (!gtest.ok()) return oracle::Error(gtest.error());
  if (gtest.value()) return Ok(*gtest.value());
  // Slurm job arrays: task ids run from SLURM_ARRAY_TASK_MIN (--array=1-8 gives 1..8).
  if (env("SLURM_ARRAY_TASK_ID") != nullptr) {
    uint64_t base = 0;
    if (const char* min = env("SLURM_ARRAY_TASK_MIN")) {
      auto m = Number("SLURM_ARRAY_TASK_MIN", min);
      if (!m.ok()) return oracle::Error(m.error());
      base = m.value();
    }
    if (const char* step = env("SLURM_ARRAY_TASK_STEP"); step && std::string(step) != "1")
      return oracle::Error("SLURM_ARRAY_TASK_STEP = " + oracle::OneLine(step) +
                           ": an array with a step does not number its tasks 0..N-1; use --shard");
    auto slurm = Pair(env, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", base);
    if (!slurm.ok()) return oracle::Error(slurm.error());
    return Ok(slurm.value().value_or(ShardChoice{}));
  }
  // Kubernetes Indexed Jobs export the index only; the count is the Job's completions.
  if (const char* k8s = env("JOB_COMPLETION_INDEX")) {
    if (!count_flag)
      return oracle::Error(
          "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the shard count: "
          "pass --shard-count N, N the Job's completions");
    auto index = Number("JOB_COMPLETION_INDEX", k8s);
    if (!index.ok()) return oracle::Error(index.error());
    if (*count_flag == 0 || *count_flag > kMaxShards || index.value() >= *count_flag)
      return oracle::Error("JOB_COMPLETION_INDEX = " + oracle::OneLine(k8s) +
                           " is not below --shard-count " + std::to_string(*count_flag));
    return Ok({index.value(), *count_flag, "JOB_COMPLETION_INDEX/--shard-count"});
  }
  // GitLab `parallel:` jobs, numbered from 1 (CI_NODE_TOTAL alone is set, to 1, otherwise).
  if (env("CI_NODE_INDEX") != nullptr) {
    auto gitlab = Pair(env, "CI_NODE_INDEX", "CI_NODE_TOTAL", 1);
    if (!gitlab.ok()) return oracle::Error(gitlab.error());
    return Ok(gitlab.value().value_or(ShardChoice{}));
  }
  if (count_flag)
    return oracle::Error("--shard-count without JOB_COMPLETION_INDEX in the environment");
  return Ok({});
}

std::optional<SeedChoice> SeedFromRunId(const Getenv& env) {
  // Ids every shard of one run sees alike, and a new run does not.
  for (const char* var :
       {"TCFUZZ_RUN_ID", "GITHUB_RUN_ID", "CI_PIPELINE_ID", "SLURM_ARRAY_JOB_ID"}) {
    const char* value = env(var);
    if (value == nullptr || *value == '\0') continue;
    const std::string key = std::string(var) + "=" + value;
    return SeedChoice{gen::CaseSeed(0, key, 0), key};
  }
  return std::nullopt;
}

}  // namespace tcfuzz::cli
