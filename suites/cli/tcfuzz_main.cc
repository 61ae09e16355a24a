// tcfuzz: the command-line tool (suites/cli/main.cc: the table of command groups).
#include <fcntl.h>
#include <unistd.h>

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
  // A closed stdout or stderr (`>&-`) is held by /dev/null for the run: left free, the next file
  // opened (a report's lock) would take its number and receive the output. A closed stdout is
  // still the error it was, said at the end.
  bool stdout_closed = false;
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    const int held = ::open("/dev/null", O_WRONLY);
    if (held >= 0 && held != fd) ::dup2(held, fd), ::close(held);
    stdout_closed = stdout_closed || fd == STDOUT_FILENO;
  }
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
  errno = stdout_closed ? EBADF : 0;
  const bool lost = stdout_closed || !std::cout || std::fflush(stdout) != 0 ||
                    std::ferror(stdout) != 0 || std::fclose(stdout) != 0;
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
