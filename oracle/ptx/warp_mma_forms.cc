// Warp-level mma, mma.sp and mma.sp::ordered_metadata: which spellings exist where. The shape
// tables are oracle/mma (dense) and oracle/sparse (sparse); this file adds what the assembler
// sees on top of them: type pairing, accumulators, qualifiers, targets and versions.
#include <algorithm>

#include "oracle/mma/dense_mma.h"
#include "oracle/ptx/form_rules.h"
#include "oracle/sparse/sparse_form.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::oracle::ptx {
namespace {

bool IsInt(Format f) { return IsInt8(f) || IsInt4(f); }

// §9.7.13.4 / §9.7.14.6.3: f16, bf16, tf32 pair with themselves; s8/u8, s4/u4 and e4m3/e5m2
// mix within their class; .kind::f8f6f4 mixes any of its five types.
bool TypesPair(Format a, Format b, bool kind) {
  if (kind) return (IsFp8(a) || IsFp6Fp4(a)) && (IsFp8(b) || IsFp6Fp4(b));
  if (IsInt8(a)) return IsInt8(b);
  if (IsInt4(a)) return IsInt4(b);
  if (IsFp8(a)) return IsFp8(b);
  return a == b;  // (e3m2/e2m3/e2m1 without the kind: mma_sp.kind says so)
}

// The dense table's K for the type, 0 when the type has no dense form here.
int DenseK(Format a) {
  for (const mma::DenseForm& d : mma::AllDenseForms()) {
    if (d.type == a) return d.k;
  }
  return 0;
}

// sm_120a/sm_121a, or the sm_120f/sm_121f family (PTX 8.8): where the PTX 8.7 additions run.
bool Sm120Specific(const PtxTarget& t) { return t.suffix != '\0' && (t.sm == 120 || t.sm == 121); }

bool FloatAccum(Format x) { return x == Format::kF16 || x == Format::kF32; }

void CheckDense(const PtxForm& f, const std::optional<Mnk>& s, Verdict& v) {
  // .kind::f8f6f4 (sm_120a, PTX 8.7): m16n8k32 over any of the five types, f16 or f32 D = C.
  const int k = f.kind_f8f6f4 ? 32 : DenseK(f.a);
  // The table's K, or half of it (m16n8k8 f16/bf16, m16n8k4 tf32, m16n8k16 s8 and fp8, m16n8k32
  // s4).
  if (!s || s->m != 16 || s->n != 8 || k == 0 || (s->k != k && (f.kind_f8f6f4 || s->k != k / 2))) {
    v.Add(form_rule::kMmaShape, "shape", 0,
          f.shape + " is not an mma shape for " + std::string(num::Name(f.a)));
  }
  bool accum = false;
  if (f.a == Format::kF16)
    accum = f.d == f.c && FloatAccum(f.d);  // ptxas: ".dtype must be .f16 when .ctype is .f16"
  else if (f.a == Format::kBF16 || f.a == Format::kTF32)
    accum = f.d == Format::kF32 && f.c == Format::kF32;
  else if (IsFp8(f.a) || f.kind_f8f6f4)
    accum = f.d == f.c && FloatAccum(f.d);
  else if (IsInt(f.a))
    accum = f.d == Format::kS32 && f.c == Format::kS32;
  if (!accum)
    v.Add(form_rule::kMmaAccum, "d", 0, "D/C types do not go with " + std::string(num::Name(f.a)));
}

void CheckSparse(const PtxForm& f, const PtxTarget& t, Verdict& v) {
  const sparse::SparseForm* sf = sparse::FindForm(f.shape, f.a);
  if (sf == nullptr) {
    v.Add(form_rule::kSpShape, "shape", 0,
          f.shape + " is not an mma.sp shape for " + std::string(num::Name(f.a)));
  } else if (f.selector < 0 || f.selector > sf->max_selector()) {
    v.Add(sparse::sp_rule::kSelector, "selector", static_cast<uint64_t>(f.selector),
          "selector " + std::to_string(f.selector) + " > " + std::to_string(sf->max_selector()));
  }
  // The PTX 8.7 additions (.kind::f8f6f4, fp8 with f16 D) exist only as ::ordered_metadata
  // (the spec's syntax for the kind; ptxas 13.0 for f16 D: "Illegal modifier '.sp'").
  const bool narrow = IsFp6Fp4(f.a) || IsFp6Fp4(f.b);
  const bool fp8_f16 = (IsFp8(f.a) || IsFp8(f.b)) && f.d == Format::kF16;
  if ((narrow || f.kind_f8f6f4 || fp8_f16) && f.family == Family::kMmaSp) {
    v.Add(sparse::sp_rule::kOrderedOnly, "family", 0,
          "plain mma.sp has no PTX 8.7 (fp6/fp4, kind, fp8 with f16 D) form");
  }
  if ((narrow && !f.kind_f8f6f4) || (f.kind_f8f6f4 && !TypesPair(f.a, f.b, true))) {
    v.Add(form_rule::kSpKind, "kind", f.kind_f8f6f4 ? 1 : 0,
          "e3m2/e2m3/e2m1 need .kind::f8f6f4, which takes fp8/6/4 only");
  }
  bool accum = f.d == f.c;
  if (f.a == Format::kF16 || f.kind_f8f6f4)
    accum = accum && FloatAccum(f.d);
  else if (f.a == Format::kBF16 || f.a == Format::kTF32)
    accum = accum && f.d == Format::kF32;
  else if (IsFp8(f.a))
    accum = accum && (f.d == Format::kF32 || (f.d == Format::kF16 && Sm120Specific(t)));
  else if (IsInt(f.a))
    accum = accum && f.d == Format::kS32;
  if (!accum)
    v.Add(form_rule::kSpAccum, "d", 0,
          "D/C types do not go with " + std::string(num::Name(f.a)) + " here");
}

}  // namespace

