// SIGINT and SIGTERM for the length of a run that must end in a report: the first asks for a
// stop at the next safe point, a second one (the handler resets itself) ends the process as the
// signal would. SIGPIPE (`tcfuzz run | head -1`: the reader went away) asks for the same stop and
// stays caught, so the writes after it fail instead of killing the run before its report; it is
// caught even where the caller ignores it. An ignored SIGINT or SIGTERM (nohup) stays ignored.
#pragma once

#include <signal.h>

namespace tcfuzz::suites {

class StopSignals {
 public:
  StopSignals();  // clears any earlier request
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ = {}, old_term_ = {}, old_pipe_ = {};
};

// Whether SIGINT, SIGTERM or SIGPIPE arrived, and which (0: none).
bool StopRequested();
int StopSignal();

}  // namespace tcfuzz::suites
