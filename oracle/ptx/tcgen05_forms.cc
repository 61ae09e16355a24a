// tcgen05.mma, .sp, .ws, .ws.sp: which optional operands and qualifiers each takes, and where.
// M, N and K live in the instruction descriptor (a register), so they are not an assembler
// matter and not checked here (oracle/tcgen05/instr_descriptor.h checks them).
#include <string_view>

#include "oracle/ptx/form_rules.h"

namespace tcfuzz::oracle::ptx {
namespace {

bool CollectorOk(std::string_view c, bool ws) {
  if (c.empty()) return true;
  std::string_view buffer = c.substr(0, c.find("::"));
  if (buffer.size() == c.size()) return false;
  const std::string_view op = c.substr(buffer.size() + 2);
  if (op != "fill" && op != "use" && op != "lastuse" && op != "discard") return false;
  if (!ws) return buffer == "a";
  return buffer == "b0" || buffer == "b1" || buffer == "b2" || buffer == "b3";
}

}  // namespace

void ValidateTcgen05(const PtxForm& f, const PtxTarget& t, Verdict& v) {
  const bool ws = f.family == Family::kTcgen05Ws || f.family == Family::kTcgen05WsSp;
  if (f.cta_group != 1 && f.cta_group != 2) {
    v.Add(form_rule::kTcCtaGroup, "cta_group", static_cast<uint64_t>(f.cta_group),
          "cta_group::" + std::to_string(f.cta_group));
  } else if (ws && f.cta_group != 1)
    v.Add(form_rule::kTcWsCta, "cta_group", static_cast<uint64_t>(f.cta_group),
          ".ws with cta_group::2");
  if (!CollectorOk(f.collector, ws))
    v.Add(form_rule::kTcCollector, "collector", 0, "collector ::" + f.collector + " on this form");
  if (f.disable_lanes > 0 && (ws || f.disable_lanes != 4 * f.cta_group)) {
    v.Add(form_rule::kTcDisableLanes, "disable_lanes", static_cast<uint64_t>(f.disable_lanes),
          "disable-output-lane of " + std::to_string(f.disable_lanes) + " registers here");
  }
  if (f.scale_input_d >= 0) {
    if (ws || (f.kind != Kind::kF16 && f.kind != Kind::kTf32)) {
      v.Add(form_rule::kTcScaleKind, "scale_input_d", static_cast<uint64_t>(f.scale_input_d),
            "scale-input-d on kind::" + std::string(KindName(f.kind)) + (ws ? " .ws" : ""));
    }
    if (f.scale_input_d > 15) {
      v.Add(form_rule::kTcScaleRange, "scale_input_d", static_cast<uint64_t>(f.scale_input_d),
            "scale-input-d > 15");
    }
  }
  if (f.zero_column_mask && !ws)
    v.Add(form_rule::kTcZeroColumnMask, "zero_column_mask", 1, "zero-column mask on a non-ws form");

  // Arch-specific sm_100a/103a/110a or their families; kind::i8 needs sm_100a or
  // sm_110a; scale-input-d needs sm_100a.
  const bool arch = t.suffix == 'a' && (t.sm == 100 || t.sm == 103 || t.sm == 110);
  const bool family = t.suffix == 'f' && (t.sm == 100 || t.sm == 103 || t.sm == 110);
  bool on_target = arch || family;
  if (f.kind == Kind::kI8) on_target = t.suffix == 'a' && (t.sm == 100 || t.sm == 110);
  if (f.scale_input_d >= 0) on_target = on_target && t.suffix == 'a' && t.sm == 100;
  if (!on_target)
    v.Add(form_rule::kTcTarget, "target", static_cast<uint64_t>(t.sm),
          "not defined on " + std::string(t.name));

  if (f.ptx < Tcgen05MinVersion(f))
    v.Add(form_rule::kTcVersion, "ptx", static_cast<uint64_t>(f.ptx), "needs PTX 8.6");
}

PtxVersion Tcgen05MinVersion(const PtxForm&) { return 86; }

}  // namespace tcfuzz::oracle::ptx
