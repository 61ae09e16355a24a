#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_asm.cuh"

namespace tcfuzz::harness {

struct SparseJudgedLaunch::Kernel {
  using Table = SparseExactTable;
  struct Params {
    oracle::num::fast::Params f16, bf16;
  };
  static constexpr bool kWarpPerCase = true;
  // A case's decoded operands take 6.8 KB of shared memory: four cases per block of 128 threads.
  static constexpr unsigned kThreads = 128;
  static constexpr uint64_t kWords = 128;  // 32 lanes x 4 registers

  static std::span<const Table> Tables(const SparseJudgedLaunch& l) { return l.tables; }
  static Params ParamsOf(const SparseJudgedLaunch& l) { return {l.f16, l.bf16}; }
  static std::size_t SharedBytes(const SparseJudgedLaunch&) { return 0; }

  // Case cs's table is tables[Pick(cs, kVariant)].
  __device__ static bool Judge(const Table* tables, uint32_t n_tables, const Params& p, uint64_t cs,
                               int lane, uint32_t (&bits)[4]) {
    const Table& t =
        tables[oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kVariant, 0, 0, n_tables)];
    // Each lane draws its register elements and nibbles into the warp's shared copy of the case.
    __shared__ SparseJudgedValues values[kThreads / 32];
    SparseJudgedValues& v = values[threadIdx.x / 32];
    const SparseExactLane r = DrawJudgedLane(t, cs, lane, v);
    __syncwarp();
    float d[4] = {0, 0, 0, 0};
    bool ok = Mma(t.instruction, r, d);
    for (int x = 0; x < 4; ++x) {
      bits[x] = __float_as_uint(d[x]);
      ok = ok && bits[x] == ExpectedJudgedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x],
                                            t.instruction.bf16 ? p.bf16 : p.f16);
    }
    return ok;
  }
};

template oracle::Result<JudgedResult> RunJudged(const SparseJudgedLaunch&);
template std::string JudgedUnsupported<SparseJudgedLaunch>();

}  // namespace tcfuzz::harness
