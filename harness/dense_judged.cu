#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

struct DenseJudgedLaunch::Kernel {
  using Table = DenseJudgedTable;
  struct Params {
    oracle::num::fast::Params f16, bf16;
  };
  static constexpr bool kWarpPerCase = true;
  static constexpr unsigned kThreads = judged::kThreads;
  static constexpr uint64_t kWords = 128;  // 32 lanes x 4 registers

  static std::span<const Table> Tables(const DenseJudgedLaunch& l) {
    return l.table ? std::span<const Table>(l.table, 1) : std::span<const Table>();
  }
  static Params ParamsOf(const DenseJudgedLaunch& l) { return {l.f16, l.bf16}; }
  static std::size_t SharedBytes(const DenseJudgedLaunch&) { return 0; }

  __device__ static bool Judge(const Table* table, uint32_t, const Params& p, uint64_t cs, int lane,
                               uint32_t (&bits)[4]) {
    // The case's operands: each lane draws its register elements into the warp's shared copy.
    __shared__ DenseJudgedValues values[kThreads / 32];
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
    for (int x = 0; x < 4; ++x) {
      bits[x] = __float_as_uint(d[x]);
      ok = ok && bits[x] == ExpectedD(v, is_bf16, table->cd_row[lane][x], table->cd_col[lane][x],
                                      is_bf16 ? p.bf16 : p.f16);
    }
    return ok;
  }
};

template oracle::Result<JudgedResult> RunJudged(const DenseJudgedLaunch&);
template std::string JudgedUnsupported<DenseJudgedLaunch>();

}  // namespace tcfuzz::harness
