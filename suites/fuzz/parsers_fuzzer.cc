// The number and pattern parsers every command and file goes through: oracle::ParseUint (every
// numeric option and file value), cli::ParseSeconds (--time) and suites::Glob (--forms,
// expectation files). The first byte picks the parser, the rest is its text:
//   0: ParseUint(text, max), max from the next 8 bytes: a value it accepts is within max and
//      reads back from its decimal form; an error is one line.
//   1: ParseSeconds(text): an accepted value is finite, above 0 and at most a year.
//   2: "PATTERN\nTEXT": the pattern compiles or gives a one-line error; where it is of
//      fnmatch's language (no other ksh operator, no empty alternative, short), the match agrees
//      with glibc's fnmatch(FNM_EXTMATCH).
#include <fnmatch.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "oracle/core/text_format.h"
#include "suites/cli/cli_common.h"
#include "suites/engine/glob.h"

namespace {

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "parsers_fuzzer: %s\n", why.c_str());
  std::abort();
}

bool OneLine(const std::string& s) { return s.find('\n') == std::string::npos; }

// A pattern glibc reads as tcfuzz does, cheaply: no ksh operator but @, no empty alternative, no
// escape (glibc and tcfuzz differ on a trailing backslash), few stars, and no `@(` right after a
// star or another group: there glibc (and bash) miss matches where the group takes the empty
// string ("*@(*)" on "", "x*@(*)" on "x"), which the pattern language matches and tcfuzz does
// (Glob.EmptyGroupAfterAStarMatches); and no parenthesis that is not a group's (glibc reads a
// literal '(' inside a group as nesting: "@(*)(((@(@(((" matched "" there).
bool FnmatchComparable(std::string_view p) {
  if (p.size() > 48) return false;
  int stars = 0, open = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '(' && (i == 0 || p[i - 1] != '@')) return false;
    if (c == '(') ++open;
    if (c == ')' && --open < 0) return false;
    if (c == '\\' || c == '[') return false;
    if (c == '*' && ++stars > 5) return false;
    if (i + 1 < p.size() && p[i + 1] == '(' && (c == '*' || c == '+' || c == '!' || c == '?'))
      return false;
  }
  for (const char* bad : {"()", "(|", "|)", "||", "*@(", ")@("}) {
    if (p.find(bad) != std::string_view::npos) return false;
  }
  return open == 0 && p.find('\0') == std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 8192) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      uint64_t max = 0;
      std::string_view text = rest;
      for (int i = 0; i < 8 && !text.empty(); ++i, text.remove_prefix(1))
        max = (max << 8) | static_cast<unsigned char>(text[0]);
      const auto v = tcfuzz::oracle::ParseUint(text, max);
      if (!v.ok()) {
        if (!OneLine(v.error())) Fail("a multi-line error: " + v.error());
        break;
      }
      if (v.value() > max) Fail("accepted " + std::to_string(v.value()) + " above its maximum");
      const auto again = tcfuzz::oracle::ParseUint(std::to_string(v.value()), max);
      if (!again.ok() || again.value() != v.value())
        Fail("'" + std::string(text) + "' does not read back from its decimal form");
      break;
    }
    case 1: {
      const auto v = tcfuzz::cli::ParseSeconds(std::string(rest));
      if (v && !(std::isfinite(*v) && *v > 0 && *v <= 3.2e7))
        Fail("accepted seconds '" + std::string(rest) + "'");
      break;
    }
    default: {
      const std::size_t nl = rest.find('\n');
      const std::string_view pattern = rest.substr(0, nl);
      const std::string_view text = nl == std::string_view::npos ? "" : rest.substr(nl + 1);
      const auto g = tcfuzz::suites::Glob::Compile(pattern);
      if (!g.ok()) {
        if (!OneLine(g.error())) Fail("a multi-line error: " + g.error());
        break;
      }
      const bool ours = g.value().Matches(text);
      if (FnmatchComparable(pattern) && text.find('\0') == std::string_view::npos &&
          text.size() <= 64) {
        const bool glibc =
            fnmatch(std::string(pattern).c_str(), std::string(text).c_str(), FNM_EXTMATCH) == 0;
        if (ours != glibc)
          Fail("'" + std::string(pattern) + "' on '" + std::string(text) + "': tcfuzz " +
               (ours ? "matches" : "does not match") + ", fnmatch the opposite");
      }
    }
  }
  return 0;
}
