// The built-in emulator's warp-level MMA (`mma.sync` and `mma.sp`, m16n8kK): one warp's
// instruction executed from the 32 lanes' raw registers, as a device would. It decodes the
// instruction and the registers itself and computes through named steps (decode instruction,
// unpack fragment, read metadata, select element, multiply-accumulate-round, pack D), each a
// function of its own so that a defect can be planted at one of them. It reuses the oracle's
// building blocks (fragment maps, the numerics row, the dot product) but never a suite's
// expected-D function: what it returns is a second execution, not the answer it is judged by.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/emulator/mutant.h"
#include "oracle/core/result.h"
#include "oracle/core/span.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_form.h"
#include "tcfuzz/backend.h"

namespace tcfuzz::harness::emulator {

// Step 1, decode instruction: the form, its types and the numerics row of the claimed target.
// An error (TCFUZZ_UNSUPPORTED) for an instruction no such device executes.
struct WarpMmaForm {
  const oracle::sparse::SparseForm* sparse = nullptr;  // mma.sp
  const oracle::mma::DenseForm* dense = nullptr;       // mma.sync
  oracle::num::Format a = oracle::num::Format::kF16, b = a, cd = oracle::num::Format::kF32;
  bool ordered = false, satfinite = false;
  int selector = 0;
  int k = 0;
  // The target's row for (mma, A type, C/D type). A float form the row does not cover computes
  // as if exact (ExactParams, the emulator's named choice): such cases are never judged by
  // arithmetic, only by layout.
  oracle::num::DotParams params;
  Mutant mutant;  // defects planted at the steps below (mutant.h); empty: none
};
oracle::Result<WarpMmaForm> DecodeWarpMma(const tcfuzz_warp_mma& call, std::string_view target,
                                          const Mutant& mutant = {});

// Step 2, unpack fragment: A as 16 rows of stored elements (dense K, or the kept K/2 in slot
// order), B as K x 8 and C as 16 x 8, row-major bit patterns, from one warp's registers.
struct WarpOperands {
  std::vector<uint64_t> a, b;
  std::vector<uint32_t> c;
};
WarpOperands UnpackFragments(const WarpMmaForm& f, const tcfuzz_warp_mma& call, uint32_t warp);

// Steps 3 and 4, read metadata and select element: for each row and stored A element, the K
// (row of B) it meets. Dense: its own column. A nibble with a repeated index meets the same K
// twice (the emulator's as-if choice for what the PTX ISA leaves undefined).
std::vector<int> MeetsOfWarp(const WarpMmaForm& f, const tcfuzz_warp_mma& call, uint32_t warp);

// Step 5, multiply, align, accumulate and round: D [16][8] through the row's dot product.
std::vector<uint32_t> Accumulate(const WarpMmaForm& f, const WarpOperands& x,
                                 oracle::Span<const int> meets);

// Step 6, pack D into the lanes' registers (call.d of `warp`).
void PackD(const WarpMmaForm& f, oracle::Span<const uint32_t> d, const tcfuzz_warp_mma& call,
           uint32_t warp);

// The whole instruction for every warp of the batch: TCFUZZ_OK, or a code and a message. A
// selector past the form's range faults, as the H100 traps it (docs/doc-vs-hardware.md SP4).
int ExecuteWarpMma(const tcfuzz_warp_mma& call, std::string_view target, std::string* error,
                   const Mutant& mutant = {});

}  // namespace tcfuzz::harness::emulator
