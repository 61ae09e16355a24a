// tcfuzz: the command-line tool (suites/cli/main.cc: the table of command groups).
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "suites/cli/run_cli.h"

namespace {
extern "C" void OnPipe(int) {}  // the write that raised it fails with EPIPE, and that is reported
}  // namespace

int main(int argc, char** argv) {
  // A reader that went away (`tcfuzz ... | head -1`) makes writes fail, not the process die
  // silently; `run` turns it into a stop with its report (suites/engine/stop_signals.h). A caller
  // that ignores SIGPIPE keeps it ignored.
  struct sigaction old = {};
  ::sigaction(SIGPIPE, nullptr, &old);
  if (old.sa_handler == SIG_DFL) {
    struct sigaction sa = {};
    sa.sa_handler = OnPipe;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGPIPE, &sa, nullptr);
  }
  const int rc = tcfuzz::cli::RunCli(argc, argv);
  // Output that could not be written (a full disk, a reader gone) is an error, never success.
  std::cout.flush();
  const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0 ||
                    std::fclose(stdout) != 0;
  if (lost && rc == 2) return 2;  // its error line is out already: one line, not two
  if (lost) {
    const int e = errno;  // the failing write's, when nothing after it set errno
    std::fprintf(
        stderr, "tcfuzz: error: standard output: %s\n",
        e == ENOSPC || e == EPIPE || e == EIO || e == EBADF ? std::strerror(e) : "a write failed");
    return 2;
  }
  return rc;
}
