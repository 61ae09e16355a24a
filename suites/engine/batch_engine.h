// The crash-proof way to run many device cases: the parent process never touches the GPU; it
// hands contiguous ranges of case indices to worker processes (exec'd, never a bare fork),
// writes a journal line (flushed to disk) before each range, kills a worker that outlives its
// watchdog, and when a worker dies, hangs or reports a sticky device fault it splits the range
// into parts and runs each in a fresh worker, down to the single case responsible. Every case
// ends in one class: pass, mismatch, device fault, timeout, not supported or harness error
// (suites/engine/worker_protocol.h says what a worker prints).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

struct EngineResult;

struct EngineOptions {
  // The worker: argv[0] must be a path. The engine appends
  // `--suite S --seed X --first F --count C` and then `extra_args`.
  std::vector<std::string> worker;
  std::vector<std::string> extra_args;
  uint64_t batch = uint64_t{1} << 16;              // cases per worker
  int split = 8;                                   // parts a failed range is cut into
  std::chrono::milliseconds watchdog_base{20000};  // per worker: start-up and JIT
  std::chrono::microseconds watchdog_per_case{50};
  std::string journal_path;  // empty: no journal
  // > 0: start no new batch after this long, and size each batch to end within it (the first
  // at most kFirstBatchUnderDeadline cases, each later one from the pace of the last worker).
  std::chrono::milliseconds deadline{0};
  std::function<bool()> stop;  // true: start no new batch (an interruption); null: never
  // A failing case (mismatch, fault, timeout, harness error) runs again this many times, each
  // in a fresh worker: a result that changes makes it flaky (the first 100 failing cases).
  int reruns = 0;
  std::function<void(const EngineResult&)> on_progress;  // after every worker
};

inline constexpr uint64_t kFirstBatchUnderDeadline = 1024;

struct CaseRecord {
  uint64_t index = 0;
  CaseOutcome outcome = CaseOutcome::kPass;
  std::string detail;
  // false: no complete worker counted this case in its family (the culprit of a range that
  // faulted, hung or crashed, found alone): the parent counts it from its own rebuild.
  bool in_families = true;
};

struct EngineResult {
  uint64_t cases = 0;  // cases run (or charged to a class)
  uint64_t next = 0;   // every index below it ran: where a stopped run goes on
  std::map<CaseOutcome, uint64_t> counts;
  std::vector<CaseRecord> records;  // every case that is neither pass nor not supported
  std::map<std::string, uint64_t> not_supported;  // reason -> cases
  // The complete workers' cases per family: those that ran, and those the device lacks.
  FamilyCounts families, unsupported_families;
  uint64_t workers = 0;       // processes started
  double worker_seconds = 0;  // their wall time, all of them
  // What the complete workers reported per phase, and "failed workers": the whole time of those
  // that faulted, crashed or were killed.
  std::map<std::string, double> phase_seconds;
  Discrimination discrimination;  // what the complete workers' cases tell apart
  std::string error;              // the engine itself failed (journal not writable)
};

// Runs indices [first, first + count) of `suite` under `seed` (with a deadline, a prefix of them:
// the ranges already split after a failure still finish).
EngineResult RunEngine(const EngineOptions& options, const std::string& suite, uint64_t seed,
                       uint64_t first, uint64_t count);

}  // namespace tcfuzz::suites
