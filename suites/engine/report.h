// What a campaign found, its report formats (summary.json, junit.xml), and the way back: reading a
// summary.json (for `run --resume` and `merge`) and adding one suite's results to another's.
//
// Everything a report lists is in case-index order and capped per suite (the first
// kMaxListedFailures failing cases in full, the rest counted by signature), so shards merged in
// any order give the unsharded run's report, and a run with a million failures stays small.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "suites/checks/discrimination.h"
#include "suites/engine/run_expectations.h"

namespace tcfuzz::suites {

inline constexpr std::size_t kMaxListedFailures = 1000;  // per suite, summary.json and JUnit

// A GPU mismatch's D, for the report's picture of the tile.
struct TileDiff {
  int cols = 0;
  std::string format;  // the D format's name ("f32")
  std::vector<uint32_t> expected, observed;
};
inline constexpr std::size_t kTilePictures = 20;  // per suite: the first mismatches get one

struct FailureRecord {
  std::string signature;  // "<suite>.<family>.<check>": the same across runs and case counts
  std::string case_name;  // "<family>#<index>"
  std::string family;
  uint64_t index = 0;
  uint64_t case_seed = 0;
  std::string check;  // host: the failed check; GPU: the result class (mismatch, device_fault...)
  std::string message;
  std::string reproducer_path;   // relative to the report folder; empty past the reproducer cap
  int expectation_line = 0;      // expected_fail: the line of --expectations it matched
  std::optional<TileDiff> tile;  // GPU mismatches (the first kTilePictures of a suite)
};

struct FamilyStats {
  uint64_t cases = 0;
  uint64_t failed = 0;
  uint64_t expected = 0;       // failing cases an --expectations line names (not in `failed`)
  uint64_t not_supported = 0;  // GPU suites: cases drawn that the device does not run (not in
                               // `cases`)
};

struct SuiteReport {
  std::string suite;
  bool device = false;  // a GPU suite
  uint64_t cases = 0;
  uint64_t failed = 0;
  double seconds = 0;
  // The JUnit test cases, one per family the suite can produce, whatever the case count (a GPU
  // suite's are the forms and layouts its cases drew: none declared).
  std::vector<std::string> declared_families;
  // Host suites: a rule, check or form; GPU suites: the instruction form (or a tile's types and
  // layouts) of DescribedCase::family.
  std::map<std::string, FamilyStats> families;
  // GPU suites: cases per result class (worker_protocol.h: pass, mismatch, ..., and
  // expected_fail), after reclassing; they add up to `cases`.
  std::map<std::string, uint64_t> outcomes;
  std::map<std::string, uint64_t> coverage;    // tag -> cases
  Discrimination discrimination;               // family -> probe -> cases, telling
  std::map<std::string, uint64_t> signatures;  // failing signature -> cases, every one counted
  std::vector<FailureRecord> failures;         // the first kMaxListedFailures, by index
  // Mismatches whose expectation rests on a reading no hardware has shown on this device
  // (CaseOutcome::kModelUnconfirmed): reported apart, never failures.
  std::vector<FailureRecord> unconfirmed;
  std::vector<FailureRecord> flaky;              // GPU results that changed when run again (capped)
  uint64_t expected = 0;                         // expected_fail cases, every one counted
  std::vector<FailureRecord> expected_failures;  // the first kMaxListedFailures, by index
  std::string skipped;  // why the suite did not run at all (no GPU), shown in both reports
  // Why a suite that had to run could not (--gpu require without a GPU): an error in JUnit.
  std::string error;
  // GPU suites: seconds in worker processes per phase (draw, jit, device, judge, "failed workers"
  // for those that faulted or were killed, and "other": process start, CUDA initialisation, the
  // protocol), summed over workers.
  std::map<std::string, double> worker_phases;
  // Where an interrupted suite goes on: every index below `resume_from` (of this shard) ran.
  bool complete = true;
  uint64_t resume_from = 0;
};

// The settings of a run that its report records and a resumed run repeats: one struct that both
// the campaign's options and its report are, so neither copies the other field by field.
struct RunSettings {
  uint64_t seed = 0;
  std::string seed_source = "--seed";  // "--seed", "random", or the run id it was derived from
  std::optional<uint64_t> cases;       // per suite: indices [0, cases)
  std::optional<double> seconds;       // per suite time budget, --suite-time (cases then form a
                                       // prefix); neither: each suite's default_cases()
  // The whole run's time budget (--time), shared by its suites: each suite in turn gets the time
  // left over the suites left, so a fast suite leaves its time to the next. A resumed run's
  // suites share it again.
  std::optional<double> run_seconds;
  uint64_t shard_index = 0;  // this shard runs indices i with i % shard_count == shard_index
  uint64_t shard_count = 1;
  std::string shard_source;  // where the shard came from ("--shard", "SLURM_ARRAY_TASK_ID/...")
  // GPU suites (suites/engine/device_campaign.h): "auto" runs them when a device answers the
  // probe and reports them skipped otherwise, "require" fails the run without one, "off" skips.
  std::string gpu = "auto";
  std::size_t max_reproducers = 100;  // per suite: its first failing cases by index
  // A CI baseline (suites/engine/run_expectations.h): failing cases a line names are
  // expected_fail; suites a skips line names do not run on that device. Empty: none.
  std::string expectations_file, skips_file;
  bool strict = false;  // stale expectation lines and flaky cases fail the run too
  // The tiling-fuzz suite's tiler command (suites/tiling/tiling_suite.h); empty: the reference
  // tiler. Recorded so a resumed run and every shard ask the same tiler.
  std::string tiler;
};

// How a reproducer reruns, from the report folder: "sh reproducers/x.sh" for a suite's shell
// script (HostSuite::shell_reproducers), else "tcfuzz replay reproducers/x.txt".
std::string ReplayCommand(const std::string& reproducer_path);

// What produced a report and where (issue 34): in a fleet's merged report, every host and
// device its shards ran on.
struct Provenance {
  std::string commit;   // the git commit tcfuzz was configured from ("" when not a checkout)
  std::string toolkit;  // the CUDA toolkit it was built with ("13.0"; "" without CUDA)
  // The assembler this machine has for `toolchain scan`: "nvJitLink 13.0", or "none" (its
  // toolkit at run time, which may not be the one built with). "" in reports before 2026-11-27.
  std::string assembler;
  // What ran the GPU suites: "cuda", "emulated", "plugin" (harness/backend.h), "mixed" for shards
  // of several, else "none".
  std::string backend;
  std::string started;  // UTC, ISO 8601: when the run (its first part, when resumed) started
  double seconds = 0;   // wall time of the run (its parts added; a merge: its longest shard)
  std::vector<std::string> hosts;    // where it ran
  std::vector<std::string> devices;  // "NVIDIA H100 80GB HBM3, CC 9.0, driver 13000, runtime 13000"
  // The options that chose it (harness::BackendArgs; none for cuda): what `run --resume` selects
  // again. Absent in reports of tcfuzz before 2026-11-27.
  std::optional<std::vector<std::string>> backend_args;
};

// This process's provenance: commit, toolkit, host, the start time now.
Provenance ThisRun();

// Parts of one run (shards, or a run and its resumption): the first part's commit and toolkit,
// "cuda" if any part had a GPU, the earliest start, the seconds added, every host and device.
Provenance MergedProvenance(const std::vector<Provenance>& parts);

// Hosts or devices as one line: "a; b", or "none".
std::string ListOrNone(const std::vector<std::string>& items);

struct CampaignReport : RunSettings {
  std::string tool;
  Provenance provenance;
  std::string command_line;
  std::vector<std::string> planned_suites;  // the suites in run order (a resume repeats them)
  std::vector<ExpectationUse> expectation_lines;
  bool interrupted = false;    // stopped by SIGINT/SIGTERM: `run --resume DIR` finishes it
  uint64_t merged_shards = 0;  // > 0: written by `tcfuzz merge` from this many shard reports
  // `merge --allow-partial`: what the merged report lacks ("shard 2 of 4 missing; shard 1
  // interrupted: smem unfinished"); empty when it is whole.
  std::string partial;
  std::vector<SuiteReport> suites;
};

std::string SummaryJson(const CampaignReport& report);
// report/index.html: one self-contained page (suites/engine/report_html.cc).
std::string IndexHtml(const CampaignReport& report);
// Any bytes as XML/HTML text or attribute: markup escaped, a byte that is not a character XML
// allows shown as \xNN.
std::string MarkupEscape(const std::string& s);
std::string JUnitXml(const CampaignReport& report);

// A summary.json back (as SummaryJson wrote it); a one-line error naming the file otherwise.
oracle::Result<CampaignReport> ReadSummary(const std::string& path);
// The same from the file's text (a shard's summary.json is untrusted: summary_json_fuzzer).
oracle::Result<CampaignReport> ParseSummary(std::string_view text);

// Adds `more` (the same suite: another shard, or the rest of an interrupted run) to `into`,
// keeping the lists in index order and within their caps.
void AddSuiteReport(SuiteReport& into, const SuiteReport& more);

// Keeps the D-tile pictures of a suite to its first kTilePictures mismatches.
void CapTilePictures(SuiteReport& suite);

// Keeps a failure list in index order and within kMaxListedFailures.
void SortAndCap(std::vector<FailureRecord>& records);

}  // namespace tcfuzz::suites
