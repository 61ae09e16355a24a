#include "suites/engine/worker_protocol.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>

namespace tcfuzz::suites {

std::string_view Name(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPass:
      return "pass";
    case CaseOutcome::kMismatch:
      return "mismatch";
    case CaseOutcome::kDeviceFault:
      return "device_fault";
    case CaseOutcome::kTimeout:
      return "timeout";
    case CaseOutcome::kNotSupported:
      return "not_supported";
    case CaseOutcome::kHarnessError:
      return "harness_error";
    case CaseOutcome::kUndefinedBySpec:
      return "undefined_by_spec";
    case CaseOutcome::kModelUnconfirmed:
      return "model_unconfirmed";
    case CaseOutcome::kFlaky:
      return "flaky";
  }
  return "?";
}

bool IsFailure(CaseOutcome o) {
  return o != CaseOutcome::kPass && o != CaseOutcome::kNotSupported &&
         o != CaseOutcome::kUndefinedBySpec && o != CaseOutcome::kModelUnconfirmed &&
         o != CaseOutcome::kFlaky;
}

std::optional<CaseOutcome> ParseOutcome(std::string_view s) {
  for (const CaseOutcome o : kAllOutcomes) {
    if (Name(o) == s) return o;
  }
  return std::nullopt;
}

std::string CaseLine(uint64_t index, CaseOutcome outcome, std::string_view detail) {
  std::string d(detail);
  std::replace(d.begin(), d.end(), '\n', ' ');
  return "case " + std::to_string(index) + " " + std::string(Name(outcome)) + " " + d;
}

std::optional<CaseLineFields> ParseCaseLine(std::string_view line) {
  if (!line.starts_with("case ")) return std::nullopt;
  line.remove_prefix(5);
  CaseLineFields f;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), f.index);
  if (ec != std::errc() || end == line.data() + line.size() || *end != ' ') return std::nullopt;
  line.remove_prefix(static_cast<std::size_t>(end - line.data()) + 1);
  const std::size_t space = line.find(' ');
  const auto outcome = ParseOutcome(line.substr(0, space));
  if (!outcome) return std::nullopt;
  f.outcome = *outcome;
  if (space != std::string_view::npos) f.detail = std::string(line.substr(space + 1));
  return f;
}

std::optional<std::size_t> FirstDifference(std::span<const uint32_t> want,
                                           std::span<const uint32_t> got) {
  for (std::size_t e = 0; e < want.size() && e < got.size(); ++e) {
    if (want[e] != got[e]) return e;
  }
  return std::nullopt;
}

namespace {

// "<n> <text>" after a line's keyword: the count and the text (empty when there is none).
std::pair<uint64_t, std::string> CountAndText(std::string_view rest) {
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
  rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
  return {n, std::string(rest.starts_with(' ') ? rest.substr(1) : std::string_view())};
}

}  // namespace

std::string FamilyLines(const FamilyCounts& ran, const FamilyCounts& unsupported) {
  std::string out;
  for (const auto& [keyword, counts] :
       {std::pair{"family ", &ran}, std::pair{"family_unsupported ", &unsupported}}) {
    for (const auto& [name, n] : *counts) {
      std::string one_line = name;
      std::replace(one_line.begin(), one_line.end(), '\n', ' ');
      out += keyword + std::to_string(n) + " " + one_line + "\n";
    }
  }
  return out;
}

WorkerOutput ParseWorkerOutput(std::string_view out) {
  WorkerOutput w;
  while (!out.empty()) {
    const std::size_t nl = out.find('\n');
    const std::string_view line = out.substr(0, nl);
    out = nl == std::string_view::npos ? std::string_view() : out.substr(nl + 1);
    if (auto c = ParseCaseLine(line)) {
      w.cases.push_back(std::move(*c));
    } else if (line.starts_with("unsupported ")) {
      w.unsupported.push_back(CountAndText(line.substr(12)));
    } else if (line.starts_with("family ")) {
      const auto [n, name] = CountAndText(line.substr(7));
      w.families[name] += n;
    } else if (line.starts_with("family_unsupported ")) {
      const auto [n, name] = CountAndText(line.substr(19));
      w.unsupported_families[name] += n;
    } else if (line.starts_with("ran ")) {
      std::from_chars(line.data() + 4, line.data() + line.size(), w.ran);
    } else if (line.starts_with("fault ")) {
      w.fault = std::string(line.substr(6));
    } else if (ParseDiscriminationLine(line, w.discrimination)) {
    } else if (line == "done") {
      w.done = true;
    } else if (line.starts_with("phase ")) {
      const std::string_view rest = line.substr(6);
      const std::size_t sp = rest.find(' ');
      if (sp != std::string_view::npos && sp > 0) {
        char* end = nullptr;
        const std::string number(rest.substr(sp + 1));
        const double seconds = std::strtod(number.c_str(), &end);
        if (end != number.c_str() && *end == '\0' && std::isfinite(seconds) && seconds >= 0)
          w.phases[std::string(rest.substr(0, sp))] += seconds;
      }
    }
  }
  return w;
}

std::string PhaseLine(std::string_view name, double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, " %.6f", seconds);
  return "phase " + std::string(name) + buf;
}

std::string MismatchDetail(std::span<const uint32_t> want, std::span<const uint32_t> got,
                           std::size_t cols) {
  const auto e = FirstDifference(want, got);
  if (!e) return {};
  char what[96];
  std::snprintf(what, sizeof what, "D[%zu][%zu] oracle %08x device %08x", *e / cols, *e % cols,
                want[*e], got[*e]);
  return what;
}

std::string ObservedField(const std::vector<uint32_t>& words) {
  std::string s = " observed=";
  char buf[12];
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%08x", i ? "," : "", words[i]);
    s += buf;
  }
  return s;
}

std::vector<uint32_t> ParseObserved(std::string_view detail, std::size_t count) {
  const std::size_t at = detail.find("observed=");
  if (at == std::string_view::npos) return {};
  std::string_view rest = detail.substr(at + 9);
  rest = rest.substr(0, rest.find(' '));
  std::vector<uint32_t> out;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view word = rest.substr(0, comma);
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v, 16);
    if (ec != std::errc() || end != word.data() + word.size()) return {};
    out.push_back(v);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return count == 0 || out.size() == count ? out : std::vector<uint32_t>{};
}

}  // namespace tcfuzz::suites
