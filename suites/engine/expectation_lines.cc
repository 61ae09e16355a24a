#include "suites/engine/expectation_lines.h"

#include <algorithm>
#include <span>
#include <sstream>

#include "oracle/core/text_format.h"

namespace tcfuzz::suites {

const std::string* ExpectationLine::Field(std::string_view name) const {
  for (const auto& [n, text] : fields) {
    if (n == name) return &text;
  }
  return nullptr;
}

std::string ExpectationLine::Text() const {
  std::string out;
  for (const auto& [n, text] : fields) {
    const bool quote = text.find(' ') != std::string::npos || text.find('#') != std::string::npos;
    out += (out.empty() ? "" : " ") + n + "=" + (quote ? "\"" + text + "\"" : text);
  }
  return out;
}

oracle::Result<std::vector<ExpectationLine>> ParseExpectationLines(
    std::string_view text, std::span<const std::string_view> known,
    std::span<const std::string_view> required, std::string_view what) {
  using R = oracle::Result<std::vector<ExpectationLine>>;
  std::string names;
  for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
  std::vector<ExpectationLine> all;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto fail = [&](const std::string& why) {
      return R::Fail(std::string(what) + " line " + std::to_string(n) + ": " + why);
    };
    ExpectationLine e;
    e.line = n;
    std::size_t i = 0;
    const auto space = [&] {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    };
    for (space(); i < line.size(); space()) {
      if (line[i] == '#') {
        e.reason = line.substr(i + 1);
        e.reason.erase(0, e.reason.find_first_not_of(' '));
        while (!e.reason.empty() && (e.reason.back() == ' ' || e.reason.back() == '\r'))
          e.reason.pop_back();
        break;
      }
      const std::size_t eq = line.find('=', i);
      const std::size_t stop = line.find_first_of(" \t", i);
      if (eq == std::string::npos || (stop != std::string::npos && stop < eq))
        return fail("want field=pattern, got " + oracle::Quoted(line.substr(i, stop - i)));
      const std::string name = line.substr(i, eq - i);
      if (std::find(known.begin(), known.end(), name) == known.end())
        return fail("unknown field " + oracle::Quoted(name) + " (fields: " + names + ")");
      if (e.Field(name) != nullptr) return fail("field " + name + " given twice");
      i = eq + 1;
      std::string pattern;
      if (i < line.size() && line[i] == '"') {
        const std::size_t close = line.find('"', i + 1);
        if (close == std::string::npos) return fail(name + ": no closing quote");
        pattern = line.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        const std::size_t end = line.find_first_of(" \t", i);
        pattern = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
        i = end == std::string::npos ? line.size() : end;
      }
      if (pattern.empty()) return fail(name + ": empty pattern");
      auto glob = Glob::Compile(pattern);
      if (!glob.ok()) return fail(name + ": " + glob.error());
      e.globs.emplace(name, std::move(glob).value());
      e.fields.emplace_back(name, std::move(pattern));
    }
    if (e.fields.empty()) {
      if (!e.reason.empty() || line.find('#') != std::string::npos) continue;  // a comment
      continue;                                                                // blank
    }
    for (std::string_view r : required) {
      if (e.Field(r) == nullptr) return fail("no " + std::string(r) + "= field");
    }
    if (e.reason.empty()) return fail("no '# reason'");
    all.push_back(std::move(e));
  }
  return R::Ok(std::move(all));
}

}  // namespace tcfuzz::suites
