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

// S1 — base offset (PTX 9.1 §9.7.16.4.1 Table 41, §9.7.15.5.1.2.2): the doc gives only the
// value, base_offset = (pattern start >> 7) & 7. Choice: the hardware counts the swizzle's row
// phase from the pattern start, i.e. it XORs with ((address >> 7) - base_offset), masked to the
// mode's width (oracle/smem/swizzle.h). The PTX text allows a base offset for 32B swizzle too;
// CUTLASS's comment says 128B and 64B only. Choice: PTX (valid for every swizzled mode).
// S2 — LBO for swizzled K-major: "not used, assumed 1" (§9.7.16.3.1.1), yet Figure 189's exact
// layout spans two 32B atoms along K with unit stride, which would overlap rows. Choice: inside
// one swizzle atom K units are contiguous and LBO is ignored; a K extent wider than one atom
// (sparse or 64-byte K on 32B swizzle) reaches atom j at + j * LBO.
// S3 — the K-major atom for 128B swizzle with 32-byte atomicity: Table 54 allows every swizzle
// for K-major, Table 55 shows no K-major atom. Choice: Table 55; K-major with it is a rule
// violation (tcgen05.smem.base32b_major) and maps like MN-major's atom would not apply.
// S4 — absolute LBO mode (§9.7.16.3.1.2, sm_103a): each row's K bytes up to the 128-byte
// boundary the start address sits in come from the start address, the rest from the LBO
// address at the same row offset.
// S5 — 6-bit element types (e3m2, e2m3) occupy one byte each in shared memory (the unpacked
// kind::f8f6f4 form); e2m1 is packed two to a byte. The doc shows the packing only in figures.

// S7 — 128B swizzle with 32-byte atomicity (tcgen05 only, MN-major; CuTe Swizzle<2,5,2>): how
// many K rows one swizzle atom holds, so where SBO steps. §9.7.16.3.2 words SBO as "first 8
// columns to the next 8 columns", written for the 8-row atoms of the other modes; Table 55 prints
// this mode's MN-major atom as 8x4 (128 bytes along MN x 4 K rows = 512 bytes, which is also the
// Swizzle<2,5,2> period). Choice: Table 55. The atom holds 4 K rows; K rows 4..7 sit at + SBO.
// The 8-row reading stays selectable for a hardware run to compare (spec_choice row S7).
enum class Base32BAtomKRows { kTable55Four = 4, kEightAsOtherModes = 8 };
inline constexpr Base32BAtomKRows kBase32BAtomKRows = Base32BAtomKRows::kTable55Four;

// TM1 — where tcgen05.mma.sp reads its metadata (§9.7.16.10.8, figures only; no Blackwell has
// been lent). Choice, after the figures' shape and JAX's Mosaic encoder: row r of A (M = 128)
// has its metadata in tensor-memory lane r, in the column pair that [sp-meta-tmem] names; the
// row's nibbles in chunk order from bit 0, low word in the pair's first column. A row of 32
// bits (kind::f16 and tf32) sits in the column the sparsity selector names (0 or 1); 64 bits
// (kind::f8f6f4 and i8) fill both, and the selector is 0.

}  // namespace tcfuzz::oracle::spec_choice
