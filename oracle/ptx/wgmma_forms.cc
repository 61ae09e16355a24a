// wgmma.mma_async and wgmma.mma_async.sp: the types, shapes, immediates and the one target.
#include <array>

#include "oracle/core/span.h"
#include "oracle/ptx/form_rules.h"

namespace tcfuzz::oracle::ptx {
namespace {

// PTX 9.1 §9.7.15.5.2 (types and K per type), §9.7.15.6.1 (selector: thread pairs for the
// 16-bit and tf32 types, all four threads otherwise).
constexpr std::array<WgmmaType, 7> kTypes{{
    {Format::kF16, 16, true, true, true, false, true},
    {Format::kBF16, 16, true, false, true, false, true},
    {Format::kTF32, 8, false, false, true, false, true},
    {Format::kE4M3, 32, false, true, true, false, false},
    {Format::kE5M2, 32, false, true, true, false, false},
    {Format::kS8, 32, false, false, false, true, false},
    {Format::kU8, 32, false, false, false, true, false},
}};

}  // namespace

Span<const WgmmaType> WgmmaTypes() { return kTypes; }

const WgmmaType* FindWgmmaType(Format a) {
  for (const WgmmaType& t : kTypes) {
    if (t.a == a) return &t;
  }
  return nullptr;
}

bool WgmmaNLegal(Format a, int n) {
  if (IsInt8(a)) return n == 8 || n == 16 || n == 24 || (n % 16 == 0 && n >= 32 && n <= 256);
  return n % 8 == 0 && n >= 8 && n <= 256;
}

void ValidateWgmma(const PtxForm& f, const PtxTarget& t, Verdict& v) {
  const bool sparse = f.family == Family::kWgmmaSp;
  const WgmmaType* ty = FindWgmmaType(f.a);
  const bool pair = ty != nullptr && (IsFp8(f.a)    ? IsFp8(f.b)
                                      : IsInt8(f.a) ? IsInt8(f.b)
                                                    : f.a == f.b);
  const bool d_ok =
      ty != nullptr && ((f.d == Format::kF16 && ty->d_f16) || (f.d == Format::kF32 && ty->d_f32) ||
                        (f.d == Format::kS32 && ty->d_s32));
  if (!pair || !d_ok) {
    v.Add(form_rule::kWgTypes, "types", 0,
          "wgmma has no form with A " + std::string(num::Name(f.a)) + ", B " +
              std::string(num::Name(f.b)) + ", D " + std::string(num::Name(f.d)));
  }
  if (ty != nullptr) {
    const auto s = ParseShape(f.shape);
    if (!s || s->m != 64 || s->k != ty->k * (sparse ? 2 : 1) || !WgmmaNLegal(f.a, s->n)) {
      v.Add(form_rule::kWgShape, "shape", 0,
            f.shape + " is not a wgmma shape for " + std::string(num::Name(f.a)));
    }
    // imm-trans-a exists with a descriptor A only; imm-trans-b always; both for f16/bf16 only.
    const bool want_a = ty->trans && !f.a_in_regs, want_b = ty->trans;
    const bool ok = (f.trans_a >= 0) == want_a && (f.trans_b >= 0) == want_b && f.trans_a <= 1 &&
                    f.trans_b <= 1;
    if (!ok)
      v.Add(form_rule::kWgTrans, "trans", static_cast<uint64_t>(f.trans_a + 1),
            "imm-trans operands do not fit the type");
    if (sparse && (f.selector < 0 || f.selector > (ty->sparse_pairs ? 1 : 0))) {
      v.Add(form_rule::kWgSelector, "selector", static_cast<uint64_t>(f.selector),
            "selector out of range");
    }
  }
  if (f.satfinite && !IsInt8(f.a))
    v.Add(form_rule::kWgSatfinite, "satfinite", 1, ".satfinite on a float type");
  if (!(t.sm == 90 && t.suffix == 'a')) {
    v.Add(form_rule::kWgTarget, "target", static_cast<uint64_t>(t.sm),
          "wgmma needs sm_90a, not " + std::string(t.name));
  }
  const PtxVersion need = WgmmaMinVersion(f);
  if (f.ptx < need)
    v.Add(form_rule::kWgVersion, "ptx", static_cast<uint64_t>(f.ptx),
          "needs PTX " + VersionText(need));
}

PtxVersion WgmmaMinVersion(const PtxForm& f) {
  if (IsInt8(f.a) && f.a != f.b) return 84;  // "WGMMA with mixed integer types"
  return f.family == Family::kWgmmaSp ? 82 : 80;
}

}  // namespace tcfuzz::oracle::ptx
