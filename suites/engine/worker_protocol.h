// What a batch worker tells the engine (suites/engine/batch_engine.h), one line each on stdout:
//
//   case <index> <outcome> <detail>   a case that did not pass (mismatch, not_supported, ...)
//   unsupported <n> <reason>          n cases it did not run, for one reason (no device, a form
//                                     the device lacks): counted, not listed
//   family <n> <name>                 n cases of its range that ran are of this family (an
//                                     instruction form or a tile layout: what reports list)
//   family_unsupported <n> <name>     n cases of this family it did not run (the device lacks it)
//   ran <n>                           how many cases of its range it ran (its shard's share)
//   fault <detail>                    a sticky device error: nothing after it can be trusted
//   phase <name> <seconds>            wall time the worker spent in one part of its work
//                                     (draw, jit, device, judge): where a campaign's time goes
//   discrimination <n> <t> <probe> <family>
//                                     n of the family's cases had an expected D the probe
//                                     applies to, t of them tell it apart
//                                     (suites/checks/discrimination.h)
//   done                              the range is finished
//
// and exits 0 when done, kWorkerFaultExit after a fault line. Any other ending (a signal,
// another exit code, silence past the watchdog) says the range holds a case that kills workers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "suites/checks/discrimination.h"

namespace tcfuzz::suites {

// The result classes, kept apart in every report. kUndefinedBySpec: a case that breaks a spec
// rule on purpose (a reserved descriptor bit, a wrong base offset): what the device did is
// recorded, never judged. kModelUnconfirmed: a mismatch whose expectation rests on a reading no
// hardware has shown on this device's target (oracle/core/backing.h): "our model is unproven
// here", reported apart from "the device is wrong" and not a failure. kFlaky (the engine's, never
// a worker's): a failing case whose result changed when it ran again in a fresh worker, or a
// fault or hang of a range that no single case of it repeated; reported, not a failure unless
// the run is --strict.
enum class CaseOutcome {
  kPass,
  kMismatch,
  kDeviceFault,
  kTimeout,
  kNotSupported,
  kHarnessError,
  kUndefinedBySpec,
  kModelUnconfirmed,
  kFlaky
};
constexpr CaseOutcome kAllOutcomes[] = {CaseOutcome::kPass,
                                        CaseOutcome::kMismatch,
                                        CaseOutcome::kDeviceFault,
                                        CaseOutcome::kTimeout,
                                        CaseOutcome::kNotSupported,
                                        CaseOutcome::kHarnessError,
                                        CaseOutcome::kUndefinedBySpec,
                                        CaseOutcome::kModelUnconfirmed,
                                        CaseOutcome::kFlaky};

// pass mismatch device_fault timeout not_supported harness_error undefined_by_spec
// model_unconfirmed flaky
std::string_view Name(CaseOutcome o);
// Whether the class fails a campaign (mismatch, device fault, timeout, harness error).
bool IsFailure(CaseOutcome o);
std::optional<CaseOutcome> ParseOutcome(std::string_view s);

constexpr int kWorkerFaultExit = 3;

// "case 17 mismatch D[3][4] ..." (newlines in detail become spaces).
std::string CaseLine(uint64_t index, CaseOutcome outcome, std::string_view detail);

struct CaseLineFields {
  uint64_t index = 0;
  CaseOutcome outcome = CaseOutcome::kPass;
  std::string detail;
};
std::optional<CaseLineFields> ParseCaseLine(std::string_view line);

// Cases per family (an instruction form, or a tile's types and layouts: DescribedCase::family).
using FamilyCounts = std::map<std::string, uint64_t>;

// The family and family_unsupported lines of a worker's counts (names are one line each).
std::string FamilyLines(const FamilyCounts& ran, const FamilyCounts& unsupported);

// What one worker process printed (the lines above; anything else is ignored).
struct WorkerOutput {
  std::vector<CaseLineFields> cases;
  std::vector<std::pair<uint64_t, std::string>> unsupported;  // n cases, reason
  FamilyCounts families, unsupported_families;
  uint64_t ran = 0;
  std::string fault;  // the fault line's detail, empty when none
  bool done = false;
  std::map<std::string, double> phases;  // seconds per phase name
  Discrimination discrimination;
};
WorkerOutput ParseWorkerOutput(std::string_view out);

// "phase <name> <seconds>".
std::string PhaseLine(std::string_view name, double seconds);

// The first element (row-major index into D) where the device's D differs from the oracle's;
// nullopt when they agree.
std::optional<std::size_t> FirstDifference(std::span<const uint32_t> want,
                                           std::span<const uint32_t> got);
// "D[r][c] oracle XXXXXXXX device YYYYYYYY" at that element of a D of `cols` columns; empty
// when they agree.
std::string MismatchDetail(std::span<const uint32_t> want, std::span<const uint32_t> got,
                           std::size_t cols = 8);

// A device result carried in a detail: " observed=" and the words in hex, comma-separated.
std::string ObservedField(const std::vector<uint32_t>& words);
// The words back (empty when the detail has none, or they do not parse, or not `count` of them;
// count 0: any number).
std::vector<uint32_t> ParseObserved(std::string_view detail, std::size_t count = 128);

}  // namespace tcfuzz::suites
