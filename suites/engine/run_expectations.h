// `run --expectations FILE` and `run --skips FILE`: a CI baseline in the one expectations format
// (suites/engine/expectation_lines.h). Fields: device (the GPU's name), cc ("9.0"), driver and
// toolkit (CUDA versions, "13.0") of the GPU a suite ran on, all empty for host suites (so a line
// naming any of them holds for GPU results only); suite, family, signature
// ("suite.family.check") of a failing case. A failing case that matches a line is expected_fail
// (not a failure); a line that could have matched (its place and suite ran) and matched nothing
// is stale. A skips line (place and suite fields only) keeps a suite from running there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "suites/engine/expectation_lines.h"

namespace tcfuzz::suites {

struct RunPlace {
  std::string device, cc, driver, toolkit;  // empty: a host suite
};

// One line's use in a run, as reports keep it.
struct ExpectationUse {
  int line = 0;
  std::string text, reason;
  bool could_match = false;  // its place and a suite it names ran
  uint64_t matched = 0;      // failing cases it turned into expected_fail
  bool stale() const { return could_match && matched == 0; }
};

class RunExpectations {
 public:
  RunExpectations() = default;  // no file: matches nothing
  static oracle::Result<RunExpectations> Load(const std::string& path, bool skips);

  bool empty() const { return lines_.empty(); }
  // The line a failing case matches (counted), or nullptr.
  const ExpectationLine* Match(const RunPlace& where, std::string_view suite,
                               std::string_view family, std::string_view signature);
  // That `suite` ran at `where`: the lines that could have matched it are no longer idle.
  void Ran(const RunPlace& where, std::string_view suite);
  // skips: the line that keeps `suite` from running at `where`, or nullptr.
  const ExpectationLine* Skip(const RunPlace& where, std::string_view suite) const;
  // Adds an interrupted run's counts (lines are matched by number and text).
  void AddPrior(const std::vector<ExpectationUse>& prior);
  std::vector<ExpectationUse> Uses() const;

 private:
  std::vector<ExpectationLine> lines_;
  std::vector<ExpectationUse> uses_;
};

}  // namespace tcfuzz::suites
