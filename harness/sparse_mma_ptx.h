// The PTX text of one sparse MMA form: the instruction line and a batch kernel around it
// (one warp per case; every lane loads its A, B, C and metadata registers from per-lane arrays,
// issues the instruction once and stores D). Rendering only: which forms are legal is the
// oracle's business.
#pragma once

#include <string>

#include "oracle/numerics/formats.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::harness {

struct MmaSpSpec {
  const oracle::sparse::SparseForm* form = nullptr;
  oracle::sparse::Variant variant = oracle::sparse::Variant::kOrdered;
  int selector = 0;
  oracle::num::Format a_type = oracle::num::Format::kF16;
  oracle::num::Format b_type = oracle::num::Format::kF16;
  oracle::num::Format cd = oracle::num::Format::kF32;  // f32, f16 or s32
  bool satfinite = false;
};

int CdRegisters(oracle::num::Format cd);  // 2 for f16 (f16x2), else 4

// "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {...}, ..., %e, 0x1;"
std::string MmaSpInstruction(const MmaSpSpec& s);

// The same instruction for CUDA inline asm: operands %0.. in the order d, a, b, c, e (all "r").
std::string MmaSpAsm(const MmaSpSpec& s);

// A complete PTX module with the entry `tcfuzz_mma_sp(a, b, c, e, d, n)` for `target` ("sm_90").
std::string MmaSpModule(const MmaSpSpec& s, const std::string& target);

}  // namespace tcfuzz::harness
