#include "suites/engine/glob.h"

#include <algorithm>
#include <unordered_set>

namespace tcfuzz::suites {

// Builds the automaton: each piece is a fragment with one entry and the states whose `out` (or
// `out1`) still points nowhere; sequences patch one fragment's ends to the next's entry.
class GlobCompiler {
 public:
  explicit GlobCompiler(std::string_view p) : p_(p) {}

  oracle::Result<Glob> Run() {
    using R = oracle::Result<Glob>;
    if (p_.size() > 4096) return R::Fail("pattern longer than 4096 characters");
    Fragment f;
    if (const std::string e = Sequence(0, f); !e.empty()) return R::Fail(e);
    if (pos_ != p_.size())
      return R::Fail("unbalanced ')' at character " + std::to_string(pos_ + 1));
    const int match = Add({});
    Patch(f, match);
    g_.start_ = f.start < 0 ? match : f.start;  // the empty pattern matches the empty text
    // Byte classes: bytes that every byte state takes or refuses alike step the same way. Each
    // distinct byte set splits the classes so far into the bytes it takes and the rest.
    std::unordered_set<std::bitset<256>> seen;
    int classes = 1;
    for (const Glob::State& st : g_.states_) {
      if (st.kind != Glob::State::kByte || !seen.insert(st.bytes).second) continue;
      std::array<int, 512> split;
      split.fill(-1);
      int next = 0;
      for (std::size_t b = 0; b < 256; ++b) {
        int& to = split[2 * g_.class_of_[b] + (st.bytes.test(b) ? 1 : 0)];
        if (to < 0) to = next++;
        g_.class_of_[b] = static_cast<uint8_t>(to);
      }
      classes = next;
    }
    g_.classes_ = classes;
    return R::Ok(std::move(g_));
  }

 private:
  struct Hole {
    int state;
    bool second;  // out1 rather than out
  };
  struct Fragment {
    int start = -1;  // -1: the empty fragment (matches nothing, passes through)
    std::vector<Hole> ends;
  };

  int Add(Glob::State s) {
    g_.states_.push_back(s);
    return static_cast<int>(g_.states_.size()) - 1;
  }
  void Patch(const Fragment& f, int to) {
    for (const Hole& h : f.ends)
      (h.second ? g_.states_[h.state].out1 : g_.states_[h.state].out) = to;
  }
  // a then b.
  static void Append(Fragment& a, Fragment b, GlobCompiler& c) {
    if (b.start < 0) return;
    if (a.start < 0) {
      a = std::move(b);
      return;
    }
    c.Patch(a, b.start);
    a.ends = std::move(b.ends);
  }
  Fragment Byte(const std::bitset<256>& set) {
    Glob::State s;
    s.kind = Glob::State::kByte;
    s.bytes = set;
    const int i = Add(s);
    return {i, {{i, false}}};
  }

  // A sequence up to ')' or '|' (inside @(...)) or the end.
  std::string Sequence(int depth, Fragment& out) {
    while (pos_ < p_.size()) {
      const char c = p_[pos_];
      if (depth > 0 && (c == ')' || c == '|')) return {};
      Fragment piece;
      if (c == '*') {
        // Each star can stay active along the whole text: bounded, so is a match's cost.
        if (++stars_ > kMaxStars)
          return "more than " + std::to_string(kMaxStars) + " '*' (character " +
                 std::to_string(pos_ + 1) + ")";
        ++pos_;
        // split -> (any byte -> back to split) | on
        Glob::State split;
        split.kind = Glob::State::kSplit;
        const int s = Add(split);
        std::bitset<256> all;
        all.set();
        const Fragment any = Byte(all);
        Patch(any, s);
        g_.states_[s].out = any.start;
        piece = {s, {{s, true}}};
      } else if (c == '?') {
        ++pos_;
        std::bitset<256> all;
        all.set();
        piece = Byte(all);
      } else if (c == '[') {
        std::bitset<256> set;
        if (const std::string e = Class(set); !e.empty()) return e;
        piece = Byte(set);
      } else if (c == '@' && pos_ + 1 < p_.size() && p_[pos_ + 1] == '(') {
        if (depth >= 8) return "@( nested deeper than 8 at character " + std::to_string(pos_ + 1);
        const std::size_t open = pos_;
        pos_ += 2;
        if (const std::string e = Alternatives(depth + 1, piece); !e.empty()) return e;
        if (pos_ >= p_.size() || p_[pos_] != ')')
          return "unterminated @( at character " + std::to_string(open + 1);
        ++pos_;
      } else {
        if (c == '\\' && pos_ + 1 < p_.size()) ++pos_;
        std::bitset<256> one;
        one.set(static_cast<unsigned char>(p_[pos_++]));
        piece = Byte(one);
      }
      Append(out, std::move(piece), *this);
    }
    return {};
  }

  // a|b|... after "@(", up to (not past) the closing ')'.
  std::string Alternatives(int depth, Fragment& out) {
    std::vector<Fragment> alts;
    while (true) {
      Fragment alt;
      if (const std::string e = Sequence(depth, alt); !e.empty()) return e;
      if (alt.start < 0) {  // an empty alternative: a pass-through split
        Glob::State pass;
        pass.kind = Glob::State::kSplit;
        const int s = Add(pass);
        alt = {s, {{s, false}, {s, true}}};
      }
      alts.push_back(std::move(alt));
      if (pos_ < p_.size() && p_[pos_] == '|') {
        ++pos_;
        continue;
      }
      break;
    }
    // A chain of splits, one per alternative.
    Fragment all = alts.back();
    for (std::size_t i = alts.size() - 1; i-- > 0;) {
      Glob::State split;
      split.kind = Glob::State::kSplit;
      split.out = alts[i].start;
      split.out1 = all.start;
      const int s = Add(split);
      std::vector<Hole> ends = alts[i].ends;
      ends.insert(ends.end(), all.ends.begin(), all.ends.end());
      all = {s, std::move(ends)};
    }
    out = std::move(all);
    return {};
  }

