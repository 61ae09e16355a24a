#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {
namespace {

// tcgen05 exists on the arch-specific Blackwell targets alone: other targets of the build get a
// kernel that only traps (the suite runs on compute capability 10.0 only).
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define TCFUZZ_HAS_TCGEN05 1
#else
#define TCFUZZ_HAS_TCGEN05 0
#endif

// Tensor memory columns each case allocates: a power of two of at least 32 holding the largest N.
constexpr uint32_t kTmemColumns = kTcgen05JudgedMaxN;
static_assert(kTmemColumns >= 32 && (kTmemColumns & (kTmemColumns - 1)) == 0);
#if TCFUZZ_HAS_TCGEN05
constexpr int kLdColumns = 8;  // columns per tcgen05.ld (every N is a multiple of 8)

__device__ void IssueMma(const Tcgen05JudgedLayout& l, uint32_t tmem, uint64_t da, uint64_t db,
                         uint32_t bar) {
  // enable-input-d false through the predicate: D = A·B whatever tensor memory held.
  if (l.ws) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n" TCFUZZ_TCGEN05_JUDGED_MMA_WS
                 " [%0], %1, %2, %3, p, %5;\n}\n" ::"r"(tmem),
                 "l"(da), "l"(db), "r"(l.idesc), "r"(0), "l"(l.mask)
                 : "memory");
  } else {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n" TCFUZZ_TCGEN05_JUDGED_MMA
                 " [%0], %1, %2, %3, p;\n}\n" ::"r"(tmem),
                 "l"(da), "l"(db), "r"(l.idesc), "r"(0)
                 : "memory");
  }
  asm volatile(
      "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n" ::"r"(bar)
      : "memory");
}

// Eight columns of this warp's 32 lanes from tensor memory address `at`.
__device__ void Load8(uint32_t at, uint32_t (&r)[kLdColumns]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\n"
      "tcgen05.wait::ld.sync.aligned;\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
        "=r"(r[7])
      : "r"(at)
      : "memory");
}
#endif

}  // namespace

struct Tcgen05JudgedLaunch::Kernel {
  using Table = Tcgen05JudgedLayout;
  struct Params {
    oracle::num::fast::Params f16, bf16;
    uint32_t image_bytes;
  };
  static constexpr bool kWarpPerCase = false;
  static constexpr unsigned kThreads = kTcgen05JudgedThreads;  // four warps
  static constexpr uint64_t kWords = kTcgen05JudgedThreads * kTcgen05JudgedMaxN;

  static std::span<const Table> Tables(const Tcgen05JudgedLaunch& l) { return l.layouts; }
  static Params ParamsOf(const Tcgen05JudgedLaunch& l) { return {l.f16, l.bf16, l.image_bytes}; }
  // 1024 bytes of alignment slack, the image, then the case's decoded A and B. After the
  // instruction the image holds D for the judge, column-major (thread t's column x at
  // x * 128 + t: a warp's stores and loads hit 32 banks).
  static std::size_t SharedBytes(const Tcgen05JudgedLaunch& l) {
    return 1024 + l.image_bytes + sizeof(Tcgen05JudgedValues);
  }
  static uint64_t Words(const Table& layout) { return kTcgen05JudgedThreads * layout.n; }

  __device__ static bool Judge(const Table* layouts, uint32_t n_layouts, const Params& p,
                               uint64_t cs, judged::BlockD& out) {
#if TCFUZZ_HAS_TCGEN05
    extern __shared__ __align__(16) unsigned char shared[];
    __shared__ __align__(8) uint64_t bar;
    __shared__ uint32_t tmem_base;
    const int thread = static_cast<int>(threadIdx.x), warp = thread / 32;
    const Tcgen05JudgedLayout& l = layouts[oracle::tile::drawn::LayoutIndex(cs, n_layouts)];
    // The image on a 1024-byte boundary of the shared window, so the swizzle patterns hold.
    const uint32_t window = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
    const uint32_t pad = (1024 - window % 1024) % 1024;
    unsigned char* image = shared + pad;
    auto* values = reinterpret_cast<Tcgen05JudgedValues*>(shared + 1024 + p.image_bytes);
    const uint32_t bar_at = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    if (warp == 0) {
      asm volatile(
          "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
          "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::"r"(
              static_cast<uint32_t>(__cvta_generic_to_shared(&tmem_base))),
          "n"(kTmemColumns)
          : "memory");
    }
    if (thread == 0)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar_at) : "memory");
    for (uint32_t i = threadIdx.x; i < p.image_bytes / 16; i += blockDim.x)
      reinterpret_cast<uint4*>(image)[i] = make_uint4(~0u, ~0u, ~0u, ~0u);  // poison: NaN bytes
    __syncthreads();
    PlaceTcgen05Share(
        l, cs, thread, p.image_bytes,
        [image](uint64_t byte, uint32_t bits) {
          *reinterpret_cast<uint16_t*>(image + byte) = static_cast<uint16_t>(bits);
        },
        *values);
    // Every thread's generic-proxy writes (and the mbarrier's init) made visible to the async proxy
    // the instruction reads through, then the barrier, after which the allocation is everyone's.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
    const uint32_t tmem = tmem_base;
    if (thread == 0) {
      // Descriptors: the start address field moved onto the image's shared address (enc: >> 4).
      const uint64_t base = (window + pad) >> 4;
      IssueMma(l, tmem, l.desc_a + base, l.desc_b + base, bar_at);
    }
    for (uint32_t done = 0; !done;) {
      asm volatile(
          "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
          "selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(bar_at)
          : "memory");
    }
    __syncwarp();  // threads leave the wait apart; tcgen05.ld is .sync.aligned
    asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
    // The instruction has read the image (its completion is what the mbarrier saw): it becomes D's
    // scratch. Warp w reads lanes 32w.. (the lane in the address's upper half).
    auto* d = reinterpret_cast<uint32_t*>(image);
    const uint32_t lanes = tmem + (static_cast<uint32_t>(warp * 32) << 16);
    for (int c = 0; c < l.n; c += kLdColumns) {
      uint32_t r[kLdColumns];
      Load8(lanes + static_cast<uint32_t>(c), r);
#pragma unroll
      for (int x = 0; x < kLdColumns; ++x) d[(c + x) * kTcgen05JudgedThreads + thread] = r[x];
    }
    asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
    __syncthreads();
    if (warp == 0) {
      asm volatile(
          "tcgen05.fence::after_thread_sync;\n"
          "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n" ::"r"(tmem),
          "n"(kTmemColumns)
          : "memory");
    }
    out.mine = d + thread;  // column x at mine[x * 128]
    out.regs = l.n;
    const oracle::num::fast::Params& row = l.bf16 ? p.bf16 : p.f16;
    bool ok = true;
    for (int x = 0; x < l.n; ++x)
      ok =
          ok && out.mine[x * kTcgen05JudgedThreads] == ExpectedTcgen05D(l, *values, thread, x, row);
    return ok;
#else
    (void)layouts, (void)n_layouts, (void)p, (void)cs, (void)out;
    __trap();
    return false;
#endif
  }
};

template oracle::Result<JudgedResult> RunJudged(const Tcgen05JudgedLaunch&);
template std::string JudgedUnsupported<Tcgen05JudgedLaunch>();

}  // namespace tcfuzz::harness
