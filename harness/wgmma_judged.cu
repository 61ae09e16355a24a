#include <cuda_runtime.h>

#include <span>
#include <string>

#include "harness/judged_launch.cuh"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {
namespace {

// wgmma exists on sm_90a alone: other targets of the build get a kernel that only traps (the
// suite runs on compute capability 9.0 only).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCFUZZ_HAS_WGMMA 1
#else
#define TCFUZZ_HAS_WGMMA 0
#endif

// The instruction for each N the kernel spells: N/2 f32 accumulators in, D out (scale-d false
// through the predicate, so what they held does not matter), imm-scale 1, imm-trans TA / TB.
#define TCFUZZ_WGMMA_8(T)                                  \
  asm volatile(                                            \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"          \
      "wgmma.mma_async.sync.aligned.m64n8k16.f32." T "." T \
      " {"                                                 \
      "%0, %1, %2, %3"                                     \
      "}, %4, %5, p, 1, 1, %7, %8;\n}\n"                   \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])     \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

#define TCFUZZ_WGMMA_16(T)                                                                  \
  asm volatile(                                                                             \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"                                          \
      "wgmma.mma_async.sync.aligned.m64n16k16.f32." T "." T                                 \
      " {"                                                                                  \
      "%0, %1, %2, %3, %4, %5, %6, %7"                                                      \
      "}, %8, %9, p, 1, 1, %11, %12;\n}\n"                                                  \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), \
        "+f"(d[7])                                                                          \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

#define TCFUZZ_WGMMA_24(T)                                                                  \
  asm volatile(                                                                             \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %14, 0;\n"                                          \
      "wgmma.mma_async.sync.aligned.m64n24k16.f32." T "." T                                 \
      " {"                                                                                  \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11"                                    \
      "}, %12, %13, p, 1, 1, %15, %16;\n}\n"                                                \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])                        \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

// The wide forms share their first accumulators: 32-register chunks of the asm string and of
// the operand list.
#define TCFUZZ_R0_31                                                                           \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
  "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TCFUZZ_R32_63                                                                          \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, " \
  "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TCFUZZ_R64_127                                                                         \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, " \
  "%82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, " \
  "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, " \
  "%115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define TCFUZZ_D0_31                                                                              \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define TCFUZZ_D32_63                                                                            \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]),     \
      "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), \
      "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), \
      "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
      "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TCFUZZ_D64_127                                                                           \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),     \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), \
      "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), \
      "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), \
      "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),         \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),        \
      "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),        \
      "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),        \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

#define TCFUZZ_WGMMA_64(T)                                                    \
  asm volatile(                                                               \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                            \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32." T "." T " {" TCFUZZ_R0_31 \
      "}, %32, %33, p, 1, 1, %35, %36;\n}\n"                                  \
      : TCFUZZ_D0_31                                                          \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

#define TCFUZZ_WGMMA_128(T)                                                                       \
  asm volatile(                                                                                   \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." T "." T " {" TCFUZZ_R0_31 ", " TCFUZZ_R32_63 \
      "}, %64, %65, p, 1, 1, %67, %68;\n}\n"                                                      \
      : TCFUZZ_D0_31, TCFUZZ_D32_63                                                               \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

#define TCFUZZ_WGMMA_256(T)                                                                       \
  asm volatile(                                                                                   \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                               \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." T "." T " {" TCFUZZ_R0_31 ", " TCFUZZ_R32_63 \
      ", " TCFUZZ_R64_127 "}, %128, %129, p, 1, 1, %131, %132;\n}\n"                              \
      : TCFUZZ_D0_31, TCFUZZ_D32_63, TCFUZZ_D64_127                                               \
      : "l"(da), "l"(db), "r"(0), "n"(TA), "n"(TB))

// Accumulators, then each thread's D into `out` for the judge, accumulator-major (thread t's
// accumulator x at x * 128 + t: a warp's stores and loads hit 32 banks).
template <int N, int BF16, int TA, int TB>
__device__ void RunWgmma(uint64_t da, uint64_t db, uint32_t* out) {
#if TCFUZZ_HAS_WGMMA
  float d[N / 2];
#pragma unroll
  for (int x = 0; x < N / 2; ++x) {
    d[x] = 0.0f;
    asm volatile("" : "+f"(d[x])::"memory");  // defined before the fence, not moved past it
  }
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
// One instruction of width N in the tile's type (the asm string needs the type as a literal).
#define TCFUZZ_WGMMA_TYPED(N) \
  if constexpr (BF16)         \
    TCFUZZ_WGMMA_##N("bf16"); \
  else                        \
    TCFUZZ_WGMMA_##N("f16")
  if constexpr (N == 8)
    TCFUZZ_WGMMA_TYPED(8);
  else if constexpr (N == 16)
    TCFUZZ_WGMMA_TYPED(16);
  else if constexpr (N == 24)
    TCFUZZ_WGMMA_TYPED(24);
  else if constexpr (N == 64)
    TCFUZZ_WGMMA_TYPED(64);
  else if constexpr (N == 128)
    TCFUZZ_WGMMA_TYPED(128);
  else
    TCFUZZ_WGMMA_TYPED(256);
#undef TCFUZZ_WGMMA_TYPED
  asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  __syncthreads();  // every thread's wgmma has read the image: it becomes D's scratch
#pragma unroll
  for (int x = 0; x < N / 2; ++x)
    out[x * kWgmmaJudgedThreads + threadIdx.x] = __float_as_uint(d[x]);
#else
  (void)da, (void)db, (void)out;
  __trap();
#endif
}

