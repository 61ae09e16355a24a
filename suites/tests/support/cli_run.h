// The tcfuzz binary (TCFUZZ_BIN) run as a user runs it, for the CLI tests: its exit code and its
// stdout and stderr together. Without a scheduler's shard variables (which would make every `run`
// a shard) or an inherited backend choice (harness/backend.h).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace tcfuzz::test {

struct CliRun {
  int code;
  std::string out;  // stdout and stderr together
};

// `wrapper`: a command that runs it (`flock FILE`), or nothing.
inline CliRun Tcfuzz(const std::string& args, const std::string& wrapper = "") {
  const std::string cmd =
      wrapper +
      " env -u GTEST_SHARD_INDEX -u GTEST_TOTAL_SHARDS -u SLURM_ARRAY_TASK_ID -u "
      "JOB_COMPLETION_INDEX -u CI_NODE_INDEX -u TCFUZZ_DEVICE -u TCFUZZ_DEVICE_AS -u "
      "TCFUZZ_MUTANT " +
      std::string(TCFUZZ_BIN) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  CliRun r{-1, ""};
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Exit 2 and one line, "tcfuzz: error: ...", holding `names`.
inline void ExpectOneLineError(const CliRun& r, const std::string& names = "") {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("tcfuzz: error: ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  EXPECT_NE(r.out.find(names), std::string::npos) << r.out;
}

}  // namespace tcfuzz::test
