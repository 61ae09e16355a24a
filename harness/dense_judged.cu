#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "harness/dense_judged.h"
#include "harness/judged_launch.cuh"
#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {
namespace {

__global__ void DenseJudgedKernel(const DenseJudgedTable* table, oracle::num::fast::Params f16,
                                  oracle::num::fast::Params bf16, uint64_t key, uint64_t first,
                                  uint64_t stride, uint64_t count, judged::Slots slots) {
  const uint64_t w = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (w >= count) return;  // whole warps: the block is a multiple of 32 threads
  const uint64_t index = first + w * stride;
  const uint64_t cs = oracle::CaseSeedFromKey(key, index);
  // The case's operands: each lane draws its register elements into the warp's shared copy.
  __shared__ DenseJudgedValues values[judged::kThreads / 32];
  DenseJudgedValues& v = values[threadIdx.x / 32];
  const DenseJudgedLane r = DrawLane(*table, cs, lane, v);
  __syncwarp();
  const uint32_t is_bf16 = oracle::mma::drawn::Bf16(cs);
  const float c[4] = {__uint_as_float(r.c[0]), __uint_as_float(r.c[1]), __uint_as_float(r.c[2]),
                      __uint_as_float(r.c[3])};
  float d[4];
  if (is_bf16) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]), "f"(c[0]),
          "f"(c[1]), "f"(c[2]), "f"(c[3]));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]), "f"(c[0]),
          "f"(c[1]), "f"(c[2]), "f"(c[3]));
  }
  bool ok = true;
  uint32_t bits[4];
  for (int x = 0; x < 4; ++x) {
    bits[x] = __float_as_uint(d[x]);
    ok = ok && bits[x] == ExpectedD(v, is_bf16, table->cd_row[lane][x], table->cd_col[lane][x],
                                    is_bf16 ? bf16 : f16);
  }
  judged::ReportCase(slots, ok, cs, index, lane, bits);
}

}  // namespace

std::string DenseJudgedUnsupported() {
  return judged::Unsupported(DenseJudgedKernel, "dense-mma-judged");
}

oracle::Result<JudgedResult> RunDenseJudged(const DenseJudgedLaunch& l) {
  using R = oracle::Result<JudgedResult>;
  if (l.table == nullptr || l.count == 0) return R::Ok({});
  static judged::DeviceTables<DenseJudgedTable> table("dense-mma-judged");
  static judged::Buffers buffers("dense-mma-judged");
  const auto device_table = table.Upload(std::span<const DenseJudgedTable>(l.table, 1));
  if (!device_table.ok()) return R::Fail(device_table.error());
  const uint64_t blocks = judged::Blocks(l.count);
  if (blocks == 0)
    return R::Fail(std::string(kHostError) + "dense-mma-judged: too many cases for one launch");
  const auto slots = buffers.Prepare(l);
  if (!slots.ok()) return R::Fail(slots.error());
  DenseJudgedKernel<<<static_cast<unsigned>(blocks), judged::kThreads>>>(
      device_table.value(), l.f16, l.bf16, l.suite_key, l.first, l.stride, l.count, slots.value());
  return buffers.Collect(slots.value());
}

}  // namespace tcfuzz::harness