constexpr int kBit[] = {0, 1};

}  // namespace

struct WgmmaJudgedLaunch::Kernel {
  using Table = WgmmaJudgedLayout;
  struct Params {
    oracle::num::fast::Params f16, bf16;
    uint32_t image_bytes;
  };
  static constexpr bool kWarpPerCase = false;
  static constexpr unsigned kThreads = kWgmmaJudgedThreads;  // a warpgroup
  static constexpr uint64_t kWords = kWgmmaJudgedThreads * kWgmmaJudgedMaxN / 2;

  static std::span<const Table> Tables(const WgmmaJudgedLaunch& l) { return l.layouts; }
  static Params ParamsOf(const WgmmaJudgedLaunch& l) { return {l.f16, l.bf16, l.image_bytes}; }
  // 1024 bytes of alignment slack, the image, then the case's decoded A and B.
  static std::size_t SharedBytes(const WgmmaJudgedLaunch& l) {
    return 1024 + l.image_bytes + sizeof(WgmmaJudgedValues);
  }
  static uint64_t Words(const Table& layout) { return kWgmmaJudgedThreads * layout.n / 2; }

  __device__ static bool Judge(const Table* layouts, uint32_t n_layouts, const Params& p,
                               uint64_t cs, judged::BlockD& out) {
    extern __shared__ __align__(16) unsigned char shared[];
    const int thread = static_cast<int>(threadIdx.x);
    const WgmmaJudgedLayout l = layouts[oracle::tile::drawn::LayoutIndex(cs, n_layouts)];
    // The image on a 1024-byte boundary of the shared window, so the swizzle patterns hold.
    const uint32_t window = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
    const uint32_t pad = (1024 - window % 1024) % 1024;
    unsigned char* image = shared + pad;
    auto* values = reinterpret_cast<WgmmaJudgedValues*>(shared + 1024 + p.image_bytes);
    for (uint32_t i = threadIdx.x; i < p.image_bytes / 16; i += blockDim.x)
      reinterpret_cast<uint4*>(image)[i] = make_uint4(~0u, ~0u, ~0u, ~0u);  // poison: NaN bytes
    __syncthreads();
    PlaceShare(
        l, cs, thread, p.image_bytes,
        [image](uint64_t byte, uint32_t bits) {
          *reinterpret_cast<uint16_t*>(image + byte) = static_cast<uint16_t>(bits);
        },
        *values);
    // Every thread's generic-proxy writes made visible to the async proxy wgmma reads through,
    // then the barrier, and the fence again after it (as smem-hw's PTX kernels do).
#if TCFUZZ_HAS_WGMMA
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
    __syncthreads();
#if TCFUZZ_HAS_WGMMA
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
    // Descriptors: the start address field moved onto the image's shared address (enc: >> 4).
    const uint64_t base = (window + pad) >> 4;
    const uint64_t da = l.desc_a + base, db = l.desc_b + base;
    auto* d = reinterpret_cast<uint32_t*>(image);
    // The form's instruction: N, type and both transposes are literals of its spelling.
    judged::WithValue<kWgmmaJudgedNs>(l.n, [&]<int N>() {
      judged::WithValue<kBit>(l.bf16, [&]<int BF16>() {
        judged::WithValue<kBit>(l.mn_a, [&]<int TA>() {
          judged::WithValue<kBit>(l.mn_b, [&]<int TB>() { RunWgmma<N, BF16, TA, TB>(da, db, d); });
        });
      });
    });
    out.regs = l.n / 2;
    out.mine = d + thread;  // accumulator x at mine[x * 128]
    bool ok = true;
    for (int x = 0; x < out.regs; ++x) {
      ok = ok && out.mine[x * kWgmmaJudgedThreads] ==
                     ExpectedWgmmaD(l, *values, thread, x, l.bf16 ? p.bf16 : p.f16);
    }
    return ok;
  }
};

template oracle::Result<JudgedResult> RunJudged(const WgmmaJudgedLaunch&);
template std::string JudgedUnsupported<WgmmaJudgedLaunch>();

}  // namespace tcfuzz::harness
