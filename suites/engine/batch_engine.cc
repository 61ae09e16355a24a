#include "suites/engine/batch_engine.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>

#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {
namespace {

// Appends lines and forces each to disk before the worker it announces starts: after a hang or
// a crash of the machine the journal still names the range in flight.
class Journal {
 public:
  explicit Journal(const std::string& path) {
    if (!path.empty())
      file_.reset(std::fopen(path.c_str(), "ae"));  // "e": not inherited by workers
  }
  bool ok(const std::string& path) const { return path.empty() || file_ != nullptr; }
  void Line(const std::string& line) {
    if (!file_) return;
    std::fputs((line + "\n").c_str(), file_.get());
    std::fflush(file_.get());
    ::fsync(::fileno(file_.get()));
  }

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
};

struct Range {
  uint64_t first, count;
};

// A range whose worker failed and which was split to find the case responsible.
struct FailedRange {
  Range range;
  CaseOutcome failure;
  std::string detail;
};

// One worker over one range: either a complete answer or the reason it has none.
struct Attempt {
  bool complete = false;
  uint64_t ran = 0;
  std::vector<CaseLineFields> cases;
  std::vector<std::pair<uint64_t, std::string>> unsupported;  // aggregated: n cases, reason
  CaseOutcome failure =
      CaseOutcome::kHarnessError;  // when !complete: fault, timeout or harness error
  std::string detail;
  bool can_split = true;  // false: the worker cannot start at all, so splitting will not help
  double seconds = 0;     // the worker's wall time
  std::map<std::string, double> phases;
  Discrimination discrimination;
  FamilyCounts families, unsupported_families;
};

// Whether a worker's family counts add up to no more than the cases it ran (a garbled worker's
// do not, and are left out rather than trusted).
bool FamiliesWithin(const Attempt& a) {
  uint64_t sum = 0;
  for (const auto* counts : {&a.families, &a.unsupported_families}) {
    for (const auto& [name, n] : *counts) {
      if (n > a.ran - std::min(sum, a.ran)) return false;
      sum += n;
    }
  }
  return true;
}

Attempt RunWorker(const EngineOptions& o, const std::string& suite, uint64_t seed, Range r) {
  std::vector<std::string> argv = o.worker;
  for (const std::string& a :
       {std::string("--suite"), suite, std::string("--seed"), std::to_string(seed),
        std::string("--first"), std::to_string(r.first), std::string("--count"),
        std::to_string(r.count)}) {
    argv.push_back(a);
  }
  argv.insert(argv.end(), o.extra_args.begin(), o.extra_args.end());
  CommandOptions co;
  co.timeout = o.watchdog_base +
               std::chrono::duration_cast<std::chrono::milliseconds>(o.watchdog_per_case * r.count);
  co.max_output = std::size_t{512}
                  << 20;  // a batch of 65,536 mismatches with their D is about 80 MB
  const auto t0 = std::chrono::steady_clock::now();
  const CommandResult res = RunArgv(argv, "", co);
  Attempt a;
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WorkerOutput w = ParseWorkerOutput(res.out);
  a.phases = std::move(w.phases);
  a.discrimination = std::move(w.discrimination);
  a.cases = std::move(w.cases);
  a.unsupported = std::move(w.unsupported);
  a.families = std::move(w.families);
  a.unsupported_families = std::move(w.unsupported_families);
  a.ran = w.ran;
  const bool done = w.done;
  const std::string& fault = w.fault;
  if (!res.started || res.exit_code == 127) {
    a.detail = "worker did not start: " +
               (res.started ? res.err.substr(0, res.err.find('\n')) : res.error);
    a.can_split = false;
  } else if (res.timed_out) {
    a.failure = CaseOutcome::kTimeout;
    a.detail = "watchdog: " + res.Describe(co.timeout);
  } else if (res.exit_code == kWorkerFaultExit && !fault.empty()) {
    a.failure = CaseOutcome::kDeviceFault;
    a.detail = fault;
  } else if (res.exit_code == 0 && done && !res.out_truncated) {
    a.complete = true;
  } else {
    a.detail = "worker " + res.Describe(co.timeout) +
               (res.err.empty() ? "" : ": " + res.err.substr(0, res.err.find('\n')));
  }
  return a;
}

// How fast the last complete worker went: its start-up (process, CUDA context) and its time per
// index of the range (the phases it reported, or its whole time where it reported none).
struct Pace {
  double start_s = 0, per_index_s = 0;
};
Pace PaceOf(const Attempt& a, uint64_t count) {
  double work = 0;
  for (const auto& [phase, s] : a.phases) work += s;
  work = work > 0 ? std::min(work, a.seconds) : a.seconds;
  return {a.seconds - work, work / static_cast<double>(std::max<uint64_t>(1, count))};
}

// The cases of a new batch that end, at `pace`, within 90% of the time `left` (at most
// `at_most`); 0 when not even one would.
uint64_t FittedBatch(const Pace& pace, double left, uint64_t at_most) {
  const double room = 0.9 * left - pace.start_s;
  if (room <= 0) return 0;
  if (pace.per_index_s <= 0) return at_most;
  const double n = room / pace.per_index_s;
  return n >= static_cast<double>(at_most) ? at_most : static_cast<uint64_t>(n);
}

// One case run alone in a fresh worker: its class and detail.
std::pair<CaseOutcome, std::string> RunAlone(const EngineOptions& o, const std::string& suite,
                                             uint64_t seed, uint64_t index) {
  const Attempt a = RunWorker(o, suite, seed, {index, 1});
  if (!a.complete) return {a.failure, a.detail};
  for (const CaseLineFields& c : a.cases) {
    if (c.index == index) return {c.outcome, c.detail};
  }
  if (!a.unsupported.empty()) return {CaseOutcome::kNotSupported, a.unsupported.front().second};
  return {CaseOutcome::kPass, ""};
}

// Flakes, two kinds, both moved from their class to kFlaky: a range whose fault, hang or crash
// no part of it repeated (real, its culprit unknown: never a silent pass), and a failing case
// whose result changes when it runs again alone.
void AddFlakes(const EngineOptions& o, const std::string& suite, uint64_t seed,
               std::vector<FailedRange> failed, Journal& journal, EngineResult& out) {
  const auto move = [&out](CaseOutcome from, CaseOutcome to) {
    if (out.counts[from] > 0) --out.counts[from];
    ++out.counts[to];
  };
  // Innermost ranges first: a range holding a culprit, or a flake already named, is explained.
  std::sort(failed.begin(), failed.end(), [](const FailedRange& a, const FailedRange& b) {
    return a.range.count < b.range.count;
  });
  for (const FailedRange& f : failed) {
    const uint64_t lo = f.range.first, hi = lo + f.range.count;
    const bool explained =
        std::any_of(out.records.begin(), out.records.end(), [&](const CaseRecord& c) {
          return c.index >= lo && c.index < hi &&
                 (IsFailure(c.outcome) || c.outcome == CaseOutcome::kFlaky);
        });
    if (explained) continue;
    move(CaseOutcome::kPass, CaseOutcome::kFlaky);
    out.records.push_back({lo, CaseOutcome::kFlaky,
                           std::string(Name(f.failure)) + " in cases [" + std::to_string(lo) +
                               ", " + std::to_string(hi) +
                               ") did not recur when they ran again: " + f.detail});
    journal.Line("flaky range " + std::to_string(lo) + " " + std::to_string(f.range.count));
  }
  std::sort(out.records.begin(), out.records.end(),
            [](const CaseRecord& a, const CaseRecord& b) { return a.index < b.index; });
  if (o.reruns <= 0) return;
  int rerun_cases = 0;
  for (CaseRecord& c : out.records) {
    if (!IsFailure(c.outcome)) continue;
    // The first 100 failing cases, and none once a stop is asked for.
    if (rerun_cases++ == 100 || (o.stop && o.stop())) break;
    std::string seen(Name(c.outcome));
    bool same = true;
    // A device-judged batch keeps the D of its first failures only: a mismatch that came without
    // its D can be held to its class alone, and takes the D its rerun sent.
    const bool had_d = c.detail.find(" observed=") != std::string::npos;
    std::string first_d;
    for (int k = 0; k < o.reruns; ++k) {
      ++out.workers;
      const auto [outcome, detail] = RunAlone(o, suite, seed, c.index);
      seen += ", then " + std::string(Name(outcome));
      // A wrong D must be the same wrong D; a fault, a hang or an error the same class.
      const bool same_d = had_d ? detail == c.detail : first_d.empty() || detail == first_d;
      same = same && outcome == c.outcome && (outcome != CaseOutcome::kMismatch || same_d);
      if (first_d.empty()) first_d = detail;
    }
    journal.Line("rerun " + std::to_string(c.index) + " " + seen);
    if (same && !had_d && c.outcome == CaseOutcome::kMismatch) c.detail = first_d;
    if (same) continue;
    move(c.outcome, CaseOutcome::kFlaky);
    c.detail = seen + ": " + c.detail;
    c.outcome = CaseOutcome::kFlaky;
  }
}

}  // namespace

