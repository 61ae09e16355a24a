#include "oracle/ptx/ptx_target.h"

#include <array>

namespace tcfuzz::oracle::ptx {
namespace {

// The .version that introduced each target (PTX 9.1 §14 release notes; sm_101a became sm_110a
// in PTX 9.0, so the old name is not listed).
constexpr std::array<PtxTarget, 13> kTargets{{
    {"sm_80", 80, '\0', 70},
    {"sm_86", 86, '\0', 71},
    {"sm_89", 89, '\0', 78},
    {"sm_90", 90, '\0', 78},
    {"sm_90a", 90, 'a', 80},
    {"sm_100", 100, '\0', 86},
    {"sm_100a", 100, 'a', 86},
    {"sm_100f", 100, 'f', 88},
    {"sm_103a", 103, 'a', 88},
    {"sm_110a", 110, 'a', 90},
    {"sm_120", 120, '\0', 87},
    {"sm_120a", 120, 'a', 87},
    {"sm_121a", 121, 'a', 88},
}};

constexpr std::array<std::string_view, 6> kDefault{"sm_80", "sm_89", "sm_90a", "sm_100a", "sm_103a", "sm_120a"};

}  // namespace

std::span<const PtxTarget> AllTargets() { return kTargets; }

const PtxTarget* FindTarget(std::string_view name) {
  for (const PtxTarget& t : kTargets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::span<const std::string_view> DefaultScanTargets() { return kDefault; }

}  // namespace tcfuzz::oracle::ptx
