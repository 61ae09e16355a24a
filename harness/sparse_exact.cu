#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/ptx_kernel.h"
#include "harness/sparse_exact.h"

namespace tcfuzz::harness {
namespace {

struct Counters {
  unsigned long long failed;
  unsigned long long kept_failures;  // slots [0, keep_mismatches)
  unsigned long long kept_samples;   // slots [keep_mismatches, keep_mismatches + sample_slots)
};

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

constexpr unsigned kThreads = 256;  // 8 cases per block

__global__ void SparseExactKernel(const SparseExactTable* tables, uint32_t n_tables, uint64_t key,
                                  uint64_t first, uint64_t stride, uint64_t count,
                                  uint64_t sample_every, uint32_t keep_mismatches,
                                  uint64_t sample_slots, Counters* counters,
                                  unsigned long long* failed, unsigned long long* kept_index,
                                  uint32_t* kept_regs) {
  const uint64_t w = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (w >= count) return;  // whole warps: the block is a multiple of 32 threads
  const uint64_t index = first + w * stride;
  const uint64_t cs = oracle::CaseSeedFromKey(key, index);
  const SparseExactTable& t =
      tables[oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kVariant, 0, 0, n_tables)];
  // The case's values, each drawn once by one lane and shared through shared memory.
  __shared__ SparseExactValues values[kThreads / 32];
  SparseExactValues& v = values[threadIdx.x / 32];
  DrawShare(t, cs, lane, v);
  __syncwarp();
  const SparseExactLane r = BuildLane(t, v, cs, lane);
  float d[4] = {0, 0, 0, 0};
  bool ok = Mma(t.instruction, r, d);
  for (int x = 0; x < 4; ++x) {
    ok = ok && __float_as_uint(d[x]) == oracle::sparse::drawn::F32BitsOfInt(
                                            ExpectedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x]));
  }
  const bool bad = __any_sync(0xFFFFFFFFu, !ok);
  // Sampled by the case seed, a hash: one case in sample_every whatever the shard's stride.
  const bool sampled = sample_every != 0 && cs % sample_every == 0;
  unsigned long long slot = ~0ull;
  if (lane == 0) {
    if (bad) {
      failed[atomicAdd(&counters->failed, 1ull)] = index;
      const unsigned long long nth = atomicAdd(&counters->kept_failures, 1ull);
      if (nth < keep_mismatches) slot = nth;
    } else if (sampled) {
      const unsigned long long nth = atomicAdd(&counters->kept_samples, 1ull);
      if (nth < sample_slots)
        slot = keep_mismatches + nth;  // more samples than slots: the rest are dropped
    }
  }
  slot = __shfl_sync(0xFFFFFFFFu, slot, 0);
  if (slot != ~0ull) {
    if (lane == 0) kept_index[slot] = index;
    for (int x = 0; x < 4; ++x)
      kept_regs[(slot * 32 + static_cast<uint64_t>(lane)) * 4 + x] = __float_as_uint(d[x]);
  }
}

// Device buffers kept for the life of the worker (a launch per case must not pay cudaMalloc).
struct Buffers {
  SparseExactTable* tables = nullptr;
  std::size_t table_bytes = 0;
  std::vector<unsigned char> uploaded;  // what `tables` holds
  Counters* counters = nullptr;
  unsigned long long* failed = nullptr;
  uint64_t failed_capacity = 0;
  unsigned long long* kept_index = nullptr;
  uint32_t* kept_regs = nullptr;
  uint64_t kept_capacity = 0;
};

std::string CudaError(const char* what, cudaError_t e) {
  return std::string("CUDA error in the sparse-mma-exact kernel (") + what +
         "): " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

template <class T>
cudaError_t Grow(T*& p, uint64_t& capacity, uint64_t need, std::size_t bytes_each) {
  if (capacity >= need) return cudaSuccess;
  if (p) cudaFree(p);
  p = nullptr;
  capacity = 0;
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&p), need * bytes_each);
  if (e == cudaSuccess) capacity = need;
  return e;
}

}  // namespace