  // [set], [!set] or [^set] with ranges; ']' first is literal.
  std::string Class(std::bitset<256>& set) {
    const std::size_t open = pos_++;
    bool negate = false;
    if (pos_ < p_.size() && (p_[pos_] == '!' || p_[pos_] == '^')) negate = true, ++pos_;
    bool first = true;
    while (pos_ < p_.size() && (p_[pos_] != ']' || first)) {
      first = false;
      const unsigned char lo = static_cast<unsigned char>(p_[pos_++]);
      if (pos_ + 1 < p_.size() && p_[pos_] == '-' && p_[pos_ + 1] != ']') {
        const unsigned char hi = static_cast<unsigned char>(p_[pos_ + 1]);
        pos_ += 2;
        for (unsigned v = lo; v <= hi; ++v) set.set(v);
      } else {
        set.set(lo);
      }
    }
    if (pos_ >= p_.size()) return "unterminated [ at character " + std::to_string(open + 1);
    ++pos_;
    if (negate) set.flip();
    return {};
  }

  std::string_view p_;
  static constexpr int kMaxStars = 64;
  std::size_t pos_ = 0;
  int stars_ = 0;
  Glob g_;
};

oracle::Result<Glob> Glob::Compile(std::string_view pattern) { return GlobCompiler(pattern).Run(); }

namespace {
constexpr int32_t kFull = -3;  // StateOf: no room for another deterministic state
// The sets a pattern keeps hold at most this many states in all (1 MiB).
constexpr std::size_t kMaxDfaSetStates = std::size_t{1} << 18;
}  // namespace

std::vector<int> Glob::Closure(Dfa& dfa, std::vector<int> stack) const {
  // A mark per state of the closure that last reached it: a closure costs the states it
  // reaches, not the pattern's length.
  if (dfa.mark.size() != states_.size()) dfa.mark.assign(states_.size(), 0);
  ++dfa.closure;
  std::vector<int> set;
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (i < 0 || dfa.mark[static_cast<std::size_t>(i)] == dfa.closure) continue;
    dfa.mark[static_cast<std::size_t>(i)] = dfa.closure;
    const State& st = states_[static_cast<std::size_t>(i)];
    if (st.kind == State::kSplit) {
      stack.push_back(st.out);
      stack.push_back(st.out1);
    } else {
      set.push_back(i);
    }
  }
  return set;
}

std::vector<int> Glob::Step(Dfa& dfa, const std::vector<int>& set, unsigned char byte) const {
  std::vector<int> to;
  for (const int s : set) {
    const State& st = states_[static_cast<std::size_t>(s)];
    if (st.kind == State::kByte && st.bytes.test(byte)) to.push_back(st.out);
  }
  return to.empty() ? to : Closure(dfa, std::move(to));
}

bool Glob::Accepts(const std::vector<int>& set) const {
  return std::any_of(set.begin(), set.end(), [&](int i) {
    return states_[static_cast<std::size_t>(i)].kind == State::kMatch;
  });
}

int32_t Glob::StateOf(Dfa& dfa, std::vector<int> set) const {
  std::sort(set.begin(), set.end());  // one key per set, whatever order the closure found it in
  if (const auto it = dfa.index.find(set); it != dfa.index.end()) return it->second;
  if (dfa.sets.size() >= kMaxDfaStates || dfa.held + set.size() > kMaxDfaSetStates) return kFull;
  dfa.held += set.size();
  const auto id = static_cast<int32_t>(dfa.sets.size());
  dfa.accepting.push_back(Accepts(set));
  const auto at = dfa.index.emplace(std::move(set), id).first;
  dfa.sets.push_back(&at->first);
  dfa.next.resize(dfa.next.size() + static_cast<std::size_t>(classes_), kUnknown);
  return id;
}

bool Glob::Matches(std::string_view text) const {
  Dfa& dfa = *dfa_;
  const std::lock_guard<std::mutex> hold(dfa.lock);
  if (dfa.sets.empty()) StateOf(dfa, Closure(dfa, {start_}));  // state 0, the start
  std::size_t d = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t step = d * static_cast<std::size_t>(classes_) + class_of_[byte];
    if (dfa.next[step] == kUnknown) {
      std::vector<int> set = Step(dfa, *dfa.sets[d], byte);
      const int32_t to = set.empty() ? kDead : StateOf(dfa, set);
      if (to == kFull) {
        // No room to keep it: the automaton itself runs the rest of the text.
        for (const char c : text.substr(i + 1)) {
          set = Step(dfa, set, static_cast<unsigned char>(c));
          if (set.empty()) return false;
        }
        return Accepts(set);
      }
      dfa.next[step] = to;
    }
    if (dfa.next[step] == kDead) return false;
    d = static_cast<std::size_t>(dfa.next[step]);
  }
  return dfa.accepting[d];
}

}  // namespace tcfuzz::suites
