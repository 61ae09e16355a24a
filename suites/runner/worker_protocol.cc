#include "suites/runner/worker_protocol.h"

#include <algorithm>
#include <charconv>

namespace tcfuzz::suites {

std::string_view Name(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPass: return "pass";
    case CaseOutcome::kMismatch: return "mismatch";
    case CaseOutcome::kDeviceFault: return "device_fault";
    case CaseOutcome::kTimeout: return "timeout";
    case CaseOutcome::kNotSupported: return "not_supported";
    case CaseOutcome::kHarnessError: return "harness_error";
  }
  return "?";
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

}  // namespace tcfuzz::suites
