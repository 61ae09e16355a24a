#include "suites/engine/device_suite.h"

#include <span>

#include "suites/engine/worker_protocol.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::suites {

void AddArithmetic(std::vector<std::string_view>& ids,
                   const std::optional<oracle::num::DotParams>& params, bool exact,
                   std::span<const uint32_t> want, std::span<const uint32_t> got, bool sm90_mma) {
  if (!params) return;  // integers: exact
  if (!exact) ids.push_back(params->row);
  const auto first = FirstDifference(want, got);
  if (!first) return;
  const auto zero = [](uint32_t bits) { return (bits & 0x7FFFFFFFu) == 0 || bits == 0x8000u; };
  if (zero(want[*first]) && zero(got[*first])) ids.push_back(sm90_mma ? "N4" : "N6");
}

std::span<const DeviceSuite> DeviceSuites() {
  // Every kind's GPU suites, in the registry's order (suites/kinds/case_kinds.cc).
  static const std::vector<DeviceSuite> all = [] {
    std::vector<DeviceSuite> out;
    for (const CaseKind& k : CaseKinds())
      out.insert(out.end(), k.device_suites.begin(), k.device_suites.end());
    return out;
  }();
  return all;
}

const DeviceSuite* FindDeviceSuite(std::string_view name) {
  for (const DeviceSuite& s : DeviceSuites()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace tcfuzz::suites
