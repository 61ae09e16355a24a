// Running a command that may crash, hang or flood its output, without letting it take tcfuzz
// down: a program (or `/bin/sh -c COMMAND`) in its own process group under a small reaper
// process (a child subreaper), stdin fed from a string, stdout and stderr captured up to a cap,
// killed at a deadline. Every process the command starts, in its group or not (setsid), is
// killed when it ends: nothing it started outlives the call.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

struct CommandResult {
  bool started = false;    // false: fork/exec plumbing failed (error says why)
  bool timed_out = false;  // killed at the deadline
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it (SIGKILL after a timeout included)
  std::string out, err;    // captured, each cut at the cap
  bool out_truncated = false;
  std::string error;  // one line, when !started

  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "signal 11 (Segmentation fault)", "timed out after 2000 ms", ...
  std::string Describe(std::chrono::milliseconds timeout) const;
};

struct CommandOptions {
  std::chrono::milliseconds timeout{10000};
  std::size_t max_output = std::size_t{1} << 20;         // per stream
  std::vector<std::pair<std::string, std::string>> env;  // added to the inherited environment
};

// Runs argv[0] (a path, not searched) with argv. SIGPIPE is ignored in this process from the
// first call on (a child that exits without reading stdin must not kill tcfuzz); the child gets
// it back.
CommandResult RunArgv(const std::vector<std::string>& argv, const std::string& stdin_text,
                      const CommandOptions& options);

// `word` as one /bin/sh word: in single quotes, each ' written as '\''.
std::string ShellQuote(std::string_view word);

// The tcfuzz that runs, as a command a report or reproducer prints: its absolute path, shell-
// quoted, since the tcfuzz that wrote a file is seldom on PATH (a build tree, a CI image).
// "tcfuzz" where this process is no tcfuzz (a test binary running a campaign in-process).
std::string ToolCommand();

// RunArgv of `/bin/sh -c command`.
CommandResult RunCommand(const std::string& command, const std::string& stdin_text,
                         const CommandOptions& options);

// `/bin/sh -c command` kept running between questions, one line asked and one line answered at a
// time (a persistent tiler: docs/tiler-under-test.md). Started as RunArgv starts a command (its
// own group under the reaper, everything it starts killed when the session ends); options.env is
// its environment over ours, options.max_output the longest answer. Its last 4 KiB of stderr say
// why it died.
class LineSession {
 public:
  LineSession(const std::string& command, const CommandOptions& options);
  ~LineSession();
  LineSession(const LineSession&) = delete;
  LineSession& operator=(const LineSession&) = delete;

  // `line` and a newline to its stdin, then its next line of stdout (without the newline), by
  // `timeout`. Fails with why: it did not start, it ended ("exit 3: <its last stderr line>"), no
  // answer in time, an answer past options.max_output bytes. After a failure the session is
  // ended and every Ask fails.
  oracle::Result<std::string> Ask(const std::string& line, std::chrono::milliseconds timeout);
  // Why the last Ask failed: it ended (or never started), no answer in time, or an answer out of
  // turn or too long.
  enum class Failure { kNone, kEnded, kTimeout, kGarbage };
  Failure failure() const { return failure_; }

 private:
  void End();
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::size_t max_output_;
  std::string pending_, err_tail_, error_;
  Failure failure_ = Failure::kNone;
};

}  // namespace tcfuzz::suites
