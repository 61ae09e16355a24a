// The argument layer: a command line drawn from the bytes (one word per line, "tcfuzz" before
// them) through RunCli in parse-only mode, every subcommand and option. Whatever the words, the
// run returns 0, 1 or 2; a 2 leaves exactly one line on stderr, "tcfuzz: error: ...", and nothing
// else there; nothing is written and no process started (suites/cli/run_cli.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "suites/cli/run_cli.h"

namespace {

// Stdout swallowed, stderr captured, for one call.
class Capture {
 public:
  Capture() : out_(std::cout.rdbuf(&sink_)), err_(std::cerr.rdbuf(&errors_)) {}
  ~Capture() {
    std::cout.rdbuf(out_);
    std::cerr.rdbuf(err_);
  }
  std::string errors() const { return errors_.str(); }

 private:
  class Null : public std::streambuf {
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  } sink_;
  std::stringbuf errors_;
  std::streambuf* out_;
  std::streambuf* err_;
};

[[noreturn]] void Fail(const std::string& why, const std::vector<std::string>& words) {
  std::fprintf(stderr, "cli_args_fuzzer: %s; words:", why.c_str());
  for (const std::string& w : words) std::fprintf(stderr, " [%s]", w.c_str());
  std::fprintf(stderr, "\n");
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // a command line, not a file
  std::vector<std::string> words{"tcfuzz"};
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      words.push_back(word);
      word.clear();
    } else if (data[i] != 0) {  // argv words cannot hold a NUL
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty()) words.push_back(word);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int rc;
  std::string errors;
  {
    Capture capture;
    rc = tcfuzz::cli::RunCli(static_cast<int>(words.size()), argv.data(),
                             tcfuzz::cli::CliMode::kParseOnly);
    errors = capture.errors();
  }
  if (rc < 0 || rc > 2) Fail("exit code " + std::to_string(rc), words);
  if (rc == 2) {
    const std::string prefix = "tcfuzz: error: ";
    if (errors.compare(0, prefix.size(), prefix) != 0 || errors.empty() || errors.back() != '\n' ||
        errors.find('\n') != errors.size() - 1) {
      Fail("exit 2 without exactly one error line on stderr: '" + errors + "'", words);
    }
  }
  return 0;
}
