#include "oracle/core/backing.h"

#include <array>

#include "oracle/core/span.h"

namespace tcfuzz::oracle {
namespace {

using B = Backing;

// H100 = NVIDIA H100 80GB HBM3, CC 9.0, driver 580.159.04, CUDA 13.0; the runs are listed in
// docs/doc-vs-hardware.md. "captures" = ../shared/captures, held to the oracle by HardwareCaptures.
constexpr std::array<BackedReading, 40> kReadings = {{
    // --- numerics rows (oracle/numerics/dot_product.cc ParamsFor) ---------------------------
    {"R70-mma", "numerics", "sm_70 mma f16: F 23, L 4, e_zero -131, RZ-f32 / RNE-f16", B::kHardware,
     "sm_70", "V100 captures, f16->f16 and f16->f32: 5,000 of 5,000 lines each"},
    {"R80-mma", "numerics", "sm_80 mma f16/bf16: F 24, L 8; tf32: F 24, L 4; e_zero -132",
     B::kHardware, "sm_80",
     "A100 captures, f16->f16, f16->f32, bf16->f32, tf32->f32: 5,000 of 5,000 lines each"},
    {"R89-mma", "numerics", "sm_89 mma as sm_80; e4m3/e5m2: F 13, L 16, RZ-E8M13 / RNE-f16",
     B::kHardware, "sm_89",
     "Ada and L40S captures, every input type with f16 and f32 D (fp8 included): 5,000 of 5,000 "
     "lines each"},
    {"R90-mma", "numerics",
     "sm_90 mma(.sp) f16/bf16: F 25, L 16; tf32: F 25, L 8; e_zero -133; a zero D is +0",
     B::kHardware, "sm_90",
     "H100, 2026-11-22/23: sparse-mma (1,048,576 cases) and dense-mma (931,498) campaigns clean in "
     "every value mode "
     "with f16 and f32 D; corpus/sparse_mma/h100 replayed by OwnCaptures. fp8: R90-mma-fp8"},
    {"R90-wgmma", "numerics",
     "sm_90 wgmma f16/bf16: F 25, L 16; tf32: F 25, L 8; e_zero -133; a zero D is +0; "
     "e4m3/e5m2 -> f32: F 13, L 32, RZ-E8M13, C fused and truncated like a product",
     B::kHardware, "sm_90",
     "H100, 2026-11-23: the smem-hw campaign's random-value tiles (C = +0) agreed bit for bit; "
     "2026-11-24: the N5 and N6 deciding vectors (ZeroDeciding) gave this row's D; 2026-11-25: "
     "WgmmaFp8Hw, fp8 -> f32 with a nonzero C, 49,152 of 49,152 elements (corpus/smem_hw/h100); "
     "the discovery kit (corpus/discover/h100_sm_90.txt): every type's probes fit, fp8 with +0"},
    {"R90-wgmma-fp8-f16", "numerics",
     "sm_90 wgmma e4m3/e5m2 -> f16: F 13, L 32, RNE-f16, C fused (MMA-Sim's row); a zero D is +0",
     B::kHardware, "sm_90",
     "H100, 2026-11-25: WgmmaFp8Hw, every type pair with a nonzero f16 C, 49,152 of 49,152 "
     "elements (corpus/smem_hw/h100); the discovery kit's probes (corpus/discover/h100_sm_90.txt) "
     "showed a zero D is +0, not IEEE's -0. The disagreement once attributed to this row (issue "
     "16) came from mma.sync m16n8k32, whose fp8 path is R90-mma-fp8"},
    {"R100-mma", "numerics", "sm_100 mma f16/bf16: F 25, L 16; tf32: F 25, L 8; e_zero -133",
     B::kHardware, "sm_100",
     "B200 captures, f16->f16, f16->f32, bf16->f32, tf32->f32: 5,000 of 5,000 lines each; fp8: "
     "R100-mma-fp8"},
    {"R90-mma-fp8", "numerics",
     "sm_90 mma(.sp) e4m3/e5m2: not native: each operand unpacked to f16 (exact), two f16 MMA "
     "groups (k / 2 even, then odd) from +0 with the f16 row (F 25, L 16), C added last, rounded "
     "to nearest (FADD / HADD2)",
     B::kHardware, "sm_90",
     "ptxas 13.0's sm_90a SASS (F2FP.F16.E4M3.UNPACK_B, HMMA from RZ, HMMA chained, FADD/HADD2; "
     "NVIDIA/cutlass#1986). H100, 2026-11-25: Fp8MmaHw (dense m16n8k32 f32 and f16 D, nonzero "
     "C) and every fp8 element of corpus/sparse_mma/h100 (4,096, 1,024 of them random with "
     "random C) bit for bit"},
    {"R100-mma-fp8", "numerics",
     "sm_100 mma e4m3/e5m2: as sm_90 (R90-mma-fp8) with sm_100's f16 row (IEEE zero sign)",
     B::kHardware, "sm_100",
     "B200 captures, e4m3 and e5m2 with f32 and f16 D: 5,000 of 5,000 lines each (the f16 sets "
     "tell the k / 2 grouping from k < 16 first); ptxas 13.0's sm_100a SASS is the same sequence. "
     "mma.sp fp8 on sm_100 not captured"},
    {"R100-tcgen05", "numerics",
     "sm_100 tcgen05.mma kind::f16/tf32 as sm_100 mma; kind::f8f6f4: F 25, L 32, RZ-f32",
     B::kHypothesis, "",
     "the published models (MMA-Sim, Khattak & Mikaitis; their authors compared with B200); tcfuzz "
     "has run no "
     "tcgen05.mma (no Blackwell lent)"},
    // --- numerics choices ----------------------------------------------------------------------
    {"N1", "numerics", "mma.sp: the kept products in ascending k, L at a time", B::kHardware,
     "sm_90",
     "H100: F 25, L 16 over the kept products fits every f16/bf16/tf32 case; the dense partition "
     "fits none of the "
     "k32 cases it differs on"},
    {"N2", "numerics", "sm_90 mma.sync / mma.sp fp8 is the R90-mma-fp8 row", B::kHardware, "sm_90",
     "H100, 2026-11-25: the SASS shows the f16 MMAs and the add; every captured dense and sparse "
     "element agrees. The native rows tried before (F in 13/24/25, L in 16/32, C fused) fit at "
     "most 306/1319 e4m3 and 524/1268 e5m2 random sparse cases"},
    {"N3", "numerics", "sm_100 mma.sync fp8 is the R100-mma-fp8 row", B::kHardware, "sm_100",
     "B200 captures: 20,000 of 20,000 lines; the tcgen05 kind::f8f6f4 row (C fused, L 32) "
     "matched only 3207/5000 and 3236/5000 f32 lines and no f16 line"},
    {"N4", "numerics", "a zero D from sm_90 mma / mma.sp is +0", B::kHardware, "sm_90",
     "H100, 2026-11-23: SparseSignedZero tallied some 150,000 exact zeros, none -0, 904 of them "
     "with C and every "
     "product -0; every tf32 campaign mismatch of the old rule"},
    {"N5", "numerics", "a zero product or C takes the row's fixed e_zero in the alignment",
     B::kHardware, "sm_90",
     "H100, 2026-11-24: the deciding vectors (ZeroDeciding.OnTheDevice: bf16 through mma.sync and "
     "wgmma, tf32 through mma.sync) gave 0x80490000 and 0x80800000 as this reading says, not the "
     "+0 of the older MMA-Sim's -126 plus the other factor's exponent. Newest MMA-Sim and Khattak "
     "& Mikaitis agree; other GPUs not run"},
    {"N6", "numerics",
     "a zero D is +0 on sm_90 (mma, N4; wgmma, every type); elsewhere -0 only when every term "
     "is negative or a negative sum rounds to zero (IEEE)",
     B::kHardware, "sm_90",
     "H100, 2026-11-24: wgmma returned +0 for a negative sum below the smallest subnormal (bf16 -> "
     "f32 and f16 -> f16, ZeroDeciding.OnTheDevice) where IEEE gives -0; mma: N4. 2026-11-25: "
     "fp8 wgmma too (the discovery kit's probes). Other GPUs not measured: IEEE is every "
     "published model's choice there, a hypothesis"},
    // --- zero-column mask (oracle/tcgen05/zero_column_mask) ------------------------------------
    {"Z1", "zero-column mask",
     "runs of 1s are skip + 1 long, runs of 0s use + 1 (the worked examples)", B::kSpec, "",
     "§9.7.16.4.3's four worked examples (Table 45's text says the opposite; CUTLASS agrees with "
     "the examples); "
     "not run: tcgen05.mma.ws needs sm_100"},
    {"Z2", "zero-column mask", "a start count past a period acts modulo skip + use + 2",
     B::kHypothesis, "", "the spec is silent; not run (sm_100)"},
    {"Z3", "zero-column mask", "a run longer than the sub-mask is cut at its end", B::kHypothesis,
     "", "the spec is silent; not run (sm_100)"},
    {"Z4", "zero-column mask", "sub-mask i covers [floor(i*N/k), floor((i+1)*N/k))", B::kHypothesis,
     "", "the spec is silent (only shapes the .ws rules reject); not run"},
    {"Z5", "zero-column mask", "mask bit j belongs to D column j, which reads B column j + shift",
     B::kHypothesis, "",
     "the doc gives the shift, not which columns the mask indexes; not run (sm_100)"},
    {"Z6", "zero-column mask", "bits 62-63 are reserved, 0", B::kHypothesis, "",
     "not listed in Table 45; not run (sm_100)"},
    // --- shared-memory descriptors (oracle/smem) -------------------------------------------------
    {"S0", "smem descriptor",
     "the canonical layouts of §9.7.16.3.3 / §9.7.15.5.1.2.1.3 and their swizzle functors",
     B::kHardware, "sm_90",
     "the tables and Figures 188-192 (tests evaluate each figure's CuTe expression); H100: WgmmaHw "
     "and the smem-hw "
     "campaign (14,311 legal tiles) bit for bit"},
    {"S1", "smem descriptor",
     "the row phase is ((address >> 7) - base offset), for every swizzled mode", B::kHardware,
     "sm_90",
     "H100, 2026-11-23: corpus/smem_hw/deciding s1_* and 2,091 32B-swizzled operands with a base "
     "offset"},
    {"S2", "smem descriptor",
     "swizzled K-major: LBO ignored inside an atom, further K atoms at + j * LBO", B::kHardware,
     "sm_90", "H100, 2026-11-23: corpus/smem_hw/deciding s2_* and 778 two-atom 32B operands"},
    {"S3", "smem descriptor",
     "128B with 32-byte atoms is MN-major only (rule tcgen05.smem.base32b_major)", B::kSpec, "",
     "Table 55 has no K-major atom for it (Table 54 lists every swizzle for K-major); not run "
     "(sm_100)"},
    {"S4", "smem descriptor",
     "absolute LBO mode splits each row at the 128-byte boundary of the start", B::kHypothesis, "",
     "§9.7.16.3.1.2's two-chunk description; not run (sm_103a)"},
    {"S5", "smem descriptor", "e3m2/e2m3 one per byte, e2m1 packed two per byte", B::kHypothesis,
     "", "figures only (\"packed with padding\"); not run (sm_100)"},
    {"S6", "smem descriptor", "LBO/SBO roles without swizzle as the canonical table says",
     B::kHardware, "sm_90",
     "H100, 2026-11-23: corpus/smem_hw/deciding s6_* and 7,208 no-swizzle operands"},
    {"S7", "smem descriptor",
     "MN-major 128B with 32-byte atoms: 4 K rows per atom, SBO between groups of 4", B::kSpec, "",
     "Table 55's 8x4 atom (512 bytes, the Swizzle<2,5,2> period); §9.7.16.3.2's SBO wording is the "
     "8-row atoms'. "
     "Deciding tiles corpus/tcgen05_hw/deciding; not run (sm_100)"},
    // --- fragment and metadata maps --------------------------------------------------------------
    {"SP0", "sparse maps",
     "mma.sp A rows and chunk columns, B of the dense K shapes, C/D, metadata lanes and "
     "selector range",
     B::kHardware, "sm_90",
     "§9.7.14.6 formulas and thread counts; H100: SparseMmaHw, 40,000 cases of every form and "
     "selector"},
    {"SP1", "sparse maps", "mma.sp metadata bit placement per lane (16/32-bit and 8/4-bit layouts)",
     B::kHardware, "sm_90",
     "figures only; H100, 2026-11-22: SparseProbe.MetadataPlacement located every nibble"},
    {"SP2", "sparse maps", "B of the sparse-only K shapes: two dense K halves concatenated",
     B::kHardware, "sm_90",
     "figures only; H100: SparseProbe.FragmentsWithUniformMetadata, every form"},
    {"SP3", "sparse maps", "kept elements in an A register: ascending column, low bits first",
     B::kHardware, "sm_90", "figures only; H100, every form"},
    {"SP4", "sparse maps", "f16 m16n8k32 selectors 2 and 3 are undefined (not compared)",
     B::kHardware, "sm_90",
     "H100: both trap with CUDA_ERROR_ILLEGAL_INSTRUCTION although ptxas accepts them"},
    {"SP5", "sparse maps", "plain .sp with descending index pairs computes like ordered",
     B::kHardware, "sm_90", "H100: the 12 distinct-index nibbles agree with the model, every form"},
    {"SP6", "sparse maps",
     "wgmma.mma_async.sp metadata: each warp's 16 rows as mma.sp of the same K", B::kHardware,
     "sm_90", "H100, 2026-11-23: 3,534 smem-hw .sp tiles bit for bit"},
    {"TM1", "sparse maps",
     "tcgen05.mma.sp metadata: row r in TMEM lane r of the column pair after D", B::kHypothesis, "",
     "figures only (262-267) and JAX's Mosaic encoder; not run (sm_100)"},
    {"D1", "dense maps", "dense mma.sync fragments of the shapes sparse reuses", B::kHardware,
     "sm_90", "figures only; H100: DenseMmaHw and 931,498 dense-mma cases"},
    {"W1", "wgmma maps", "wgmma accumulator fragments (rows 16w.. per warp, the m64nNk figures)",
     B::kHardware, "sm_90", "H100: WgmmaHw and the smem-hw campaign"},
}};

}  // namespace

std::string_view Name(Backing b) {
  switch (b) {
    case Backing::kHardware:
      return "hardware";
    case Backing::kSpec:
      return "spec";
    case Backing::kHypothesis:
      return "hypothesis";
  }
  return "hypothesis";
}

Span<const BackedReading> BackedReadings() { return kReadings; }

const BackedReading* FindReading(std::string_view id) {
  for (const BackedReading& r : kReadings) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

Backing BackingOf(std::string_view id, std::string_view gpu) {
  const BackedReading* r = FindReading(id);
  if (r == nullptr) return Backing::kHypothesis;
  if (r->backing != Backing::kHardware || gpu.empty()) return r->backing;
  // "sm_90" or "sm_90, sm_100": hardware where it was seen, a hypothesis anywhere else.
  for (std::string_view rest = r->seen_on; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    std::string_view one = rest.substr(0, comma);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    if (one == gpu) return Backing::kHardware;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return Backing::kHypothesis;
}

}  // namespace tcfuzz::oracle
