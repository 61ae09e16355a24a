#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_asm.cuh"

namespace tcfuzz::harness {

struct SparseExactLaunch::Kernel {
  using Table = SparseExactTable;
  struct Params {};
  static constexpr bool kWarpPerCase = true;
  static constexpr unsigned kThreads = judged::kThreads;
  static constexpr uint64_t kWords = 128;  // 32 lanes x 4 registers

  static std::span<const Table> Tables(const SparseExactLaunch& l) { return l.tables; }
  static Params ParamsOf(const SparseExactLaunch&) { return {}; }
  static std::size_t SharedBytes(const SparseExactLaunch&) { return 0; }

  // Case cs's table is tables[Pick(cs, kVariant)].
  __device__ static bool Judge(const Table* tables, uint32_t n_tables, const Params&, uint64_t cs,
                               int lane, uint32_t (&bits)[4]) {
    const Table& t =
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
      bits[x] = __float_as_uint(d[x]);
      ok = ok && bits[x] == oracle::sparse::drawn::F32BitsOfInt(
                                ExpectedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x]));
    }
    return ok;
  }
};

template oracle::Result<JudgedResult> RunJudged(const SparseExactLaunch&);
template std::string JudgedUnsupported<SparseExactLaunch>();

}  // namespace tcfuzz::harness
