// Running a command that may crash, hang or flood its output, without letting it take tcfuzz
// down: a program (or `/bin/sh -c COMMAND`) in its own process group under a small reaper
// process (a child subreaper), stdin fed from a string, stdout and stderr captured up to a cap,
// killed at a deadline. Every process the command starts, in its group or not (setsid), is
// killed when it ends: nothing it started outlives the call.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace tcfuzz::suites
