// The one pattern matcher of tcfuzz (expectation files, `toolchain scan --forms`): the glob
// patterns of fnmatch(3), `*`, `?`, `[set]`, `[!set]` and `\x`, plus `@(a|b|...)` alternatives
// (nested up to 8 deep). It is compiled to a Thompson automaton and run over the text in time
// proportional to the text times the states active at once (about two per star, at most 64 stars),
// so no pattern can make a match slow (glibc's extglob backtracks without bound). Other ksh
// operators (`*(...)`, `+(...)`, `!(...)`) are not operators here: `*(` is a star and a literal
// '('.
#pragma once

#include <bitset>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

class Glob {
 public:
  // At most 4096 characters and 64 stars; an error names what is wrong and where.
  static oracle::Result<Glob> Compile(std::string_view pattern);
  bool Matches(std::string_view text) const;

 private:
  struct State {
    enum Kind { kByte, kSplit, kMatch } kind = kMatch;
    std::bitset<256> bytes;  // kByte: the bytes it takes
    int out = -1, out1 = -1;
  };
  std::vector<State> states_;
  int start_ = 0;
  friend class GlobCompiler;
};

}  // namespace tcfuzz::suites
