#include "suites/cli/backing_output.h"

#include <cstdio>
#include <span>

#include "oracle/core/backing.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::suites {
namespace {

using oracle::BackedReading;
using oracle::Backing;

std::string_view Name(oracle::num::Rounding r) {
  switch (r) {
    case oracle::num::Rounding::kRzF32:
      return "rz_f32";
    case oracle::num::Rounding::kRzE8M13:
      return "rz_e8m13";
    case oracle::num::Rounding::kRneF16:
      return "rne_f16";
  }
  return "?";
}

nlohmann::ordered_json ReadingJson(const BackedReading& r, std::string_view target) {
  return {{"id", std::string(r.id)},
          {"backing", std::string(oracle::Name(oracle::BackingOf(r.id, target)))},
          {"seen_on", std::string(r.seen_on)},
          {"reading", std::string(r.reading)},
          {"basis", std::string(r.basis)}};
}

std::string ReadingLine(const BackedReading& r, std::string_view target) {
  std::string tag(oracle::Name(oracle::BackingOf(r.id, target)));
  if (r.backing == Backing::kHardware) tag += " (seen on " + std::string(r.seen_on) + ")";
  return "  " + std::string(r.id) + "  " + tag + ": " + std::string(r.reading) + ". " +
         std::string(r.basis) + "\n";
}

}  // namespace

nlohmann::ordered_json BackingJson(std::span<const std::string_view> ids, std::string_view target) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::string_view id : ids) {
    if (const BackedReading* r = oracle::FindReading(id)) out.push_back(ReadingJson(*r, target));
  }
  return out;
}

std::string BackingText(std::span<const std::string_view> ids, std::string_view target) {
  std::string out = target.empty() ? "backing:\n" : "backing (on " + std::string(target) + "):\n";
  for (std::string_view id : ids) {
    if (const BackedReading* r = oracle::FindReading(id)) out += ReadingLine(*r, target);
  }
  return out;
}

namespace {

// The rows shown for `target` (all without one) and the target their backing is judged on.
bool Shown(const oracle::num::NumericsRow& r, const oracle::num::TargetInfo* target) {
  return target == nullptr || (target->row && *target->row == r.gpu);
}
std::string BackingShown(const oracle::num::NumericsRow& r, const oracle::num::TargetInfo* target) {
  return std::string(oracle::Name(
      oracle::BackingOf(r.params.row, target ? target->target : oracle::num::Name(r.gpu))));
}

}  // namespace

std::string OracleRowsText(const oracle::num::TargetInfo* target) {
  std::string out = target ? oracle::num::Describe(*target) + "\n" : "";
  out += "arch    instr    ab    cd   F   L  e_zero  rounding   -0   path      backing     row\n";
  for (const oracle::num::NumericsRow& r : oracle::num::NumericsRows()) {
    if (!Shown(r, target)) continue;
    char buf[200];
    std::snprintf(
        buf, sizeof buf, "%-7s %-8s %-5s %-4s %2d %3d %7d  %-9s  %-3s  %-8s  %-10s  %s\n",
        std::string(oracle::num::Name(r.gpu)).c_str(),
        std::string(oracle::num::Name(r.instr)).c_str(),
        std::string(oracle::num::Name(r.ab)).c_str(), std::string(oracle::num::Name(r.cd)).c_str(),
        r.params.F, r.params.L, r.params.e_zero, std::string(Name(r.params.rho)).c_str(),
        r.params.negative_zero ? "yes" : "no", r.params.fp8_via_f16 ? "via-f16" : "native",
        BackingShown(r, target).c_str(), std::string(r.params.row).c_str());
    out += buf;
  }
  out +=
      "(-0: whether an exact-zero D can be -0; via-f16: fp8 unpacked to f16, two f16 MMAs from "
      "+0, then C added rounded to nearest; `tcfuzz oracle readings` says what backs each row)\n";
  return out;
}

std::string OracleRowsJson(const oracle::num::TargetInfo* target) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const oracle::num::NumericsRow& r : oracle::num::NumericsRows()) {
    if (!Shown(r, target)) continue;
    rows.push_back({{"arch", std::string(oracle::num::Name(r.gpu))},
                    {"instr", std::string(oracle::num::Name(r.instr))},
                    {"ab", std::string(oracle::num::Name(r.ab))},
                    {"cd", std::string(oracle::num::Name(r.cd))},
                    {"F", r.params.F},
                    {"L", r.params.L},
                    {"e_zero", r.params.e_zero},
                    {"rounding", std::string(Name(r.params.rho))},
                    {"negative_zero", r.params.negative_zero},
                    {"fp8_via_f16", r.params.fp8_via_f16},
                    {"row", std::string(r.params.row)},
                    {"target", std::string(target ? target->target : oracle::num::Name(r.gpu))},
                    {"backing", BackingShown(r, target)}});
  }
  return rows.dump() + "\n";
}

std::string OracleReadingsText() {
  std::string out;
  std::string_view topic;
  for (const BackedReading& r : oracle::BackedReadings()) {
    if (r.topic != topic) out += std::string(r.topic) + ":\n";
    topic = r.topic;
    out += ReadingLine(r, {});
  }
  return out;
}

std::string OracleReadingsJson() {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const BackedReading& r : oracle::BackedReadings()) {
    nlohmann::ordered_json j = ReadingJson(r, {});
    j["topic"] = std::string(r.topic);
    all.push_back(std::move(j));
  }
  return all.dump() + "\n";
}

}  // namespace tcfuzz::suites