std::string SparseExactUnsupported() {
  cudaFuncAttributes a{};
  const cudaError_t e = cudaFuncGetAttributes(&a, SparseExactKernel);
  if (e == cudaSuccess) return {};
  cudaGetLastError();  // not sticky: clear it
  return std::string("no sparse-mma-exact kernel for this device (") + cudaGetErrorName(e) + ")";
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
  static Buffers b;
  cudaError_t e = cudaSuccess;
  const std::size_t bytes = l.tables.size() * sizeof(SparseExactTable);
  if (b.uploaded.size() != bytes || std::memcmp(b.uploaded.data(), l.tables.data(), bytes) != 0) {
    b.uploaded.clear();  // until the copy below succeeds
    if (b.table_bytes < bytes) {
      if (b.tables) cudaFree(b.tables);
      b.tables = nullptr;
      b.table_bytes = 0;
      if ((e = cudaMalloc(reinterpret_cast<void**>(&b.tables), bytes)) != cudaSuccess)
        return R::Fail(CudaError("tables", e));
      b.table_bytes = bytes;
    }
    if ((e = cudaMemcpy(b.tables, l.tables.data(), bytes, cudaMemcpyHostToDevice)) != cudaSuccess)
      return R::Fail(CudaError("tables", e));
    b.uploaded.assign(reinterpret_cast<const unsigned char*>(l.tables.data()),
                      reinterpret_cast<const unsigned char*>(l.tables.data()) + bytes);
  }
  if (!b.counters &&
      (e = cudaMalloc(reinterpret_cast<void**>(&b.counters), sizeof(Counters))) != cudaSuccess) {
    return R::Fail(CudaError("counters", e));
  }
  // Samples are drawn by hash: twice the expected number of slots, and 64 more, nearly always
  // hold them all (a dropped sample is only a case the host does not judge twice).
  const uint64_t sample_slots = l.sample_every ? 2 * (l.count / l.sample_every) + 64 : 0;
  const uint64_t kept_capacity = l.keep_mismatches + sample_slots;
  uint64_t index_capacity = b.kept_capacity, regs_capacity = b.kept_capacity;
  b.kept_capacity = 0;  // until both buffers hold it
  if ((e = Grow(b.failed, b.failed_capacity, l.count, sizeof(unsigned long long))) != cudaSuccess ||
      (e = Grow(b.kept_index, index_capacity, kept_capacity, sizeof(unsigned long long))) !=
          cudaSuccess ||
      (e = Grow(b.kept_regs, regs_capacity, kept_capacity, 32 * 4 * sizeof(uint32_t))) !=
          cudaSuccess) {
    return R::Fail(CudaError("buffers", e));
  }
  b.kept_capacity = std::min(index_capacity, regs_capacity);
  if ((e = cudaMemset(b.counters, 0, sizeof(Counters))) != cudaSuccess)
    return R::Fail(CudaError("counters", e));
  const uint64_t blocks = (l.count * 32 + kThreads - 1) / kThreads;
  if (blocks > 0x7FFFFFFFull)
    return R::Fail(std::string(kHostError) + "sparse-mma-exact: too many cases for one launch");
  SparseExactKernel<<<static_cast<unsigned>(blocks), kThreads>>>(
      b.tables, static_cast<uint32_t>(l.tables.size()), l.suite_key, l.first, l.stride, l.count,
      l.sample_every, l.keep_mismatches, sample_slots, b.counters, b.failed, b.kept_index,
      b.kept_regs);
  if ((e = cudaGetLastError()) != cudaSuccess) return R::Fail(CudaError("launch", e));
  Counters c{};
  if ((e = cudaMemcpy(&c, b.counters, sizeof c, cudaMemcpyDeviceToHost)) != cudaSuccess)
    return R::Fail(CudaError("run", e));
  SparseExactResult out;
  out.failed.resize(c.failed);
  if (c.failed && (e = cudaMemcpy(out.failed.data(), b.failed, c.failed * sizeof(uint64_t),
                                  cudaMemcpyDeviceToHost)) != cudaSuccess) {
    return R::Fail(CudaError("results", e));
  }
  // The slots in use: failures from 0, samples from keep_mismatches; each range copied alone.
  const uint64_t ranges[2][2] = {
      {0, std::min<uint64_t>(c.kept_failures, l.keep_mismatches)},
      {l.keep_mismatches, std::min<uint64_t>(c.kept_samples, sample_slots)}};
  for (const auto& [from, n] : ranges) {
    if (n == 0) continue;
    std::vector<unsigned long long> index(n);
    std::vector<uint32_t> regs(n * 32 * 4);
    if ((e = cudaMemcpy(index.data(), b.kept_index + from, n * sizeof(uint64_t),
                        cudaMemcpyDeviceToHost)) != cudaSuccess ||
        (e = cudaMemcpy(regs.data(), b.kept_regs + from * 128, regs.size() * sizeof(uint32_t),
                        cudaMemcpyDeviceToHost)) != cudaSuccess) {
      return R::Fail(CudaError("results", e));
    }
    for (uint64_t s = 0; s < n; ++s) {
      out.kept.push_back(
          {index[s],
           std::vector<uint32_t>(regs.begin() + static_cast<std::ptrdiff_t>(s * 128),
                                 regs.begin() + static_cast<std::ptrdiff_t>((s + 1) * 128))});
    }
  }
  return R::Ok(std::move(out));
}

}  // namespace tcfuzz::harness
