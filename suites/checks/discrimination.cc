#include "suites/checks/discrimination.h"

#include <charconv>
#include <cstdio>
#include <span>

namespace tcfuzz::suites {

void ProbeZeroAndC(std::span<const uint32_t> want, std::span<const uint32_t> c,
                   std::vector<ProbeResult>& out) {
  const bool zero = std::all_of(want.begin(), want.end(), [](uint32_t w) { return w == 0; });
  out.push_back({kProbeAllZero, !zero});
  out.push_back(c.empty() ? ProbeResult{kProbeDEqualsC, !zero}
                          : ProbeAgainst<uint32_t>(kProbeDEqualsC, want, c));
}

void Count(FamilyProbes& into, std::span<const ProbeResult> probes) {
  for (const ProbeResult& p : probes) {
    auto at = into.find(p.probe);
    if (at == into.end()) at = into.emplace(std::string(p.probe), ProbeCount{}).first;
    ++at->second.cases;
    at->second.telling += p.tells ? 1 : 0;
  }
}

void AddDiscrimination(Discrimination& into, const Discrimination& more) {
  for (const auto& [family, probes] : more) {
    FamilyProbes& f = into[family];
    for (const auto& [probe, n] : probes) {
      ProbeCount& to = f[probe];
      to.cases += n.cases;
      to.telling += n.telling;
    }
  }
}

bool WithinCases(const Discrimination& d, uint64_t cases) {
  for (const auto& [family, probes] : d) {
    for (const auto& [probe, n] : probes) {
      if (n.cases > cases || n.telling > n.cases) return false;
    }
  }
  return true;
}

std::vector<std::string> LowDiscrimination(const Discrimination& d) {
  std::vector<std::string> low;
  for (const auto& [family, probes] : d) {
    for (const auto& [probe, n] : probes) {
      if (n.cases < kFewCases) continue;
      const bool basic = probe == kProbeAllZero || probe == kProbeDEqualsC;
      const double share = static_cast<double>(n.telling) / static_cast<double>(n.cases);
      const bool is_low = !basic                  ? n.telling == 0
                          : n.cases >= kManyCases ? share < kMinTelling
                                                  : share < kMinTellingFew;
      if (!is_low) continue;
      char pct[32];
      std::snprintf(pct, sizeof pct, " %.1f%% (", 100 * share);
      low.push_back(family + ": " + probe + pct + std::to_string(n.telling) + " of " +
                    std::to_string(n.cases) + ")");
    }
  }
  return low;
}

std::vector<std::string> DiscriminationLines(const Discrimination& d) {
  std::vector<std::string> lines;
  for (const auto& [family, probes] : d) {
    for (const auto& [probe, n] : probes) {
      lines.push_back("discrimination " + std::to_string(n.cases) + " " +
                      std::to_string(n.telling) + " " + probe + " " + family);
    }
  }
  return lines;
}

bool ParseDiscriminationLine(std::string_view line, Discrimination& into) {
  constexpr std::string_view kHead = "discrimination ";
  if (!line.starts_with(kHead)) return false;
  line.remove_prefix(kHead.size());
  ProbeCount n;
  for (uint64_t* field : {&n.cases, &n.telling}) {
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), *field);
    if (ec != std::errc() || end == line.data() + line.size() || *end != ' ') return false;
    line.remove_prefix(static_cast<std::size_t>(end - line.data()) + 1);
  }
  const std::size_t sp = line.find(' ');
  if (n.telling > n.cases || sp == 0 || sp == std::string_view::npos || sp + 1 == line.size())
    return false;
  ProbeCount& to = into[std::string(line.substr(sp + 1))][std::string(line.substr(0, sp))];
  if (to.cases > UINT64_MAX - n.cases) return false;  // a garbled worker's: the engine drops it
  to.cases += n.cases;
  to.telling += n.telling;
  return true;
}

}  // namespace tcfuzz::suites
