#include "suites/toolchain/expectations.h"

#include <sstream>

#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {

oracle::Result<std::vector<Expectation>> ParseExpectations(std::string_view text) {
  using R = oracle::Result<std::vector<Expectation>>;
  std::vector<Expectation> all;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    Expectation e;
    e.line = n;
    if (const size_t hash = line.find('#'); hash != std::string::npos) {
      e.reason = line.substr(hash + 1);
      e.reason.erase(0, e.reason.find_first_not_of(' '));
      line.erase(hash);
    }
    std::istringstream fields(line);
    std::string verdict;
    if (!(fields >> e.toolkit)) continue;  // blank or comment-only
    if (!(fields >> verdict >> e.target_glob) || (verdict != "accept" && verdict != "reject")) {
      return R::Fail("expectations line " + std::to_string(n) +
                     ": want '<toolkit> accept|reject <target> <form>'");
    }
    std::getline(fields >> std::ws, e.key_glob);
    while (!e.key_glob.empty() && e.key_glob.back() == ' ') e.key_glob.pop_back();
    if (e.key_glob.empty())
      return R::Fail("expectations line " + std::to_string(n) + ": no form pattern");
    if (e.reason.empty())
      return R::Fail("expectations line " + std::to_string(n) + ": no '# reason'");
    e.accept = verdict == "accept";
    for (auto [glob, pattern] :
         {std::pair{&e.target, &e.target_glob}, std::pair{&e.key, &e.key_glob}}) {
      auto compiled = Glob::Compile(*pattern);
      if (!compiled.ok())
        return R::Fail("expectations line " + std::to_string(n) + ": " + compiled.error());
      *glob = std::move(compiled).value();
    }
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
    if (e.toolkit != toolkit || e.accept != accepted) continue;
    if (e.target.Matches(target) && e.key.Matches(key)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

}  // namespace tcfuzz::suites
