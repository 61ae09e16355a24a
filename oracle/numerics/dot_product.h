// The tensor-core dot product as the hardware computes it: truncated fused dot-product-add
// (T-FDPA), after MMA-Sim (arXiv:2511.10909) and Khattak & Mikaitis (arXiv:2512.07004); the
// recipe and its evidence are in ../shared/reference/tensorcore-numerics.md §2-§5.
//
// For one output element: d = c; for each block of L consecutive k (ascending):
//   special values first (NaN, Inf x 0, opposite infinities -> NaN; else Inf);
//   exact products m_a*m_b * 2^(e_a+e_b), not renormalised; c in the same fused sum;
//   zero terms take exponent e_zero; every term truncated to F fraction bits below the largest
//   exponent, separately; an exact integer sum; one rounding (rho) to the accumulator format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/span.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::oracle::num {

enum class Rounding {
  kRzF32,    // truncate to fp32 (subnormals kept, overflow to Inf)
  kRzE8M13,  // truncate to fp32 with 13 fraction bits (Hopper/Ada fp8)
  kRneF16,   // round to nearest even fp16
};

struct DotParams {
  int F = 24;         // fraction bits kept below the largest exponent
  int L = 8;          // products per fused block
  int e_zero = -132;  // exponent given to zero terms in the max search
  Rounding rho = Rounding::kRzF32;
  // An exact-zero block result is -0 when every term is negative (IEEE addition, the models'
  // choice), and a negative sum that rounds to zero is -0; false: a zero D is always +0.
  bool negative_zero = true;
  // The row's id in the table of readings (oracle/core/backing.h), which says how it is backed;
  // empty for parameters that are not a hardware row (ExactParams, a test's candidates).
  std::string_view row = {};
  // The instruction is not native but f16 MMAs (sm_90/sm_100 mma.sync and mma.sp with e4m3/e5m2;
  // ptxas's SASS: F2FP.F16.E4M3.UNPACK_B, HMMA from RZ, HMMA chained, FADD / HADD2): each operand
  // converted exactly to f16; the products in two groups, positions k with (k / 2) % 2 == 0
  // first (each fp8 register's low byte pair), then the others (its high pair), each group L at
  // a time from +0 with this row's F, e_zero and rho, the second chained on the first; C added
  // last by one IEEE addition rounded to nearest even in the accumulator format.
  bool fp8_via_f16 = false;
};

// Parameters for sums that are exact in every row (small integers, layout probes): the default
// row, rounding to the accumulator's own format (f16: nearest-even, f32: toward zero).
DotParams ExactParams(Format cd);

enum class Instr { kMma, kWgmma, kTcgen05 };
std::string_view Name(Instr i);
std::optional<Instr> ParseInstr(std::string_view s);

// Targets by compute capability (sm_70, sm_80, sm_89, sm_90, sm_100).
enum class Gpu { kSm70, kSm80, kSm89, kSm90, kSm100 };
std::string_view Name(Gpu g);
std::optional<Gpu> ParseGpu(std::string_view s);

// The parameters for (target, instruction, A/B format, C/D format); nullopt where the
// instruction does not take the combination or nothing is known (e.g. B200 mma.sync fp8). How
// each row is backed: BackingOf(params.row, Name(gpu)) (a row not seen on hardware is served to
// the suites, which report a disagreement as model_unconfirmed; `oracle dot` declines it).
std::optional<DotParams> ParamsFor(Gpu gpu, Instr instr, Format ab, Format cd);

// Every (target, instruction, A/B format, C/D format) ParamsFor answers, in table order.
struct NumericsRow {
  Gpu gpu;
  Instr instr;
  Format ab;
  Format cd;
  DotParams params;
};
Span<const NumericsRow> NumericsRows();

// D = C + sum_k A[k]*B[k] for one output element. `a` and `b` hold bit patterns in `ab`
// (A may differ from B for fp8: `ab_b`), `c` in `cd` (f32 or f16). Returns D's bit pattern.
uint32_t DotProduct(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c, Format ab_a,
                    Format ab_b, Format cd, const DotParams& params);

// Bits above the storage width of their format in a or b (`ab`) or c (`cd`): the first such value
// named ("a[3]: 0x13c00 has bits above the 16 of f16"), or nullopt. DotProduct reads only the low
// StorageBits; every reader of element bits (`oracle dot`, the Python module) refuses wider values
// with this rather than have their high bits dropped.
std::optional<std::string> BitsAboveStorage(Span<const uint64_t> a, Span<const uint64_t> b,
                                            uint64_t c, Format ab, Format cd);

// The same over operands already decoded (DecodeOperand), for tile references that decode each
// element once rather than once per output it feeds.
uint32_t DotProduct(Span<const Decoded> a, Span<const Decoded> b, uint32_t c, Format cd,
                    const DotParams& params);

// An operand as the row's hardware multiplies it: decoded, after the exact unpack to f16 where
// the row has fp8_via_f16 (the Decoded overload of DotProduct takes operands decoded so).
Decoded DecodeOperand(Format f, uint64_t bits, const DotParams& p);

// x + y in `cd` (f32 or f16) as one IEEE addition rounded to nearest even (FADD, HADD2): NaN in
// or out is the canonical NaN, opposite infinities NaN, an exact zero +0 unless both are -0.
uint32_t AddRoundedToNearest(Format cd, uint32_t x, uint32_t y);

// One fused block (the building block of DotProduct): n <= L products plus c.
uint32_t FusedBlock(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c, Format fa,
                    Format fb, Format cd, const DotParams& params);

// An integer MMA's exact sum as D holds it: wrapped (two's complement) or clamped (.satfinite).
int32_t IntResult(int64_t sum, bool satfinite);

// Integers: C + sum a*b exactly, then wrap (two's complement) or clamp (.satfinite).
int32_t IntDotProduct(Span<const uint64_t> a, Span<const uint64_t> b, int32_t c, Format fa,
                      Format fb, bool satfinite);

}  // namespace tcfuzz::oracle::num