void ValidateWarpMma(const PtxForm& f, const PtxTarget& t, Verdict& v) {
  const bool sparse = f.family != Family::kMma;
  const auto shape = ParseShape(f.shape);
  if (!TypesPair(f.a, f.b, f.kind_f8f6f4)) {
    v.Add(form_rule::kMmaTypes, "b", 0,
          std::string(num::Name(f.a)) + " does not pair with " + std::string(num::Name(f.b)));
  }
  if (sparse)
    CheckSparse(f, t, v);
  else
    CheckDense(f, shape, v);
  if (f.satfinite && !IsInt(f.a))
    v.Add(form_rule::kMmaSatfinite, "satfinite", 1, ".satfinite on a float type");

  // Targets: everything from sm_80; fp8 from sm_89; .kind::f8f6f4 on sm_120a/121a and the 120f/121f
  // family.
  const Rule& target_rule = sparse ? form_rule::kSpTarget : form_rule::kMmaTarget;
  bool on_target = t.sm >= 80;
  if (IsFp8(f.a) || IsFp8(f.b)) on_target = on_target && t.sm >= 89;
  if (f.kind_f8f6f4) on_target = Sm120Specific(t);
  if (!on_target)
    v.Add(target_rule, "target", static_cast<uint64_t>(t.sm),
          "not defined on " + std::string(t.name));

  const PtxVersion need = WarpMmaMinVersion(f);
  if (f.ptx < need) {
    v.Add(sparse ? form_rule::kSpVersion : form_rule::kMmaVersion, "ptx",
          static_cast<uint64_t>(f.ptx), "needs PTX " + VersionText(need));
  }
}

PtxVersion WarpMmaMinVersion(const PtxForm& f) {
  const bool fp8 = IsFp8(f.a) || IsFp8(f.b);
  if (f.family == Family::kMma) {
    if (f.kind_f8f6f4) return 87;
    if (!fp8) return 70;
    const auto s = ParseShape(f.shape);
    return f.d == Format::kF16 || (s && s->k == DenseK(f.a) / 2) ? 87 : 84;
  }
  PtxVersion v = f.family == Family::kMmaSpOrdered ? 85 : 71;
  if (fp8) v = std::max(v, 84);
  if (f.kind_f8f6f4 || (fp8 && f.d == Format::kF16)) v = std::max(v, 87);
  return v;
}

}  // namespace tcfuzz::oracle::ptx
