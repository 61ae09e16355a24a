// The one pattern matcher (suites/engine/glob.h) against glibc's fnmatch(3), an independent
// implementation, on random patterns of its language; and the hostile patterns of issue 18.
#include "suites/engine/glob.h"

#include <fnmatch.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "generators/core/rc_source.h"

namespace tcfuzz::suites {
namespace {

// A random pattern: letters, *, ?, classes and @(...) groups (never a ksh operator other than @,
// so fnmatch with FNM_EXTMATCH reads it as tcfuzz does; never an empty alternative, where glibc
// has a quirk: "*@()" matches nothing there, everything here).
std::string Pattern(gen::Source& s, int depth) {
  std::string p;
  const int n = static_cast<int>(s.Below(6)) + (depth > 0 ? 1 : 0);
  for (int i = 0; i < n; ++i) {
    switch (s.Below(depth < 2 ? 7 : 6)) {
      case 0:
        p += '*';
        break;
      case 1:
        p += '?';
        break;
      case 2:
        p += s.Coin() ? "[ab]" : "[!a]";
        break;
      case 3:
        p += 'a';
        break;
      case 4:
        p += 'b';
        break;
      case 5:
        p += 'c';
        break;
      default: {
        p += "@(";
        const int alts = 1 + static_cast<int>(s.Below(3));
        for (int a = 0; a < alts; ++a) p += (a ? "|" : "") + Pattern(s, depth + 1);
        p += ')';
      }
    }
  }
  return p;
}

// glibc's second quirk (Glob.EmptyGroupAfterAStarMatches): a group after a star or a group, with
// nothing or only '?'s between, is left out of the comparison.
bool GroupAfterAStarOrGroup(const std::string& pattern) {
  for (std::size_t at = pattern.find("@("); at != std::string::npos;
       at = pattern.find("@(", at + 1)) {
    std::size_t before = at;
    while (before > 0 && pattern[before - 1] == '?') --before;
    if (before > 0 && (pattern[before - 1] == '*' || pattern[before - 1] == ')')) return true;
  }
  return false;
}

RC_GTEST_PROP(Glob, AgreesWithFnmatch, ()) {
  gen::RcSource s;
  const std::string pattern = Pattern(s, 0);
  std::string text;
  for (uint64_t i = s.Below(8); i > 0; --i) text += "abc"[s.Below(3)];
  RC_PRE(!GroupAfterAStarOrGroup(pattern));
  const auto g = Glob::Compile(pattern);
  RC_ASSERT(g.ok());
  RC_LOG() << "pattern '" << pattern << "' text '" << text << "'\n";
  RC_ASSERT(g.value().Matches(text) == (fnmatch(pattern.c_str(), text.c_str(), FNM_EXTMATCH) == 0));
}

// One compiled pattern keeps the deterministic states its texts reach: many texts on one Glob
// (and on a copy, which shares them) must each answer as fnmatch does.
RC_GTEST_PROP(Glob, AgreesWithFnmatchOverManyTexts, ()) {
  gen::RcSource s;
  const std::string pattern = Pattern(s, 0);
  RC_PRE(!GroupAfterAStarOrGroup(pattern));
  const auto g = Glob::Compile(pattern);
  RC_ASSERT(g.ok());
  const Glob copy = g.value();
  for (int t = 0; t < 40; ++t) {
    std::string text;
    for (uint64_t i = s.Below(10); i > 0; --i) text += "abc"[s.Below(3)];
    RC_LOG() << "pattern '" << pattern << "' text '" << text << "'\n";
    const bool want = fnmatch(pattern.c_str(), text.c_str(), FNM_EXTMATCH) == 0;
    RC_ASSERT((t % 2 ? copy : g.value()).Matches(text) == want);
  }
}

// "*a" then 12 "?": which of the last 13 characters were 'a' is the state, 2^13 sets, more than a
// pattern keeps (Glob::kMaxDfaStates). Past that the automaton runs the rest of a text; every
// answer still fnmatch's, from four threads at once.
TEST(Glob, APatternWithMoreStatesThanItKeepsStillMatches) {
  const std::string pattern = "*a????????????";
  const auto g = Glob::Compile(pattern);
  ASSERT_TRUE(g.ok());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0}, matched{0};
  for (unsigned seed = 1; seed <= 4; ++seed) {
    threads.emplace_back([&, seed] {
      unsigned x = seed;
      for (int t = 0; t < 3000; ++t) {
        std::string text;
        for (int i = 0; i < 24; ++i) {
          x = x * 1103515245u + 12345u;
          text += (x >> 16) & 1 ? 'a' : 'b';
        }
        const bool want = fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
        wrong += g.value().Matches(text) != want;
        matched += want;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(matched, 0);
  EXPECT_LT(matched, 12000);
}

// A group that takes the empty string after a star (found by parsers_fuzzer): the pattern
// language matches, as tcfuzz does; glibc's fnmatch and bash's extglob say no to the first two
// (and glibc to the third), so the fnmatch comparisons leave such patterns out.
TEST(Glob, EmptyGroupAfterAStarMatches) {
  EXPECT_TRUE(Glob::Compile("*@(*)").value().Matches(""));    // "" = "" (star) + "" (group)
  EXPECT_TRUE(Glob::Compile("x*@(*)").value().Matches("x"));  // "x" + "" + ""
  EXPECT_TRUE(Glob::Compile("@(*)@(*)").value().Matches(""));
  EXPECT_FALSE(Glob::Compile("*@(?)").value().Matches(""));  // ? takes one character
  // '?'s between: glibc 2.36's fnmatch (and bash) say no to each of these.
  EXPECT_TRUE(Glob::Compile("*?@(*)").value().Matches("a"));     // "" + "a" + ""
  EXPECT_TRUE(Glob::Compile("*??@(*)").value().Matches("ab"));   // "" + "a" + "b" + ""
  EXPECT_TRUE(Glob::Compile("@(*)?@(*)").value().Matches("a"));  // "" + "a" + ""
  EXPECT_FALSE(Glob::Compile("*??@(*)").value().Matches("a"));   // two ? need two characters
}

TEST(Glob, TheExpectationFilesPatterns) {
  const auto g = Glob::Compile("@(sm_100|sm_103|sm_110)@(a|f)");
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_TRUE(g.value().Matches("sm_103f"));
  EXPECT_FALSE(g.value().Matches("sm_103"));
  EXPECT_FALSE(g.value().Matches("sm_120a"));
  EXPECT_TRUE(Glob::Compile("tcgen05.mma*.kind::@(f16|tf32) *scale_d=@(0|15) @*")
                  .value()
                  .Matches("tcgen05.mma.cta_group::1.kind::tf32 scale_d=15 @8.6"));
  EXPECT_TRUE(Glob::Compile("").value().Matches(""));
  EXPECT_FALSE(Glob::Compile("").value().Matches("a"));
}

// Issue 18: patterns that crashed or spun glibc's extglob are errors or plain matches.
TEST(Glob, HostilePatternsAreBounded) {
  std::string nested;
  for (int i = 0; i < 2000; ++i) nested += "@(";
  EXPECT_EQ(Glob::Compile(nested + "m").error(), "@( nested deeper than 8 at character 17");
  EXPECT_EQ(Glob::Compile("@(a|b").error(), "unterminated @( at character 1");
  EXPECT_EQ(Glob::Compile("x[ab").error(), "unterminated [ at character 2");
  EXPECT_EQ(Glob::Compile(std::string(5000, '*')).error(), "pattern longer than 4096 characters");
  // Each star may stay active along the whole text, so their number is bounded (issue 33: 680
  // groups of "@(*|*)" took seconds a form).
  EXPECT_TRUE(Glob::Compile(std::string(64, '*')).ok());
  EXPECT_EQ(Glob::Compile("a" + std::string(65, '*')).error(), "more than 64 '*' (character 66)");
  std::string alternatives;
  for (int i = 0; i < 33; ++i) alternatives += "@(*|*)";
  EXPECT_EQ(Glob::Compile(alternatives).error(),
            "more than 64 '*' (character 195)");  // group 33's first
  // "*(" is a star and a literal '(' here: the spinning pattern is an ordinary one.
  const auto spin = Glob::Compile("*(*(*(*(m))))zzz");
  ASSERT_TRUE(spin.ok());
  EXPECT_FALSE(spin.value().Matches(std::string(4000, 'm')));
  EXPECT_TRUE(spin.value().Matches("((((m))))zzz"));
  // Many stars against a long text that nearly matches: linear in the text, not exponential.
  EXPECT_FALSE(Glob::Compile(std::string(60, '*') + "b").value().Matches(std::string(4096, 'a')));
}

}  // namespace
}  // namespace tcfuzz::suites
