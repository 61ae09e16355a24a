// Where `tcfuzz run` takes its shard and, for a sharded run, its seed: --shard, else the shard
// variables of the schedulers CI fleets run (GoogleTest sharding, Slurm job arrays, Kubernetes
// Indexed Jobs, GitLab parallel jobs). Shards add up to one run only with one seed: a sharded run
// takes --seed, or derives its seed from a run id every shard sees, and is refused otherwise.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "oracle/core/result.h"

namespace tcfuzz::cli {

// An environment lookup (nullptr: unset); tests pass their own.
using Getenv = std::function<const char*(const char*)>;

struct ShardChoice {
  uint64_t index = 0, count = 1;
  std::string source;  // "--shard", "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", ... ; "" none
};

// `flag`: --shard's "I/N"; `count_flag`: --shard-count N (the count a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX needs). Error: one line naming the variable or option.
oracle::Result<ShardChoice> ChooseShard(const std::optional<std::string>& flag,
                                        std::optional<uint64_t> count_flag, const Getenv& env);

struct SeedChoice {
  uint64_t seed = 0;
  std::string source;  // "TCFUZZ_RUN_ID=...", "CI_PIPELINE_ID=...", ...
};

// The seed a run id in the environment gives (the same in every shard); nullopt when none is set.
std::optional<SeedChoice> SeedFromRunId(const Getenv& env);

}  // namespace tcfuzz::cli
