// Helpers every tcfuzz command shares: one-line errors with exit code 2, number parsing.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "oracle/core/text_format.h"

namespace tcfuzz::cli {

// A text as one line (oracle/core/text_format.h): every message quotes through it.
using oracle::OneLine;

// How a command ends early: thrown by Die, caught by RunCli (suites/cli/run_cli.h), which
// returns the code; destructors run on the way, and a caller in the same process (the argument
// fuzzer) survives it.
struct Exit {
  int code;
};

[[noreturn]] inline void Die(const std::string& message) {
  std::cerr << oracle::ErrorLine(message);
  throw Exit{2};
}

inline uint64_t ParseNumberArg(const std::string& what, const std::string& text, uint64_t max) {
  auto v = oracle::ParseUint(text, max);
  if (!v.ok()) Die(what + ": " + v.error());
  return v.value();
}

// A command line's program (its first word) is an executable file, found on PATH when it has no
// '/'; else a one-line error: a missing program would fail every call, not be a finding.
inline void CheckRunnable(const std::string& what, const std::string& command) {
  const std::size_t begin = command.find_first_not_of(" \t");
  if (begin == std::string::npos) Die(what + ": empty command");
  const std::string program = command.substr(begin, command.find_first_of(" \t", begin) - begin);
  if (program.find_first_of("=$`'\"\\(){};&|<>~*?[!") != std::string::npos)
    return;  // shell syntax (expansions, quoting, globs): let the shell judge
  for (const char* builtin :
       {"cd", "exec", "time", "ulimit", "umask", "command", "builtin", "eval", ".", "source",
        "export", "set", "if", "for", "while", "until", "case"}) {
    if (program == builtin) return;  // the shell's own word
  }
  const auto runnable = [](const std::string& p) {  // a folder is "executable" to access(): no
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) {
    if (!runnable(program)) Die(what + ": '" + program + "' is not an executable file");
    return;
  }
  const char* path = std::getenv("PATH");
  for (std::string_view rest = path ? path : ""; !rest.empty();) {
    const std::size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    if (runnable((dir.empty() ? "." : dir) + "/" + program)) return;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  Die(what + ": '" + program + "' is not on PATH");
}

// One number parser for every numeric option: decimal or 0x hex, no sign, never read as octal and
// never wrapped; a value outside [min, max], an empty one or a second spelling of the option is a
// one-line error naming the option.
template <class T>
CLI::Option* AddNumber(CLI::App* app, const std::string& name, T& target, uint64_t min,
                       uint64_t max, const std::string& help) {
  return app->add_option_function<std::string>(
      name,
      [&target, name, min, max](const std::string& text) {
        const uint64_t v = ParseNumberArg(name, text, max);
        if (v < min) Die(name + ": must be at least " + std::to_string(min) + ", got " + text);
        target = static_cast<T>(v);
      },
      help);
}

// Seconds: a finite decimal above 0 and at most a year (no "inf", no 1e309); nullopt otherwise.
inline std::optional<double> ParseSeconds(const std::string& text) {
  char* end = nullptr;
  const double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(v > 0) || v > 3.2e7)
    return std::nullopt;
  return v;
}

inline CLI::Option* AddSeconds(CLI::App* app, const std::string& name, double& target,
                               const std::string& help) {
  return app->add_option_function<std::string>(
      name,
      [&target, name](const std::string& text) {
        const std::optional<double> v = ParseSeconds(text);
        if (!v) {
          Die(name + ": must be a number of seconds above 0 and at most a year, got '" + text +
              "'");
        }
        target = *v;
      },
      help);
}

// An enumeration value by name, or a one-line error listing the accepted names.
template <class E>
E ParseEnumArg(const std::string& what, const std::string& text,
               std::optional<E> (*parse)(std::string_view), const char* accepted) {
  const std::optional<E> v = parse(text);
  if (!v) Die(what + ": '" + text + "' is not one of " + accepted);
  return *v;
}

// A seed from the system's entropy, for a run given no --seed (the run prints it).
inline uint64_t RandomSeed() {
  std::random_device rd;
  const uint64_t high = rd();
  return (high << 32) | rd();
}

// The log of a long command (run, tiling fuzz) as one stream: its results go to stdout and every
// line that is an error or a warning ("tcfuzz: error: ...", "tcfuzz: warning: ...") to stderr, so
// each command reports errors on stderr without every callee choosing a stream. Lines pass
// through whole; a carriage return (a progress line redrawn) passes at once.
class ErrorsToStderr : public std::streambuf {
 public:
  ErrorsToStderr() = default;
  ErrorsToStderr(const ErrorsToStderr&) = delete;
  ErrorsToStderr& operator=(const ErrorsToStderr&) = delete;
  ~ErrorsToStderr() override { Flush(); }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    line_ += static_cast<char>(c);
    if (c == '\n' || c == '\r') Flush();
    return c;
  }
  int sync() override {
    Flush();
    return 0;
  }

 private:
  void Flush() {
    if (line_.empty()) return;
    const bool error = line_.starts_with("tcfuzz: error:") || line_.starts_with("tcfuzz: warning:");
    std::ostream& to = error ? std::cerr : std::cout;
    to << line_ << std::flush;
    line_.clear();
  }
  std::string line_;
};

}  // namespace tcfuzz::cli
