// A host campaign suite: generated cases run through the oracle and its invariants.
//
// Case i of a suite is generated from CaseSeed(base seed, suite name, i) alone, so a case is
// the same whatever the shard, order or time budget, and its reproducer file replays it alone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "suites/checks/check_failure.h"
#include "suites/checks/discrimination.h"
#include "suites/engine/report.h"

namespace tcfuzz::suites {

struct CaseResult {
  std::string family;                  // stable family name: JUnit groups by it
  CheckFailures failures;              // empty: pass
  std::string reproducer;              // text form of the case, filled on failure only
  std::vector<std::string_view> tags;  // operand-space coverage (static strings)
  std::vector<ProbeResult> probes;     // what its expected result tells apart (none: no result)
};

class HostSuite {
 public:
  virtual ~HostSuite() = default;
  virtual std::string_view name() const = 0;  // --suite NAME
  virtual std::string_view description() const = 0;
  virtual std::string_view text_kind() const = 0;  // the `kind` its reproducers carry
  // Cases `tcfuzz run` draws when given neither --cases nor --time: about 20 s on the CI
  // machine kind (docs/performance.md), so the default campaign takes about a minute.
  virtual uint64_t default_cases() const = 0;
  // Every family RunCase can name (a superset is fine): JUnit has one test case per family, so
  // the set of test cases a CI server tracks does not change with the case count.
  virtual std::vector<std::string> families() const = 0;
  // Its reproducer replays alone through its kind's replay (suites/kinds/case_kind.h).
  // Called from several threads at once: a function of its arguments alone.
  virtual CaseResult RunCase(uint64_t index, uint64_t case_seed) = 0;

  // A suite of another subject (the toolchain scan, a tiler: suites/toolchain/toolchain_suite.h,
  // suites/tiling/tiling_suite.h) is told the run's settings (its seed, its tiler) once before its
  // first case, and says why it cannot run here ("" when it can): the report shows it skipped,
  // with that reason, and a resumed run that ran it before refuses to go on without it.
  virtual std::string Prepare(const RunSettings& /*run*/) { return {}; }
  // How many distinct cases it has: a run asks for at most this many (a whole toolchain scan).
  virtual uint64_t case_space() const { return ~uint64_t{0}; }
  // Its reproducers are shell scripts (`sh FILE` reruns the case) rather than text-form cases
  // for `tcfuzz replay`: their origin lines are written as comments.
  virtual bool shell_reproducers() const { return false; }
};

// Every host suite, in the order `tcfuzz run` without --suite runs them: each kind's own
// (suites/kinds/case_kinds.cc).
std::vector<std::unique_ptr<HostSuite>> MakeHostSuites();

}  // namespace tcfuzz::suites