EngineResult RunEngine(const EngineOptions& o, const std::string& suite, uint64_t seed,
                       uint64_t first, uint64_t count) {
  EngineResult out;
  Journal journal(o.journal_path);
  if (!journal.ok(o.journal_path)) {
    out.error = "cannot open the journal " + o.journal_path;
    return out;
  }
  journal.Line("tcfuzz journal: suite " + suite + " seed " + std::to_string(seed));
  const auto charge = [&](CaseOutcome outcome, uint64_t n) {
    out.counts[outcome] += n;
    out.cases += n;
  };
  std::deque<Range> queue;                // ranges split after a failure, run before any new batch
  std::vector<FailedRange> split_ranges;  // each should yield the case responsible
  const uint64_t batch = std::max<uint64_t>(1, o.batch), end = first + count;
  uint64_t next = first;  // the first index no batch has covered yet
  const auto start = std::chrono::steady_clock::now();
  std::optional<Pace> pace;  // of the last complete worker
  while (!queue.empty() || next < end) {
    if (queue.empty()) {
      const double left =
          std::chrono::duration<double>(o.deadline - (std::chrono::steady_clock::now() - start))
              .count();
      if (o.deadline.count() > 0 && left <= 0) break;
      if (o.stop && o.stop()) break;
      uint64_t n = std::min(batch, end - next);
      // Under a deadline a GPU batch of millions must not outrun it by seconds: the first batch is
      // small, and each later one is what the last worker's pace fits into the time left.
      if (o.deadline.count() > 0)
        n = pace ? FittedBatch(*pace, left, n) : std::min(n, kFirstBatchUnderDeadline);
      if (n == 0) break;  // no batch ends in the time left
      queue.push_back({next, n});
      next += queue.back().count;
    }
    const Range r = queue.front();
    queue.pop_front();
    journal.Line("begin " + std::to_string(r.first) + " " + std::to_string(r.count));
    ++out.workers;
    const Attempt a = RunWorker(o, suite, seed, r);
    out.worker_seconds += a.seconds;
    if (!a.complete)
      out.phase_seconds["failed workers"] += a.seconds;  // faults, crashes, watchdog kills
    if (a.complete) {
      if (r.count > 1) pace = PaceOf(a, r.count);
      for (const auto& [phase, s] : a.phases) out.phase_seconds[phase] += s;
      // Each probe counts a case once: more than the worker ran is a garbled worker's.
      if (WithinCases(a.discrimination, a.ran))
        AddDiscrimination(out.discrimination, a.discrimination);
      if (FamiliesWithin(a)) {
        for (const auto& [name, n] : a.families) out.families[name] += n;
        for (const auto& [name, n] : a.unsupported_families) out.unsupported_families[name] += n;
      }
      uint64_t failed = 0;
      for (const CaseLineFields& c : a.cases) {
        if (c.outcome == CaseOutcome::kPass) continue;
        ++failed;
        charge(c.outcome, 1);
        if (c.outcome == CaseOutcome::kNotSupported) {
          ++out.not_supported[c.detail];
        } else {
          out.records.push_back({c.index, c.outcome, c.detail});
        }
      }
      for (const auto& [n, why] : a.unsupported) {
        failed += n;
        charge(CaseOutcome::kNotSupported, n);
        out.not_supported[why] += n;
      }
      charge(CaseOutcome::kPass, a.ran >= failed ? a.ran - failed : 0);
      journal.Line("end " + std::to_string(r.first) + " " + std::to_string(r.count) + " ran " +
                   std::to_string(a.ran));
      if (o.on_progress) o.on_progress(out);
      continue;
    }
    journal.Line("failed " + std::to_string(r.first) + " " + std::to_string(r.count) + " " +
                 std::string(Name(a.failure)) + ": " + a.detail);
    if (!a.can_split) {
      // No worker can run at all: every case left is a harness error, and splitting would only
      // repeat that.
      out.error = a.detail;
      charge(a.failure, r.count);
      for (const Range& rest : queue) charge(a.failure, rest.count);
      if (o.deadline.count() == 0) charge(a.failure, end - next), next = end;
      break;
    }
    if (r.count == 1) {  // the culprit
      charge(a.failure, 1);
      out.records.push_back({r.first, a.failure, a.detail, /*in_families=*/false});
      if (o.on_progress) o.on_progress(out);
      continue;
    }
    split_ranges.push_back({r, a.failure, a.detail});
    // Split into parts, run first (in order) before the rest of the queue.
    const uint64_t parts = std::min<uint64_t>(static_cast<uint64_t>(std::max(2, o.split)), r.count);
    std::vector<Range> pieces;
    for (uint64_t i = 0; i < parts; ++i) {
      const uint64_t lo = r.first + r.count * i / parts, hi = r.first + r.count * (i + 1) / parts;
      if (hi > lo) pieces.push_back({lo, hi - lo});
    }
    queue.insert(queue.begin(), pieces.begin(), pieces.end());
  }
  AddFlakes(o, suite, seed, split_ranges, journal, out);  // reruns stop on a stop request
  journal.Line("finished");
  out.next = next;
  return out;
}

}  // namespace tcfuzz::suites
