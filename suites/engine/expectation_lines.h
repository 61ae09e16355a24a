// The one expectations format of tcfuzz, shared by `run --expectations`/`--skips` and
// `toolchain scan` (corpus/toolchain/expectations.txt): one line per known deviation,
//
//   field=glob field="glob with spaces" ...  # why (required)
//
// each glob tcfuzz's one pattern language (suites/engine/glob.h) over one value of the result
// the line describes; a field the line leaves out matches anything. Each user of the format says
// which fields it knows and which a line must have; a bad line is a one-line error naming it.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "suites/engine/glob.h"

namespace tcfuzz::suites {

struct ExpectationLine {
  int line = 0;                                             // 1-based, in its file
  std::vector<std::pair<std::string, std::string>> fields;  // name, pattern text, as written
  std::map<std::string, Glob, std::less<>> globs;
  std::string reason;

  // The pattern text of a field, or nullptr when the line leaves it out.
  const std::string* Field(std::string_view name) const;
  // Whether every field of the line that `value` knows matches it; `value` returns nullptr for a
  // field it does not judge (such a field is then ignored).
  template <typename F>
  bool Matches(F value) const {
    for (const auto& [name, glob] : globs) {
      const std::string* v = value(std::string_view(name));
      if (v != nullptr && !glob.Matches(*v)) return false;
    }
    return true;
  }
  std::string Text() const;  // the fields as written, without the reason
};

// `what` names the file kind in errors ("expectations", "skips").
oracle::Result<std::vector<ExpectationLine>> ParseExpectationLines(
    std::string_view text, std::span<const std::string_view> known,
    std::span<const std::string_view> required, std::string_view what);

}  // namespace tcfuzz::suites
