// The one pattern matcher of tcfuzz (expectation files, `toolchain scan --forms`): the glob
// patterns of fnmatch(3), `*`, `?`, `[set]`, `[!set]` and `\x`, plus `@(a|b|...)` alternatives
// (nested up to 8 deep). It is compiled to a Thompson automaton, whose sets of states are turned
// into the states of a deterministic one as texts reach them and kept with the pattern (up to
// kMaxDfaStates): a character then costs one table step, whatever the pattern (glibc's extglob
// backtracks without bound; the automaton alone cost every state active at once, and 60
// alternatives after stars kept about 1,800 active). A pattern whose texts need more sets than
// that runs the automaton for the rest of a text: a character then costs at most the pattern's
// states (4096 characters, 64 stars). Other ksh operators (`*(...)`, `+(...)`, `!(...)`) are
// not operators here: `*(` is a star and a literal '('.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

class Glob {
 public:
  // At most 4096 characters and 64 stars; an error names what is wrong and where.
  static oracle::Result<Glob> Compile(std::string_view pattern);
  // Safe from several threads at once: a pattern matches one text at a time, under a lock (its
  // copies share the deterministic states, and the lock).
  bool Matches(std::string_view text) const;

  // Sets of the automaton's states a pattern keeps as deterministic states: with their tables
  // (4 bytes a byte class) and at most 2^18 set members, at most about 2 MiB a pattern, and
  // never more states than the characters matched so far.
  static constexpr std::size_t kMaxDfaStates = 1024;

 private:
  struct State {
    enum Kind { kByte, kSplit, kMatch } kind = kMatch;
    std::bitset<256> bytes;  // kByte: the bytes it takes
    int out = -1, out1 = -1;
  };
  // The deterministic states met so far: a set of the automaton's byte and match states
  // (closed over splits), whether it accepts, and its next state per byte class (kUnknown until
  // a text takes that step; kDead where no state takes the class).
  static constexpr int32_t kUnknown = -2, kDead = -1;
  struct Dfa {
    std::mutex lock;
    std::map<std::vector<int>, int32_t> index;
    std::vector<const std::vector<int>*> sets;
    std::vector<bool> accepting;
    std::vector<int32_t> next;   // state * classes_ + class
    std::size_t held = 0;        // states of the automaton in all the sets
    std::vector<uint64_t> mark;  // Closure's: the closure that last reached each state
    uint64_t closure = 0;
  };
  // The byte and match states reached from `from` (the start, or where a byte's states go)
  // through splits.
  std::vector<int> Closure(Dfa& dfa, std::vector<int> from) const;
  // Where the states of `set` go on `byte`, closed: empty when none takes it.
  std::vector<int> Step(Dfa& dfa, const std::vector<int>& set, unsigned char byte) const;
  bool Accepts(const std::vector<int>& set) const;
  // The deterministic state of `set`, added if new; kFull (glob.cc) when no more fit.
  int32_t StateOf(Dfa& dfa, std::vector<int> set) const;

  std::vector<State> states_;
  int start_ = 0;
  std::array<uint8_t, 256> class_of_{};  // bytes no state tells apart share a class
  int classes_ = 1;
  std::shared_ptr<Dfa> dfa_ = std::make_shared<Dfa>();  // copies share it: the same automaton
  friend class GlobCompiler;
};

}  // namespace tcfuzz::suites
