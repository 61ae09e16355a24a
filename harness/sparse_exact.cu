#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/ptx_kernel.h"
#include "harness/sparse_exact.h"
#include "harness/sparse_mma_asm.cuh"

namespace tcfuzz::harness {
namespace {

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

}  // namespace

std::string SparseExactUnsupported() {
  return judged::Unsupported(SparseExactKernel, "sparse-mma-exact");
}

oracle::Result<SparseExactResult> RunSparseExact(const SparseExactLaunch& l) {
  using R = oracle::Result<SparseExactResult>;
  if (l.tables.empty() || l.count == 0) return R::Ok({});
  static judged::DeviceTables<SparseExactTable> tables("sparse-mma-exact");
  static judged::Buffers buffers("sparse-mma-exact");
  const auto device_tables = UploadSpelled(tables, l.tables, "sparse-mma-exact");
  if (!device_tables.ok()) return R::Fail(device_tables.error());
  const uint64_t blocks = judged::Blocks(l.count);
  if (blocks == 0)
    return R::Fail(std::string(kHostError) + "sparse-mma-exact: too many cases for one launch");
  const auto slots = buffers.Prepare(l);
  if (!slots.ok()) return R::Fail(slots.error());
  SparseExactKernel<<<static_cast<unsigned>(blocks), judged::kThreads>>>(
      device_tables.value(), static_cast<uint32_t>(l.tables.size()), l.suite_key, l.first, l.stride,
      l.count, slots.value());
  return buffers.Collect(slots.value());
}

}  // namespace tcfuzz::harness
