// The mma.sp instructions the device-judged sparse kernels spell (sparse-mma-exact,
// sparse-mma-judged), one per SparseExactInstruction: f16/bf16, k16/k32, both spellings, every
// selector, f32 accumulators. Inline PTX needs the selector as an immediate, hence the switch.
#pragma once

#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_exact_lane.h"

namespace tcfuzz::harness {

// The instructions the kernel spells, by SparseExactInstruction. Accumulators go through "f"
// registers: mma's .f32 operands are f32 registers in PTX.
#define TCFUZZ_SP_K16(SPELL, T, SEL)                                                       \
  asm volatile("mma." SPELL ".sync.aligned.m16n8k16.row.col.f32." T "." T                  \
               ".f32 {%0,%1,%2,%3}, {%4,%5}, "                                             \
               "{%6,%7}, {%8,%9,%10,%11}, %12, " #SEL ";"                                  \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                            \
               : "r"(r.a[0]), "r"(r.a[1]), "r"(r.b[0]), "r"(r.b[1]), "f"(c[0]), "f"(c[1]), \
                 "f"(c[2]), "f"(c[3]), "r"(r.e))
#define TCFUZZ_SP_K32(SPELL, T, SEL)                                                           \
  asm volatile("mma." SPELL ".sync.aligned.m16n8k32.row.col.f32." T "." T                      \
               ".f32 {%0,%1,%2,%3}, "                                                          \
               "{%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, " #SEL ";"             \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                \
               : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]), \
                 "r"(r.b[2]), "r"(r.b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(r.e))
#define TCFUZZ_SP_K16_SELS(SPELL, T, BASE) \
  case BASE + 0:                           \
    TCFUZZ_SP_K16(SPELL, T, 0);            \
    return true;                           \
  case BASE + 8:                           \
    TCFUZZ_SP_K16(SPELL, T, 1);            \
    return true;                           \
  case BASE + 16:                          \
    TCFUZZ_SP_K16(SPELL, T, 2);            \
    return true;                           \
  case BASE + 24:                          \
    TCFUZZ_SP_K16(SPELL, T, 3);            \
    return true;
#define TCFUZZ_SP_K32_SELS(SPELL, T, BASE) \
  case BASE + 0:                           \
    TCFUZZ_SP_K32(SPELL, T, 0);            \
    return true;                           \
  case BASE + 8:                           \
    TCFUZZ_SP_K32(SPELL, T, 1);            \
    return true;

// bf16, k32, ordered, selector packed into one switch code.
__host__ __device__ constexpr int SparseMmaCode(int bf16, int k32, int ordered, int selector) {
  return bf16 | (k32 << 1) | (ordered << 2) | (selector << 3);
}

// D of the lane's registers `r` (C as f32 patterns); false for an instruction it does not spell.
__device__ inline bool Mma(const SparseExactInstruction& in, const SparseExactLane& r, float d[4]) {
  const float c[4] = {__uint_as_float(r.c[0]), __uint_as_float(r.c[1]), __uint_as_float(r.c[2]),
                      __uint_as_float(r.c[3])};
  switch (SparseMmaCode(in.bf16, in.k32, in.ordered, in.selector)) {
    TCFUZZ_SP_K16_SELS("sp", "f16", 0)
    TCFUZZ_SP_K16_SELS("sp", "bf16", 1)
    TCFUZZ_SP_K32_SELS("sp", "f16", 2)
    TCFUZZ_SP_K32_SELS("sp", "bf16", 3)
    TCFUZZ_SP_K16_SELS("sp::ordered_metadata", "f16", 4)
    TCFUZZ_SP_K16_SELS("sp::ordered_metadata", "bf16", 5)
    TCFUZZ_SP_K32_SELS("sp::ordered_metadata", "f16", 6)
    TCFUZZ_SP_K32_SELS("sp::ordered_metadata", "bf16", 7)
    default:
      return false;
  }
}

#undef TCFUZZ_SP_K16
#undef TCFUZZ_SP_K32
#undef TCFUZZ_SP_K16_SELS
#undef TCFUZZ_SP_K32_SELS

}  // namespace tcfuzz::harness
