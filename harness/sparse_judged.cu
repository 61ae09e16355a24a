#include <cuda_runtime.h>

#include <string>

#include "harness/judged_launch.cuh"
#include "harness/ptx_kernel.h"
#include "harness/sparse_judged.h"
#include "harness/sparse_mma_asm.cuh"

namespace tcfuzz::harness {
namespace {

// A case's decoded operands take 6.8 KB of shared memory: four cases per block of 128 threads.
constexpr unsigned kThreads = 128;

__global__ void SparseJudgedKernel(const SparseExactTable* tables, uint32_t n_tables,
                                   oracle::num::fast::Params f16, oracle::num::fast::Params bf16,
                                   uint64_t key, uint64_t first, uint64_t stride, uint64_t count,
                                   judged::Slots slots) {
  const uint64_t w = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (w >= count) return;  // whole warps: the block is a multiple of 32 threads
  const uint64_t index = first + w * stride;
  const uint64_t cs = oracle::CaseSeedFromKey(key, index);
  const SparseExactTable& t =
      tables[oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kVariant, 0, 0, n_tables)];
  // Each lane draws its register elements and nibbles into the warp's shared copy of the case.
  __shared__ SparseJudgedValues values[kThreads / 32];
  SparseJudgedValues& v = values[threadIdx.x / 32];
  const SparseExactLane r = DrawJudgedLane(t, cs, lane, v);
  __syncwarp();
  float d[4] = {0, 0, 0, 0};
  bool ok = Mma(t.instruction, r, d);
  uint32_t bits[4];
  for (int x = 0; x < 4; ++x) {
    bits[x] = __float_as_uint(d[x]);
    ok = ok && bits[x] == ExpectedJudgedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x],
                                          t.instruction.bf16 ? bf16 : f16);
  }
  judged::ReportCase(slots, ok, cs, index, lane, bits);
}

}  // namespace

std::string SparseJudgedUnsupported() {
  return judged::Unsupported(SparseJudgedKernel, "sparse-mma-judged");
}

oracle::Result<JudgedResult> RunSparseJudged(const SparseJudgedLaunch& l) {
  using R = oracle::Result<JudgedResult>;
  if (l.tables.empty() || l.count == 0) return R::Ok({});
  static judged::DeviceTables<SparseExactTable> tables("sparse-mma-judged");
  static judged::Buffers buffers("sparse-mma-judged");
  const auto device_tables = UploadSpelled(tables, l.tables, "sparse-mma-judged");
  if (!device_tables.ok()) return R::Fail(device_tables.error());
  const uint64_t blocks = judged::Blocks(l.count, kThreads);
  if (blocks == 0)
    return R::Fail(std::string(kHostError) + "sparse-mma-judged: too many cases for one launch");
  const auto slots = buffers.Prepare(l);
  if (!slots.ok()) return R::Fail(slots.error());
  SparseJudgedKernel<<<static_cast<unsigned>(blocks), kThreads>>>(
      device_tables.value(), static_cast<uint32_t>(l.tables.size()), l.f16, l.bf16, l.suite_key,
      l.first, l.stride, l.count, slots.value());
  return buffers.Collect(slots.value());
}

}  // namespace tcfuzz::harness
