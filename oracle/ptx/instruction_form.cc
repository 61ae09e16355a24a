#include "oracle/ptx/instruction_form.h"

#include <charconv>

#include "oracle/core/span.h"
#include "oracle/ptx/form_rules.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::oracle::ptx {
namespace {

std::string Types(const PtxForm& f) {
  std::string s = "." + std::string(num::Name(f.d)) + "." + std::string(num::Name(f.a)) + "." +
                  std::string(num::Name(f.b));
  if (IsWarpMma(f.family)) s += "." + std::string(num::Name(f.c));
  return s;
}

// The rules of every family (the sparse selector rule of oracle/sparse is reused as is).
constexpr const Rule* kRules[] = {
    &form_rule::kTargetVersion, &form_rule::kUnknownTarget, &form_rule::kMmaShape,
    &form_rule::kMmaTypes,      &form_rule::kMmaAccum,      &form_rule::kMmaSatfinite,
    &form_rule::kMmaTarget,     &form_rule::kMmaVersion,    &form_rule::kSpShape,
    &form_rule::kSpAccum,       &form_rule::kSpKind,        &form_rule::kSpTarget,
    &form_rule::kSpVersion,     &form_rule::kWgShape,       &form_rule::kWgTypes,
    &form_rule::kWgTrans,       &form_rule::kWgSatfinite,   &form_rule::kWgSelector,
    &form_rule::kWgTarget,      &form_rule::kWgVersion,     &form_rule::kTcCtaGroup,
    &form_rule::kTcWsCta,       &form_rule::kTcCollector,   &form_rule::kTcDisableLanes,
    &form_rule::kTcScaleKind,   &form_rule::kTcScaleRange,  &form_rule::kTcZeroColumnMask,
    &form_rule::kTcTarget,      &form_rule::kTcVersion,
};

}  // namespace

std::string_view FamilyName(Family f) {
  switch (f) {
    case Family::kMma:
      return "mma";
    case Family::kMmaSp:
      return "mma.sp";
    case Family::kMmaSpOrdered:
      return "mma.sp::ordered_metadata";
    case Family::kWgmma:
      return "wgmma.mma_async";
    case Family::kWgmmaSp:
      return "wgmma.mma_async.sp";
    case Family::kTcgen05:
      return "tcgen05.mma";
    case Family::kTcgen05Sp:
      return "tcgen05.mma.sp";
    case Family::kTcgen05Ws:
      return "tcgen05.mma.ws";
    case Family::kTcgen05WsSp:
      return "tcgen05.mma.ws.sp";
  }
  return "?";
}

bool IsWarpMma(Family f) {
  return f == Family::kMma || f == Family::kMmaSp || f == Family::kMmaSpOrdered;
}
bool IsWgmma(Family f) { return f == Family::kWgmma || f == Family::kWgmmaSp; }
bool IsTcgen05(Family f) { return !IsWarpMma(f) && !IsWgmma(f); }
bool IsSparse(Family f) {
  return f == Family::kMmaSp || f == Family::kMmaSpOrdered || f == Family::kWgmmaSp ||
         f == Family::kTcgen05Sp || f == Family::kTcgen05WsSp;
}

std::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kF16:
      return "f16";
    case Kind::kTf32:
      return "tf32";
    case Kind::kF8f6f4:
      return "f8f6f4";
    case Kind::kI8:
      return "i8";
  }
  return "?";
}

Kind Tcgen05KindOf(num::Format ab) {
  switch (ab) {
    case num::Format::kF16:
    case num::Format::kBF16:
      return Kind::kF16;
    case num::Format::kTF32:
      return Kind::kTf32;
    case num::Format::kS8:
    case num::Format::kU8:
      return Kind::kI8;
    default:
      return Kind::kF8f6f4;
  }
}

std::string VersionText(PtxVersion v) {
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

std::string PtxForm::Opcode() const {
  if (IsWarpMma(family)) {
    std::string s(FamilyName(family));
    s += ".sync.aligned." + shape + ".row.col";
    if (kind_f8f6f4) s += ".kind::f8f6f4";
    if (satfinite) s += ".satfinite";
    return s + Types(*this);
  }
  if (IsWgmma(family)) {
    std::string s(FamilyName(family));
    s += ".sync.aligned." + shape;
    if (satfinite) s += ".satfinite";
    return s + Types(*this);
  }
  // tcgen05.mma{.sp|.ws|.ws.sp}.cta_group::N.kind::K{.collector::...}
  std::string s(FamilyName(family));
  s += ".cta_group::" + std::to_string(cta_group) + ".kind::" + std::string(KindName(kind));
  if (!collector.empty()) s += ".collector::" + collector;
  return s;
}

std::string PtxForm::Key() const {
  std::string k = Opcode();
  if (IsSparse(family) && !IsTcgen05(family)) k += " sel=" + std::to_string(selector);
  if (IsWgmma(family)) {
    if (a_in_regs) k += " a=regs";
    if (trans_a >= 0) k += " trans_a=" + std::to_string(trans_a);
    if (trans_b >= 0) k += " trans_b=" + std::to_string(trans_b);
  }
  if (IsTcgen05(family)) {
    if (a_tmem) k += " a=tmem";
    if (disable_lanes > 0) k += " disable_lanes=" + std::to_string(disable_lanes);
    if (scale_input_d >= 0) k += " scale_d=" + std::to_string(scale_input_d);
    if (zero_column_mask) k += " zero_column_mask";
  }
  return k + " @" + VersionText(ptx);
}

std::optional<Mnk> ParseShape(std::string_view s) {
  Mnk r{};
  const auto num = [&s](char tag, int& out) {
    if (s.empty() || s.front() != tag) return false;
    s.remove_prefix(1);
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || p == s.data() || out <= 0) return false;
    s.remove_prefix(static_cast<size_t>(p - s.data()));
    return true;
  };
  if (!num('m', r.m) || !num('n', r.n) || !num('k', r.k) || !s.empty()) return std::nullopt;
  return r;
}

Verdict ValidateForm(const PtxForm& form, std::string_view target) {
  Verdict v;
  const PtxTarget* t = FindTarget(target);
  if (t == nullptr) {
    v.Add(form_rule::kUnknownTarget, "target", 0, "unknown target " + std::string(target));
    return v;
  }
  if (form.ptx < t->min_ptx) {
    v.Add(form_rule::kTargetVersion, "ptx", static_cast<uint64_t>(form.ptx),
          std::string(target) + " needs PTX " + VersionText(t->min_ptx));
  }
  if (IsWarpMma(form.family)) {
    ValidateWarpMma(form, *t, v);
  } else if (IsWgmma(form.family)) {
    ValidateWgmma(form, *t, v);
  } else {
    ValidateTcgen05(form, *t, v);
  }
  return v;
}

PtxVersion FormMinVersion(const PtxForm& form) {
  if (IsWarpMma(form.family)) return WarpMmaMinVersion(form);
  if (IsWgmma(form.family)) return WgmmaMinVersion(form);
  return Tcgen05MinVersion(form);
}

Span<const Rule* const> FormRules() { return kRules; }

}  // namespace tcfuzz::oracle::ptx
