#include "oracle/ptx/ptx_target.h"

#include <array>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::ptx {
namespace {

// Every sm_ target ptxas 13.0 takes (its --help lists them), with the .version that introduced
// it (PTX 9.1 §14 release notes; sm_101a became sm_110a in PTX 9.0, so the old name is gone).
constexpr std::array<PtxTarget, 23> kTargets{{
    {"sm_75", 75, '\0', 63},   {"sm_80", 80, '\0', 70},   {"sm_86", 86, '\0', 71},
    {"sm_87", 87, '\0', 74},   {"sm_88", 88, '\0', 90},   {"sm_89", 89, '\0', 78},
    {"sm_90", 90, '\0', 78},   {"sm_90a", 90, 'a', 80},   {"sm_100", 100, '\0', 86},
    {"sm_100a", 100, 'a', 86}, {"sm_100f", 100, 'f', 88}, {"sm_103", 103, '\0', 88},
    {"sm_103a", 103, 'a', 88}, {"sm_103f", 103, 'f', 88}, {"sm_110", 110, '\0', 90},
    {"sm_110a", 110, 'a', 90}, {"sm_110f", 110, 'f', 90}, {"sm_120", 120, '\0', 87},
    {"sm_120a", 120, 'a', 87}, {"sm_120f", 120, 'f', 88}, {"sm_121", 121, '\0', 88},
    {"sm_121a", 121, 'a', 88}, {"sm_121f", 121, 'f', 88},
}};

}  // namespace

Span<const PtxTarget> AllTargets() { return kTargets; }

const PtxTarget* FindTarget(std::string_view name) {
  for (const PtxTarget& t : kTargets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace tcfuzz::oracle::ptx
