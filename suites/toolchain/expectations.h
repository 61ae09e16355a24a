// Known deviations of an assembler from the legality model, per toolkit version, in tcfuzz's one
// expectations format (suites/engine/expectation_lines.h), one line per deviation:
//   toolkit=13.0 verdict=accept target=sm_* form="mma.sp*.m16n8k32.row.col.f32.f16.f16.f32 sel=[23]
//   @*"  # SP4 ...
// Globs are tcfuzz's one pattern language (suites/engine/glob.h: fnmatch's *, ?, [set] and
// "@(f16|tf32)" alternatives, matched in linear time) over the toolkit version, the target name
// and the form key (PtxForm::Key()). A scan
// verdict that differs from the model is "known" when a line of the running toolkit matches
// it; a line of the running toolkit that matches no deviation although the scan had a row where
// it could have (its target and form, the model saying the other verdict) is stale, so a toolkit
// that fixes a deviation shows up as well as one that adds one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "suites/engine/expectation_lines.h"
#include "suites/engine/glob.h"

namespace tcfuzz::suites {

struct Expectation {
  std::string toolkit;  // "13.0" (a pattern)
  bool accept = false;  // the verdict the assembler gives against the model
  std::string target_glob;
  std::string key_glob;
  Glob toolkit_glob, target, key;  // the three compiled
  std::string reason;              // the comment
  int line = 0;
};

// Parses the whole file; a bad line is a one-line error naming its line number.
oracle::Result<std::vector<Expectation>> ParseExpectations(std::string_view text);
oracle::Result<std::vector<Expectation>> LoadExpectations(const std::string& path);

// The index of the first line of `toolkit` matching the deviation, or -1.
int MatchExpectation(const std::vector<Expectation>& all, std::string_view toolkit, bool accepted,
                     std::string_view target, std::string_view key);

}  // namespace tcfuzz::suites
