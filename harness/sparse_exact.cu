#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/ptx_kernel.h"
#include "harness/sparse_exact.h"

namespace tcfuzz::harness {
namespace {

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
__host__ __device__ constexpr int Code(int bf16, int k32, int ordered, int selector) {
  return bf16 | (k32 << 1) | (ordered << 2) | (selector << 3);
}

__device__ bool Mma(const SparseExactInstruction& in, const SparseExactLane& r, float d[4]) {
  const float c[4] = {__uint_as_float(r.c[0]), __uint_as_float(r.c[1]), __uint_as_float(r.c[2]),
                      __uint_as_float(r.c[3])};
  switch (Code(in.bf16, in.k32, in.ordered, in.selector)) {
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

__global__ void SparseExactKernel(const SparseExactTable* tables, uint32_t n_tables, uint64_t key,
                                  uint64_t first, uint64_t stride, uint64_t count,
                                  judged::Slots slots) {
  const uint64_t w = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (w >= count) return;  // whole warps: the block is a multiple of 32 threads
  const uint64_t index = first + w * stride;
  const uint64_t cs = oracle::CaseSeedFromKey(key, index);
  const SparseExactTable& t =
      tables[oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kVariant, 0, 0, n_tables)];
  // The case's values, each drawn once by one lane and shared through shared memory.
  __shared__ SparseExactValues values[judged::kThreads / 32];
  SparseExactValues& v = values[threadIdx.x / 32];
  DrawShare(t, cs, lane, v);
  __syncwarp();
  const SparseExactLane r = BuildLane(t, v, cs, lane);
  float d[4] = {0, 0, 0, 0};
  bool ok = Mma(t.instruction, r, d);
  uint32_t bits[4];
  for (int x = 0; x < 4; ++x) {
    bits[x] = __float_as_uint(d[x]);
    ok = ok && bits[x] == oracle::sparse::drawn::F32BitsOfInt(
                              ExpectedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x]));
  }
  judged::ReportCase(slots, ok, cs, index, lane, bits);
}

// The tables a worker's launches share, uploaded when they change.
struct Tables {
  SparseExactTable* device = nullptr;
  std::size_t bytes = 0;
  std::vector<unsigned char> uploaded;  // what `device` holds
};

}  // namespace

std::string SparseExactUnsupported() {
  return judged::Unsupported(SparseExactKernel, "sparse-mma-exact");
}

oracle::Result<SparseExactResult> RunSparseExact(const SparseExactLaunch& l) {
  using R = oracle::Result<SparseExactResult>;
  if (l.tables.empty() || l.count == 0) return R::Ok({});
  for (const SparseExactTable& t : l.tables) {
    const SparseExactInstruction& in = t.instruction;
    if (in.bf16 > 1 || in.k32 > 1 || in.ordered > 1 || in.selector > (in.k32 ? 1 : 3)) {
      return R::Fail(std::string(kHostError) +
                     "sparse-mma-exact: the kernel spells no such instruction");
    }
  }
  static Tables tables;
  static judged::Buffers buffers("sparse-mma-exact");
  cudaError_t e = cudaSuccess;
  const std::size_t bytes = l.tables.size() * sizeof(SparseExactTable);
  if (tables.uploaded.size() != bytes ||
      std::memcmp(tables.uploaded.data(), l.tables.data(), bytes) != 0) {
    tables.uploaded.clear();  // until the copy below succeeds
    if (tables.bytes < bytes) {
      if (tables.device) cudaFree(tables.device);
      tables.device = nullptr;
      tables.bytes = 0;
      if ((e = cudaMalloc(reinterpret_cast<void**>(&tables.device), bytes)) != cudaSuccess)
        return R::Fail(judged::CudaError("sparse-mma-exact", "tables", e));
      tables.bytes = bytes;
    }
    if ((e = cudaMemcpy(tables.device, l.tables.data(), bytes, cudaMemcpyHostToDevice)) !=
        cudaSuccess)
      return R::Fail(judged::CudaError("sparse-mma-exact", "tables", e));
    tables.uploaded.assign(reinterpret_cast<const unsigned char*>(l.tables.data()),
                           reinterpret_cast<const unsigned char*>(l.tables.data()) + bytes);
  }
  const uint64_t blocks = judged::Blocks(l.count);
  if (blocks == 0)
    return R::Fail(std::string(kHostError) + "sparse-mma-exact: too many cases for one launch");
  const auto slots = buffers.Prepare(l);
  if (!slots.ok()) return R::Fail(slots.error());
  SparseExactKernel<<<static_cast<unsigned>(blocks), judged::kThreads>>>(
      tables.device, static_cast<uint32_t>(l.tables.size()), l.suite_key, l.first, l.stride,
      l.count, slots.value());
  return buffers.Collect(slots.value());
}

}  // namespace tcfuzz::harness
