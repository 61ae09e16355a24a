// The instruction-form legality model against statements of the spec and of
// ../shared/reference/ptx-spec-notes.md (§3, §6, §7), each case written from the text, not from
// the model's output.
#include <gtest/gtest.h>

#include "oracle/ptx/instruction_form.h"
#include "oracle/ptx/ptx_target.h"

namespace tcfuzz::oracle::ptx {
namespace {

using num::Format;

PtxForm Sparse(Family fam, const char* shape, Format t, Format d, int sel, int ptx) {
  PtxForm f;
  f.family = fam;
  f.shape = shape;
  f.a = f.b = t;
  f.d = f.c = d;
  f.selector = sel;
  f.ptx = ptx;
  return f;
}

PtxForm Wgmma(Family fam, int n, Format t, Format d) {
  PtxForm f;
  f.family = fam;
  const auto* ty = FindWgmmaType(t);
  f.shape =
      "m64n" + std::to_string(n) + "k" + std::to_string(ty->k * (fam == Family::kWgmmaSp ? 2 : 1));
  f.a = f.b = t;
  f.d = f.c = d;
  f.trans_a = f.trans_b = ty->trans ? 0 : -1;
  f.ptx = 84;
  return f;
}

PtxForm Tc(Family fam, Kind k, int cta = 1) {
  PtxForm f;
  f.family = fam;
  f.kind = k;
  f.cta_group = cta;
  f.ptx = 86;
  return f;
}

std::string Rules(const PtxForm& f, const char* target) {
  return JoinRuleIds(ValidateForm(f, target).RuleIds());
}

TEST(PtxForm, WarpSparseSelectorsFollowMetadataThreads) {
  // §9.7.14.6.1: f16 k32 uses two metadata threads a quad, so the selector is 0 or 1.
  EXPECT_EQ(Rules(Sparse(Family::kMmaSp, "m16n8k32", Format::kF16, Format::kF32, 1, 71), "sm_80"),
            "none");
  EXPECT_EQ(Rules(Sparse(Family::kMmaSp, "m16n8k32", Format::kF16, Format::kF32, 2, 71), "sm_80"),
            "mma_sp.selector");
  // f16 k16: one thread a quad, selectors 0..3.
  EXPECT_EQ(Rules(Sparse(Family::kMmaSp, "m16n8k16", Format::kF16, Format::kF16, 3, 71), "sm_80"),
            "none");
}

TEST(PtxForm, OrderedMetadataNeedsPtx85) {
  EXPECT_EQ(Rules(Sparse(Family::kMmaSpOrdered, "m16n8k32", Format::kBF16, Format::kF32, 0, 84),
                  "sm_90a"),
            "mma_sp.ptx_version");
  EXPECT_EQ(Rules(Sparse(Family::kMmaSpOrdered, "m16n8k32", Format::kBF16, Format::kF32, 0, 85),
                  "sm_90a"),
            "none");
}

TEST(PtxForm, Fp8SparseNeedsSm89AndF32OnHopper) {
  PtxForm f = Sparse(Family::kMmaSp, "m16n8k64", Format::kE4M3, Format::kF32, 0, 84);
  EXPECT_EQ(Rules(f, "sm_80"), "mma_sp.target");
  EXPECT_EQ(Rules(f, "sm_89"), "none");
  f.d = f.c = Format::kF16;  // §7c: f16 accumulators with fp8 are sm_120 only, PTX 8.7
  f.family = Family::kMmaSpOrdered;
  f.ptx = 87;
  EXPECT_EQ(Rules(f, "sm_90a"), "mma_sp.accumulator");
  EXPECT_EQ(Rules(f, "sm_120a"), "none");
}

TEST(PtxForm, KindF8f6f4IsOrderedOnSm120a) {
  PtxForm f = Sparse(Family::kMmaSpOrdered, "m16n8k64", Format::kE2M1, Format::kF32, 0, 87);
  f.kind_f8f6f4 = true;
  EXPECT_EQ(Rules(f, "sm_120a"), "none");
  EXPECT_EQ(Rules(f, "sm_120"), "mma_sp.target");  // §7c: not without the suffix
  EXPECT_EQ(Rules(f, "sm_100a"), "mma_sp.target");
  f.family = Family::kMmaSp;  // §7c: "Illegal modifier '.sp'"
  EXPECT_EQ(Rules(f, "sm_120a"), "mma_sp.ordered_only");
  f.family = Family::kMmaSpOrdered;
  f.kind_f8f6f4 = false;  // e2m1 only exists under the kind
  EXPECT_EQ(Rules(f, "sm_120a"), "mma_sp.kind");
}

TEST(PtxForm, SparseF16AccumulatorsMustMatch) {
  PtxForm f = Sparse(Family::kMmaSp, "m16n8k16", Format::kF16, Format::kF32, 0, 71);
  f.c = Format::kF16;  // §7c: d = c (ptxas enforces)
  EXPECT_EQ(Rules(f, "sm_80"), "mma_sp.accumulator");
}

TEST(PtxForm, DenseShapesAndTypes) {
  PtxForm f;
  f.family = Family::kMma;
  f.shape = "m16n8k8";
  f.a = f.b = Format::kTF32;
  f.d = f.c = Format::kF32;
  f.ptx = 70;
  EXPECT_EQ(Rules(f, "sm_80"), "none");
  f.shape = "m16n8k16";  // tf32 dense K is 4 or 8
  EXPECT_EQ(Rules(f, "sm_80"), "mma.shape_type");
  f.shape = "m16n8k32";
  f.a = Format::kS8;
  f.b = Format::kU8;  // integer types may mix
  f.d = f.c = Format::kS32;
  f.satfinite = true;
  EXPECT_EQ(Rules(f, "sm_80"), "none");
  f.b = Format::kS4;
  EXPECT_EQ(Rules(f, "sm_80"), "mma.types");
}

TEST(PtxForm, WgmmaIsSm90aOnly) {
  const PtxForm f = Wgmma(Family::kWgmma, 128, Format::kF16, Format::kF32);
  EXPECT_EQ(Rules(f, "sm_90a"), "none");
  EXPECT_EQ(Rules(f, "sm_90"), "wgmma.target");  // §6: rejected without the suffix
  PtxForm at86 = f;
  at86.ptx = 86;
  EXPECT_EQ(Rules(at86, "sm_100a"), "wgmma.target");  // §6: and on sm_100a
  PtxForm old = f;
  old.ptx = 78;
  EXPECT_EQ(Rules(old, "sm_90a"), "ptx.target_version,wgmma.ptx_version");
}

TEST(PtxForm, WgmmaNPerType) {
  EXPECT_EQ(Rules(Wgmma(Family::kWgmma, 256, Format::kBF16, Format::kF32), "sm_90a"), "none");
  EXPECT_EQ(Rules(Wgmma(Family::kWgmma, 264, Format::kBF16, Format::kF32), "sm_90a"),
            "wgmma.shape");
  EXPECT_EQ(Rules(Wgmma(Family::kWgmma, 24, Format::kS8, Format::kS32), "sm_90a"), "none");
  EXPECT_EQ(Rules(Wgmma(Family::kWgmma, 40, Format::kS8, Format::kS32), "sm_90a"), "wgmma.shape");
  EXPECT_EQ(Rules(Wgmma(Family::kWgmma, 48, Format::kU8, Format::kS32), "sm_90a"), "none");
}

TEST(PtxForm, WgmmaTransposeOnlyFor16BitTypes) {
  PtxForm f = Wgmma(Family::kWgmma, 64, Format::kTF32, Format::kF32);
  EXPECT_EQ(Rules(f, "sm_90a"), "none");
  f.trans_b = 0;  // §6: trans arguments on tf32 are "Arguments mismatch"
  EXPECT_EQ(Rules(f, "sm_90a"), "wgmma.trans");
  PtxForm h = Wgmma(Family::kWgmma, 64, Format::kF16, Format::kF16);
  h.trans_b = 2;  // §6: rejects trans = 2
  EXPECT_EQ(Rules(h, "sm_90a"), "wgmma.trans");
  h.trans_b = 1;
  h.a_in_regs = true;  // A from registers takes no imm-trans-a
  EXPECT_EQ(Rules(h, "sm_90a"), "wgmma.trans");
  h.trans_a = -1;
  EXPECT_EQ(Rules(h, "sm_90a"), "none");
}

TEST(PtxForm, WgmmaSparseSelector) {
  PtxForm f = Wgmma(Family::kWgmmaSp, 64, Format::kF16, Format::kF32);
  f.selector = 1;  // §6: thread pairs, 0 or 1
  EXPECT_EQ(Rules(f, "sm_90a"), "none");
  f.selector = 2;
  EXPECT_EQ(Rules(f, "sm_90a"), "wgmma_sp.selector");
  PtxForm e = Wgmma(Family::kWgmmaSp, 64, Format::kE4M3, Format::kF32);
  e.selector = 1;  // fp8: all four threads, selector 0 only
  EXPECT_EQ(Rules(e, "sm_90a"), "wgmma_sp.selector");
}

TEST(PtxForm, Tcgen05OperandsPerVariant) {
  PtxForm ws = Tc(Family::kTcgen05Ws, Kind::kF16);
  ws.zero_column_mask = true;  // §3a: the mask is on .ws only, cta_group::1 only
  EXPECT_EQ(Rules(ws, "sm_100a"), "none");
  ws.cta_group = 2;
  EXPECT_EQ(Rules(ws, "sm_100a"), "tcgen05.ws_cta_group");
  PtxForm m = Tc(Family::kTcgen05, Kind::kF16);
  m.zero_column_mask = true;
  EXPECT_EQ(Rules(m, "sm_100a"), "tcgen05.zero_column_mask");
  PtxForm lanes = Tc(Family::kTcgen05Sp, Kind::kTf32, 2);
  lanes.disable_lanes = 4;  // §3a: 8 registers with cta_group::2
  EXPECT_EQ(Rules(lanes, "sm_100a"), "tcgen05.disable_output_lane");
  lanes.disable_lanes = 8;
  EXPECT_EQ(Rules(lanes, "sm_100a"), "none");
  PtxForm c = Tc(Family::kTcgen05Ws, Kind::kI8);
  c.collector = "a::fill";  // ws collectors are b0..b3
  EXPECT_EQ(Rules(c, "sm_100a"), "tcgen05.collector");
  c.collector = "b3::lastuse";
  EXPECT_EQ(Rules(c, "sm_100a"), "none");
}

TEST(PtxForm, Tcgen05ScaleInputD) {
  PtxForm f = Tc(Family::kTcgen05, Kind::kF16);
  f.scale_input_d = 15;
  EXPECT_EQ(Rules(f, "sm_100a"), "none");
  f.scale_input_d = 16;  // §3a: "range [0..15]"
  EXPECT_EQ(Rules(f, "sm_100a"), "tcgen05.scale_input_d_range");
  f.scale_input_d = 3;
  f.kind = Kind::kF8f6f4;  // §3a: rejected on kind::f8f6f4
  EXPECT_EQ(Rules(f, "sm_100a"), "tcgen05.scale_input_d_kind");
  f.kind = Kind::kTf32;  // §3c: scale-input-d needs sm_100a
  f.ptx = 88;
  EXPECT_EQ(Rules(f, "sm_100f"), "tcgen05.target");
}

TEST(PtxForm, Tcgen05Targets) {
  const PtxForm f16 = Tc(Family::kTcgen05, Kind::kF16);
  PtxForm at88 = f16;
  at88.ptx = 88;
  EXPECT_EQ(Rules(at88, "sm_100f"), "none");  // §3c: f16 on sm_100f accepted
  EXPECT_EQ(Rules(f16, "sm_100"), "tcgen05.target");
  EXPECT_EQ(Rules(f16, "sm_90a"), "tcgen05.target");
  PtxForm i8 = Tc(Family::kTcgen05, Kind::kI8);
  i8.ptx = 88;
  EXPECT_EQ(Rules(i8, "sm_100f"), "tcgen05.target");  // §3c: kind::i8 is arch-specific
  EXPECT_EQ(Rules(i8, "sm_100a"), "none");
  PtxForm old = f16;
  old.ptx = 85;  // §3c: "requires 8.6"
  EXPECT_EQ(Rules(old, "sm_100a"), "ptx.target_version,tcgen05.ptx_version");
}

TEST(PtxForm, UnknownTargetIsAVerdictNotACrash) {
  EXPECT_EQ(Rules(Tc(Family::kTcgen05, Kind::kF16), "sm_999z"), "ptx.target_unknown");
  PtxForm f = Wgmma(Family::kWgmma, 64, Format::kF16, Format::kF32);
  f.shape = "m64n";  // not mMnNkK
  EXPECT_EQ(Rules(f, "sm_90a"), "wgmma.shape");
}

TEST(PtxForm, EveryRuleIsRegisteredWithASection) {
  for (const Rule* r : FormRules()) {
    EXPECT_EQ(FindRule(r->id), r) << r->id;
    EXPECT_NE(r->section.find("PTX"), std::string_view::npos) << r->id;
  }
}

TEST(PtxForm, OpcodeSpellsTheForm) {
  PtxForm f = Sparse(Family::kMmaSpOrdered, "m16n8k64", Format::kE3M2, Format::kF16, 0, 87);
  f.b = Format::kE2M1;
  f.kind_f8f6f4 = true;
  EXPECT_EQ(
      f.Opcode(),
      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e3m2.e2m1.f16");
  PtxForm w = Tc(Family::kTcgen05WsSp, Kind::kTf32);
  w.collector = "b2::use";
  EXPECT_EQ(w.Opcode(), "tcgen05.mma.ws.sp.cta_group::1.kind::tf32.collector::b2::use");
  EXPECT_EQ(Wgmma(Family::kWgmmaSp, 8, Format::kE5M2, Format::kF16).Opcode(),
            "wgmma.mma_async.sp.sync.aligned.m64n8k64.f16.e5m2.e5m2");
}

}  // namespace
}  // namespace tcfuzz::oracle::ptx
