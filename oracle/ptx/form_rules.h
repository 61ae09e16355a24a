// The rules of instruction-form legality, one per spec statement, and the per-family checks
// ValidateForm() dispatches to. Internal to oracle/ptx.
#pragma once

#include <string_view>

#include "oracle/core/rule.h"
#include "oracle/core/verdict.h"
#include "oracle/ptx/instruction_form.h"
#include "oracle/ptx/ptx_target.h"

namespace tcfuzz::oracle::ptx {

namespace form_rule {
// Module level.
inline constexpr Rule kTargetVersion{"ptx.target_version",
                                     "PTX 9.1 §11.1.2 (.target), §14 (release notes)",
                                     "the module's .version is one that knows the .target"};
inline constexpr Rule kUnknownTarget{"ptx.target_unknown", "PTX 9.1 §11.1.2 (.target)",
                                     "the .target is one PTX defines"};

// Warp-level mma (PTX 9.1 §9.7.13.4, "mma" syntax and target notes).
inline constexpr std::string_view kMmaSec = "PTX 9.1 §9.7.13.4 (mma)";
inline constexpr Rule kMmaShape{"mma.shape_type", kMmaSec,
                                "the m16n8kK shape is one mma defines for the A/B type"};
inline constexpr Rule kMmaTypes{
    "mma.types", kMmaSec,
    "A and B types pair as mma allows (f16/bf16/tf32 alike; s8/u8, s4/u4, e4m3/e5m2 may mix; "
    ".kind::f8f6f4 any of its five types)"};
inline constexpr Rule kMmaAccum{
    "mma.accumulator", kMmaSec,
    "D equals C and is a type the A/B type takes (f16, fp8: f16|f32; bf16, tf32: f32; ints: s32)"};
inline constexpr Rule kMmaSatfinite{"mma.satfinite", kMmaSec,
                                    ".satfinite is for integer types only"};
inline constexpr Rule kMmaTarget{
    "mma.target", kMmaSec,
    "sm_80 or later; e4m3/e5m2 need sm_89 or later; .kind::f8f6f4 sm_120a/121a or their family"};
inline constexpr Rule kMmaVersion{"mma.ptx_version", kMmaSec,
                                  "PTX 7.0 (e4m3/e5m2: 8.4; their f16 accumulators: 8.7)"};

// mma.sp / mma.sp::ordered_metadata (PTX 9.1 §9.7.14.6.3; ptx-spec-notes §7c).
inline constexpr std::string_view kSpSec = "PTX 9.1 §9.7.14.6.3 (mma.sp)";
inline constexpr Rule kSpShape{"mma_sp.shape_type", kSpSec,
                               "the m16n8kK shape is one mma.sp defines for the A/B type"};
inline constexpr Rule kSpAccum{"mma_sp.accumulator", kSpSec,
                               "D equals C and is a type the A/B type takes (e4m3/e5m2 with f16 D: "
                               "sm_120a/121a and their family only)"};
inline constexpr Rule kSpKind{"mma_sp.kind", kSpSec,
                              ".kind::f8f6f4 spells the e4m3/e5m2/e3m2/e2m3/e2m1 forms of "
                              "::ordered_metadata only, and e3m2/e2m3/e2m1 need it"};
inline constexpr Rule kSpTarget{"mma_sp.target", kSpSec,
                                "sm_80 or later; e4m3/e5m2 sm_89 or later; .kind::f8f6f4 "
                                "sm_120a/121a or the sm_120f/121f family"};
inline constexpr Rule kSpVersion{
    "mma_sp.ptx_version", kSpSec,
    "PTX 7.1 (::ordered_metadata 8.5, e4m3/e5m2 8.4, .kind::f8f6f4 and f16 D with fp8 8.7)"};

// wgmma.mma_async (+ .sp) (PTX 9.1 §9.7.15.5.2, §9.7.15.6; ptx-spec-notes §6).
inline constexpr std::string_view kWgSec = "PTX 9.1 §9.7.15.5.2 (wgmma.mma_async)";
inline constexpr Rule kWgShape{"wgmma.shape", kWgSec,
                               "M is 64, K is the type's (x2 for .sp), N is one the type takes"};
inline constexpr Rule kWgTypes{"wgmma.types", kWgSec,
                               "A and B types pair as wgmma allows and D is a type they take"};
inline constexpr Rule kWgTrans{
    "wgmma.trans", kWgSec,
    "imm-trans-a (descriptor A) and imm-trans-b are present for f16/bf16 only, each 0 or 1"};
inline constexpr Rule kWgSatfinite{"wgmma.satfinite", kWgSec,
                                   ".satfinite is for integer types only"};
inline constexpr Rule kWgSelector{"wgmma_sp.selector", "PTX 9.1 §9.7.15.6.1 (sparsity selector)",
                                  "f16/bf16/tf32: selector 0 or 1; fp8 and integer types: 0"};
inline constexpr Rule kWgTarget{"wgmma.target", kWgSec, "sm_90a only"};
inline constexpr Rule kWgVersion{"wgmma.ptx_version", kWgSec,
                                 "PTX 8.0 (.sp 8.2; s8 with u8 mixed 8.4)"};

// tcgen05.mma family (PTX 9.1 §9.7.16.10.9; ptx-spec-notes §3).
inline constexpr std::string_view kTcSec = "PTX 9.1 §9.7.16.10.9 (tcgen05.mma)";
inline constexpr Rule kTcCtaGroup{"tcgen05.cta_group", kTcSec, ".cta_group is ::1 or ::2"};
inline constexpr Rule kTcWsCta{"tcgen05.ws_cta_group", kTcSec,
                               ".ws exists with .cta_group::1 only"};
inline constexpr Rule kTcCollector{
    "tcgen05.collector", kTcSec,
    "non-ws: .collector::a::{fill,use,lastuse,discard}; ws: .collector::b0..b3::{...}"};
inline constexpr Rule kTcDisableLanes{
    "tcgen05.disable_output_lane", kTcSec,
    "disable-output-lane: non-ws forms only, 4 registers for cta_group::1, 8 for ::2"};
inline constexpr Rule kTcScaleKind{"tcgen05.scale_input_d_kind", kTcSec,
                                   "scale-input-d: non-ws forms of kind::f16 and kind::tf32 only"};
inline constexpr Rule kTcScaleRange{"tcgen05.scale_input_d_range", kTcSec,
                                    "scale-input-d is 0..15"};
inline constexpr Rule kTcZeroColumnMask{
    "tcgen05.zero_column_mask", "PTX 9.1 §9.7.16.10.9.3-4",
    "the zero-column mask operand exists on .ws and .ws.sp only"};
inline constexpr Rule kTcTarget{"tcgen05.target", "PTX 9.1 §9.7.16.10.9 (target ISA notes)",
                                "sm_100a, sm_103a, sm_110a or their families (sm_100f, sm_103f, "
                                "sm_110f); kind::i8 arch-specific "
                                "sm_100a/sm_110a only; scale-input-d sm_100a only"};
inline constexpr Rule kTcVersion{"tcgen05.ptx_version", "PTX 9.1 §9.7.16.10.9 (PTX ISA notes)",
                                 "PTX 8.6"};
}  // namespace form_rule

// Per-family checks and minimum versions (warp_mma_forms.cc, wgmma_forms.cc, tcgen05_forms.cc).
void ValidateWarpMma(const PtxForm& f, const PtxTarget& t, Verdict& v);
PtxVersion WarpMmaMinVersion(const PtxForm& f);
void ValidateWgmma(const PtxForm& f, const PtxTarget& t, Verdict& v);
PtxVersion WgmmaMinVersion(const PtxForm& f);
void ValidateTcgen05(const PtxForm& f, const PtxTarget& t, Verdict& v);
PtxVersion Tcgen05MinVersion(const PtxForm& f);

}  // namespace tcfuzz::oracle::ptx
