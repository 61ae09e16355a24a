// The tcfuzz command line as a function: main() calls it, and so does the argument fuzzer
// (suites/fuzz/cli_args_fuzzer.cc), in the same process as often as it likes. Every error is one
// line on stderr and the code 2 returned (cli::Die throws cli::Exit; nothing calls exit).
#pragma once

namespace tcfuzz::cli {

enum class CliMode {
  kRun,        // the tool
  kParseOnly,  // parse and check every option of every command; run only the commands that read
               // nothing but their arguments and write only stdout (explain, encode, oracle
               // rows/readings, rules); no file written, no process started
};

int RunCli(int argc, char** argv, CliMode mode = CliMode::kRun);

}  // namespace tcfuzz::cli
