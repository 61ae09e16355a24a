#include "suites/toolchain/expectations.h"

#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {

oracle::Result<std::vector<Expectation>> ParseExpectations(std::string_view text) {
  using R = oracle::Result<std::vector<Expectation>>;
  static constexpr std::string_view kFields[] = {"toolkit", "verdict", "target", "form"};
  auto lines = ParseExpectationLines(text, kFields, kFields, "expectations");
  if (!lines.ok()) return R::Fail(lines.error());
  std::vector<Expectation> all;
  for (ExpectationLine& l : std::move(lines).value()) {
    Expectation e;
    e.line = l.line;
    e.toolkit = *l.Field("toolkit");
    const std::string& verdict = *l.Field("verdict");
    if (verdict != "accept" && verdict != "reject")
      return R::Fail("expectations line " + std::to_string(l.line) +
                     ": verdict= must be accept or reject");
    e.accept = verdict == "accept";
    e.target_glob = *l.Field("target");
    e.key_glob = *l.Field("form");
    e.toolkit_glob = l.globs.at("toolkit");
    e.target = l.globs.at("target");
    e.key = l.globs.at("form");
    e.reason = l.reason;
    all.push_back(std::move(e));
  }
  return R::Ok(std::move(all));
}

oracle::Result<std::vector<Expectation>> LoadExpectations(const std::string& path) {
  const auto text = ReadFile(path, std::size_t{1} << 20);
  if (!text.ok())
    return oracle::Result<std::vector<Expectation>>::Fail("expectations: " + text.error());
  auto r = ParseExpectations(text.value());
  if (!r.ok()) return oracle::Result<std::vector<Expectation>>::Fail(path + ": " + r.error());
  return r;
}

int MatchExpectation(const std::vector<Expectation>& all, std::string_view toolkit, bool accepted,
                     std::string_view target, std::string_view key) {
  for (size_t i = 0; i < all.size(); ++i) {
    const Expectation& e = all[i];
    if (!e.toolkit_glob.Matches(toolkit) || e.accept != accepted) continue;
    if (e.target.Matches(target) && e.key.Matches(key)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

}  // namespace tcfuzz::suites
