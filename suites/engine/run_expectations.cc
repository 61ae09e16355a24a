#include "suites/engine/run_expectations.h"

#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {
namespace {

// The value of a field for a failing case at a place (nullptr: a field it does not judge).
struct Values {
  Values(const RunPlace& w, std::string_view su, std::string_view fa, std::string_view si)
      : where(w), suite(su), family(fa), signature(si) {}
  const RunPlace& where;
  std::string_view suite, family, signature;
  std::string s, f, g;
  const std::string* operator()(std::string_view field) {
    if (field == "device") return &where.device;
    if (field == "cc") return &where.cc;
    if (field == "driver") return &where.driver;
    if (field == "toolkit") return &where.toolkit;
    if (field == "suite") return &(s = std::string(suite));
    if (field == "family") return family.empty() ? nullptr : &(f = std::string(family));
    if (field == "signature") return signature.empty() ? nullptr : &(g = std::string(signature));
    return nullptr;
  }
};

}  // namespace

oracle::Result<RunExpectations> RunExpectations::Load(const std::string& path, bool skips) {
  using R = oracle::Result<RunExpectations>;
  static constexpr std::string_view kAll[] = {"device", "cc",     "driver",   "toolkit",
                                              "suite",  "family", "signature"};
  static constexpr std::string_view kPlace[] = {"device", "cc", "driver", "toolkit", "suite"};
  static constexpr std::string_view kSuite[] = {"suite"};
  const auto text = ReadFile(path, std::size_t{1} << 20);
  if (!text.ok()) return R::Fail(text.error());
  auto lines = skips ? ParseExpectationLines(text.value(), kPlace, kSuite, "skips")
                     : ParseExpectationLines(text.value(), kAll, {}, "expectations");
  if (!lines.ok()) return R::Fail(path + ": " + lines.error());
  RunExpectations e;
  e.lines_ = std::move(lines).value();
  for (const ExpectationLine& l : e.lines_) e.uses_.push_back({l.line, l.Text(), l.reason});
  return R::Ok(std::move(e));
}

const ExpectationLine* RunExpectations::Match(const RunPlace& where, std::string_view suite,
                                              std::string_view family, std::string_view signature) {
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].Matches(Values{where, suite, family, signature})) {
      ++uses_[i].matched;
      uses_[i].could_match = true;
      return &lines_[i];
    }
  }
  return nullptr;
}

void RunExpectations::Ran(const RunPlace& where, std::string_view suite) {
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].Matches(Values{where, suite, "", ""})) uses_[i].could_match = true;
  }
}

const ExpectationLine* RunExpectations::Skip(const RunPlace& where, std::string_view suite) const {
  for (const ExpectationLine& l : lines_) {
    if (l.Matches(Values{where, suite, "", ""})) return &l;
  }
  return nullptr;
}

void RunExpectations::AddPrior(const std::vector<ExpectationUse>& prior) {
  for (const ExpectationUse& p : prior) {
    for (ExpectationUse& u : uses_) {
      if (u.line == p.line && u.text == p.text) {
        u.matched += p.matched;
        u.could_match = u.could_match || p.could_match;
      }
    }
  }
}

std::vector<ExpectationUse> RunExpectations::Uses() const { return uses_; }

}  // namespace tcfuzz::suites
