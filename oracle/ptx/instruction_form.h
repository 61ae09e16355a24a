// Which tensor-core instruction forms PTX defines, on which targets, from which PTX ISA version:
// the legality model the toolchain scan holds the assemblers to (PTX ISA 9.1; facts and the
// assembler probes behind them in ../shared/reference/ptx-spec-notes.md §3, §6, §7).
//
// A form is one spelling of one instruction with the optional operands it carries; its M/N/K
// live in the spelling for mma and wgmma and in the instruction descriptor (a run-time register,
// so not an assembler matter) for tcgen05. ValidateForm() says whether the form is defined on a
// target at the form's .version, as a Verdict listing every broken rule. The tables of types and
// shapes here and in oracle/sparse, oracle/mma are the only lists of forms: the enumerator
// (generators/toolchain) walks them, it does not keep its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::oracle::ptx {

using num::Format;

enum class Family {
  kMma,           // mma.sync.aligned (dense, the shapes sparse reuses)
  kMmaSp,         // mma.sp.sync.aligned
  kMmaSpOrdered,  // mma.sp::ordered_metadata.sync.aligned
  kWgmma,         // wgmma.mma_async.sync.aligned
  kWgmmaSp,       // wgmma.mma_async.sp.sync.aligned
  kTcgen05,       // tcgen05.mma
  kTcgen05Sp,     // tcgen05.mma.sp
  kTcgen05Ws,     // tcgen05.mma.ws
  kTcgen05WsSp,   // tcgen05.mma.ws.sp
};
std::string_view FamilyName(Family f);  // "mma.sp::ordered_metadata"
bool IsWarpMma(Family f);
bool IsWgmma(Family f);
bool IsTcgen05(Family f);
bool IsSparse(Family f);

// tcgen05 .kind (the non-block-scaled kinds: the ones .ws takes too).
enum class Kind { kF16, kTf32, kF8f6f4, kI8 };
std::string_view KindName(Kind k);  // "f16"
// The .kind whose types an A/B element type is (PTX 9.1 §9.7.16.10.1, Table 54): f16/bf16 ->
// f16, tf32 -> tf32, s8/u8 -> i8, the fp8/fp6/fp4 types -> f8f6f4.
Kind Tcgen05KindOf(num::Format ab);

// A PTX ISA version as major*10 + minor (8.6 -> 86).
using PtxVersion = int;
std::string VersionText(PtxVersion v);  // "8.6"

struct PtxForm {
  Family family = Family::kMma;
  PtxVersion ptx = 90;  // the module's .version

  // mma / mma.sp / wgmma: the shape and types as spelled ("m16n8k32", "m64n128k16").
  std::string shape;
  Format a = Format::kF16, b = Format::kF16;
  Format d = Format::kF32, c = Format::kF32;  // wgmma has no separate C: c == d
  bool satfinite = false;
  bool kind_f8f6f4 = false;  // mma.sp::ordered_metadata ... .kind::f8f6f4 spelling
  int selector = 0;          // sparse selector immediate (mma.sp, wgmma.sp)

  // wgmma
  bool a_in_regs = false;  // A from registers instead of a descriptor
  int trans_a = -1;        // imm-trans-a; -1: the operand is absent
  int trans_b = -1;

  // tcgen05
  Kind kind = Kind::kF16;
  int cta_group = 1;
  bool a_tmem = false;
  std::string collector;   // "" (default) or e.g. "a::fill", "b2::lastuse"
  int disable_lanes = 0;   // registers in the disable-output-lane vector, 0: absent
  int scale_input_d = -1;  // the immediate, -1: absent
  bool zero_column_mask = false;

  // The opcode as PTX spells it, every qualifier included:
  // "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32".
  std::string Opcode() const;

  // The stable key of the form (the expectations file and reports name forms by it):
  // the instruction's spelling followed by what else sets it apart, e.g.
  // "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 a=regs trans_b @9.0".
  std::string Key() const;
};

// Is the form defined on `target` ("sm_90a") at form.ptx? Every broken rule is listed.
Verdict ValidateForm(const PtxForm& form, std::string_view target);

// Every rule ValidateForm() checks.
Span<const Rule* const> FormRules();

// The lowest PTX ISA version that defines the form (whatever the target); the enumerator
// renders legal forms at max(this, the target's own minimum).
PtxVersion FormMinVersion(const PtxForm& form);

// "m16n8k32" -> {16, 8, 32}; nullopt when it does not read as mMnNkK.
struct Mnk {
  int m, n, k;
};
std::optional<Mnk> ParseShape(std::string_view shape);

// wgmma's types (PTX 9.1 §9.7.15.5.2): A/B type, dense K, the D types it takes.
struct WgmmaType {
  Format a;
  int k;
  bool trans;  // imm-trans-a/b exist (f16, bf16 only)
  bool d_f16, d_f32, d_s32;
  bool sparse_pairs;  // .sp selector 0..1 (thread pairs) rather than 0 only
};
Span<const WgmmaType> WgmmaTypes();
const WgmmaType* FindWgmmaType(Format a);
// The N values wgmma defines for a type (8..256 step 8; integers 8, 16, 24 then step 16).
bool WgmmaNLegal(Format a, int n);

}  // namespace tcfuzz::oracle::ptx
