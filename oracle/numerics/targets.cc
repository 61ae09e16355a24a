#include "oracle/numerics/targets.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::num {
namespace {

// The generations tcfuzz's rows come from: Volta (sm_70: V100 captures), Ampere (sm_80: A100
// captures), Ada (sm_89: Ada and L40S captures), Hopper (sm_90: our H100 runs), datacenter
// Blackwell (sm_100: B200 captures). A target of the same generation takes that row; it is
// backed by hardware only where it was measured (oracle/core/backing.h).
constexpr std::array<TargetInfo, 15> kTargets = {{
    {"sm_70", "V100, Titan V", Gpu::kSm70, "measured on a V100 (captures)"},
    {"sm_72", "Jetson AGX Xavier", Gpu::kSm70,
     "same tensor-core generation as sm_70 (Volta); not measured on sm_72"},
    {"sm_75", "T4, RTX 20xx, Quadro RTX", std::nullopt,
     "no row: Turing's tensor cores are in no capture or published model tcfuzz follows"},
    {"sm_80", "A100, A30, A800", Gpu::kSm80, "measured on an A100 (captures)"},
    {"sm_86", "A10, A2, A16, A40, RTX 30xx, RTX A6000", Gpu::kSm80,
     "same tensor-core generation as sm_80 (Ampere); not measured on sm_86"},
    {"sm_87", "Jetson Orin", Gpu::kSm80,
     "same tensor-core generation as sm_80 (Ampere); not measured on sm_87"},
    {"sm_89", "L4, L40, L40S, RTX 40xx, RTX 6000 Ada", Gpu::kSm89,
     "measured on Ada and L40S (captures)"},
    {"sm_90", "H100, H200, H800, H20, GH200", Gpu::kSm90, "measured on an H100 (tcfuzz's runs)"},
    {"sm_100", "B200, GB200", Gpu::kSm100,
     "mma measured on a B200 (captures); tcgen05 not measured"},
    {"sm_101", "Jetson Thor (CUDA 12.8-12.9 numbering)", Gpu::kSm100,
     "same tensor-core generation as sm_100 (Blackwell); not measured on sm_101"},
    {"sm_103", "B300, GB300", Gpu::kSm100,
     "same tensor-core generation as sm_100 (datacenter Blackwell); not measured on sm_103"},
    {"sm_110", "Jetson Thor", Gpu::kSm100,
     "same tensor-core generation as sm_100 (Blackwell); not measured on sm_110"},
    {"sm_120", "RTX 50xx, RTX PRO 6000 Blackwell", std::nullopt,
     "no row: consumer Blackwell (no tcgen05, its own mma.sync paths) is in no capture or "
     "published model tcfuzz follows; `tcfuzz discover` can measure it"},
    {"sm_121", "DGX Spark (GB10)", std::nullopt,
     "no row: as sm_120, in no capture or published model; `tcfuzz discover` can measure it"},
    {"sm_60", "P100", std::nullopt, "no row: Pascal has no tensor cores"},
}};

// Device names (lower case, no spaces) to targets; a name that starts with a prefix matches.
constexpr std::array<std::pair<std::string_view, std::string_view>, 35> kDevices = {{
    {"v100", "sm_70"},   {"titanv", "sm_70"},    {"xavier", "sm_72"}, {"t4", "sm_75"},
    {"rtx20", "sm_75"},  {"a100", "sm_80"},      {"a30", "sm_80"},    {"a800", "sm_80"},
    {"a10", "sm_86"},    {"a2", "sm_86"},        {"a16", "sm_86"},    {"a40", "sm_86"},
    {"rtx30", "sm_86"},  {"rtxa6000", "sm_86"},  {"orin", "sm_87"},   {"l4", "sm_89"},
    {"l40", "sm_89"},    {"l40s", "sm_89"},      {"rtx40", "sm_89"},  {"rtx6000ada", "sm_89"},
    {"h100", "sm_90"},   {"h200", "sm_90"},      {"h800", "sm_90"},   {"h20", "sm_90"},
    {"gh200", "sm_90"},  {"b200", "sm_100"},     {"gb200", "sm_100"}, {"b300", "sm_103"},
    {"gb300", "sm_103"}, {"thor", "sm_110"},     {"rtx50", "sm_120"}, {"rtxpro6000", "sm_120"},
    {"gb10", "sm_121"},  {"dgxspark", "sm_121"}, {"p100", "sm_60"},
}};

std::string Squeezed(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<TargetInfo> ByTarget(std::string_view t) {
  for (const TargetInfo& x : kTargets) {
    if (x.target == t) return x;
  }
  return std::nullopt;
}

std::string KnownNames() {
  std::string s;
  for (const TargetInfo& t : kTargets) s += (s.empty() ? "" : " ") + std::string(t.target);
  return s + "; devices such as H100, A100, L40S, B200, RTX 4090";
}

}  // namespace

Span<const TargetInfo> Targets() { return kTargets; }

Result<TargetInfo> FindTarget(std::string_view name) {
  std::string s = Squeezed(name);
  // sm_90a, compute_100f, 86: the base target.
  for (std::string_view prefix : {"compute", "sm"}) {
    if (s.starts_with(prefix)) s = s.substr(prefix.size());
  }
  if (!s.empty() && std::all_of(s.begin(), s.end() - 1, [](char c) { return std::isdigit(c); }) &&
      (std::isdigit(static_cast<unsigned char>(s.back())) || s.back() == 'a' || s.back() == 'f')) {
    if (!std::isdigit(static_cast<unsigned char>(s.back()))) s.pop_back();
    if (const auto t = ByTarget("sm_" + s)) return Result<TargetInfo>::Ok(*t);
  }
  // Device names: the longest known prefix ("rtx4090" -> "rtx40", "l40s" over "l4"), after the
  // vendor and brand words cuDeviceGetName puts first ("NVIDIA GeForce RTX 4090").
  std::string d = Squeezed(name);
  for (std::string_view word : {"nvidia", "geforce", "tesla", "quadro", "jetson", "agx"}) {
    if (d.starts_with(word)) d = d.substr(word.size());
  }
  std::string_view best, target;
  for (const auto& [dev, t] : kDevices) {
    if (d.starts_with(dev) && dev.size() > best.size()) best = dev, target = t;
  }
  if (!best.empty()) return Result<TargetInfo>::Ok(*ByTarget(target));
  return Result<TargetInfo>::Fail("'" + std::string(name.substr(0, 64)) +
                                  "' is not a target or device tcfuzz knows (" + KnownNames() +
                                  ")");
}

Result<TargetInfo> TargetOfCc(int major, int minor) {
  return FindTarget("sm_" + std::to_string(major) + std::to_string(minor));
}

std::string Describe(const TargetInfo& t) {
  std::string s = std::string(t.target) + " (" + std::string(t.devices) + "): ";
  if (!t.row) return s + std::string(t.why);
  return s + "the " + std::string(Name(*t.row)) + " row, " + std::string(t.why);
}

}  // namespace tcfuzz::oracle::num
