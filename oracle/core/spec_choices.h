// Where the spec contradicts itself or is silent, the reading tcfuzz follows: all in one place.
//
// Each choice has an id (Zn, ...) that docs/doc-vs-hardware.md uses for its row, where the
// evidence for and against it is cited and what hardware showed is recorded. Code that depends
// on a choice reads it from here; where both readings are implemented, the alternative stays
// selectable so a hardware run can say which one the silicon follows.
#pragma once

namespace tcfuzz::oracle::spec_choice {

// Z1 — zero-column mask span naming (PTX 9.1 §9.7.16.4.3).
// Table 45's text says skip span = (columns where B is used) - 1 and use span = (columns where
// 0s are used) - 1. The section's four worked examples show the opposite, and so does CUTLASS
// (cute/arch/mma_sm100_desc.hpp, MaskAndShiftB). Choice: the worked examples.
enum class ZcmSpanMeaning {
  kWorkedExamples,  // run of 1s (B column zeroed) = skip_span + 1; run of 0s = use_span + 1
  kTableText,       // run of 0s (B column used) = skip_span + 1; run of 1s = use_span + 1
};
inline constexpr ZcmSpanMeaning kZcmSpans = ZcmSpanMeaning::kWorkedExamples;

// Z2 — start count larger than one period (skip + use + 2): the spec is silent. Choice: the
// sub-mask is one periodic bit string and sc is a phase offset into it, so sc acts modulo the
// period (this is also how the examples read when sc is smaller than a run).
// Z3 — a span longer than the sub-mask: the run is simply cut at the sub-mask's last column.
// Z4 — N not divisible by the sub-mask count (only for shapes the .ws rules already reject):
// sub-mask i covers columns [floor(i*N/k), floor((i+1)*N/k)), the spec's table with integer
// division.
// Z5 — the column shift: mask bit j belongs to D column j, and with shift s D column j reads
// B column j + s (the doc: "N = 128 with shift 2 uses B columns 2..129"). The shift never
// changes the mask bits.

}  // namespace tcfuzz::oracle::spec_choice
