// Whether a suite's cases could catch anything (issue 31, "no vacuous cases"): for each case
// with an expected result, which plausible wrong results it tells apart (a probe each): an
// all-zero D, D = C (the instruction did nothing), and the D under a mutant of its operand
// (named after the emulator's mutation point, harness/emulator/mutant.h). A case that passes
// against a probe's result would let that defect through. Counted per family in every report;
// a family whose cases rarely tell a probe apart is named there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tcfuzz::suites {

inline constexpr std::string_view kProbeAllZero = "all_zero";
inline constexpr std::string_view kProbeDEqualsC = "d_equals_c";

// One probe of one case. `probe` is a static string (counted per case: no copy).
struct ProbeResult {
  std::string_view probe;
  bool tells = false;  // the expected result differs from the probe's
};

struct ProbeCount {
  uint64_t cases = 0;    // cases the probe applied to
  uint64_t telling = 0;  // of them, those whose expected result differs from the probe's
  bool operator==(const ProbeCount&) const = default;
};
using FamilyProbes = std::map<std::string, ProbeCount, std::less<>>;      // probe -> counts
using Discrimination = std::map<std::string, FamilyProbes, std::less<>>;  // family -> probes

// all_zero and d_equals_c of an expected D against the C it started from, word by word as the
// suites compare D (an empty C: the instruction had none, so D = C is an all-zero D).
void ProbeZeroAndC(std::span<const uint32_t> want, std::span<const uint32_t> c,
                   std::vector<ProbeResult>& out);
// Whether `want` differs from `wrong` anywhere (a mutant's D, address map or column map).
template <class T>
ProbeResult ProbeAgainst(std::string_view probe, std::span<const T> want,
                         std::span<const T> wrong) {
  return {probe,
          !(want.size() == wrong.size() && std::equal(want.begin(), want.end(), wrong.begin()))};
}

void Count(FamilyProbes& into, std::span<const ProbeResult> probes);
void AddDiscrimination(Discrimination& into, const Discrimination& more);
// Whether every count is within `cases` (what a worker ran, a suite's cases) and no probe told
// more cases apart than it probed: counts from a file or a worker are held to it.
bool WithinCases(const Discrimination& d, uint64_t cases);

// The operand-mutant probes cost a mutant's result each, so the host suites run them on one case
// in `every` (16; the zero-column mask, whose cases cost about as much as its probes, 64), picked
// by case seed. A sparse case's all_zero and d_equals_c, free beside its check, run on every case.
inline bool ProbesMutants(uint64_t case_seed, uint64_t every = 16) {
  return (case_seed >> 40) % every == 0;
}

// When a family is low: all_zero or d_equals_c telling under 99% of 1,000 or more probed cases
// (fewer cannot tell 99% from 98%), or under 90% of 100 or more; a mutant probe no case of 100
// or more told apart. A family with fewer probed cases is not judged.
inline constexpr double kMinTelling = 0.99, kMinTellingFew = 0.90;
inline constexpr uint64_t kManyCases = 1000, kFewCases = 100;

// "family: probe 97.1% (971 of 1000)" for each low probe, in family order.
std::vector<std::string> LowDiscrimination(const Discrimination& d);

// The worker protocol's line (suites/engine/worker_protocol.h), one per family and probe:
// "discrimination <cases> <telling> <probe> <family>" (the family last: it may hold spaces).
std::vector<std::string> DiscriminationLines(const Discrimination& d);
// Adds a line's counts to `into`; false when the line is not one.
bool ParseDiscriminationLine(std::string_view line, Discrimination& into);

}  // namespace tcfuzz::suites
