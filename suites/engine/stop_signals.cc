#include "suites/engine/stop_signals.h"

#include <csignal>

namespace tcfuzz::suites {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int sig) { g_stop_signal = sig; }

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal = 0;
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  ::sigaction(SIGINT, nullptr, &old_int_);
  ::sigaction(SIGTERM, nullptr, &old_term_);
  if (old_int_.sa_handler != SIG_IGN) ::sigaction(SIGINT, &sa, nullptr);
  if (old_term_.sa_handler != SIG_IGN) ::sigaction(SIGTERM, &sa, nullptr);
  struct sigaction pipe = sa;
  pipe.sa_flags = SA_RESTART;  // every later write to the pipe raises it again: never reset
  // Caught even where the caller ignores it (a test runner that spawns with RunArgv does): the
  // writes fail with EPIPE just as when ignored, and the run also stops with its report.
  ::sigaction(SIGPIPE, &pipe, &old_pipe_);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
  ::sigaction(SIGPIPE, &old_pipe_, nullptr);
}

bool StopRequested() { return g_stop_signal != 0; }
int StopSignal() { return g_stop_signal; }

}  // namespace tcfuzz::suites
