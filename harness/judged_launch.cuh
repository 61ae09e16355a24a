// The CUDA half of harness/judged_launch.h, written once for every device-judged suite: the one
// kernel (which case a warp or block runs, the suite's Judge step, the report of its verdict and
// D), the device buffers a worker keeps for its life (a launch per batch must not pay cudaMalloc)
// with the copy of what came back, and RunJudged / JudgedUnsupported. A suite's .cu defines its
// Launch::Kernel traits:
//   using Table;                    what every case picks its variant or layout from
//   struct Params;                  what else the kernel takes (numerics rows, image size)
//   kWarpPerCase, kThreads, kWords  one warp or one block a case; threads a block; D words a slot
//   Tables(l), ParamsOf(l)          the launch's tables and params
//   SharedBytes(l)                  dynamic shared memory (0 for none)
//   Words(table)                    (a block a case) the D words a case of that layout keeps
//   __device__ Judge(...)           draw, run the instruction, compare with the device model
// and instantiates RunJudged and JudgedUnsupported for its launch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness/backend.h"
#include "harness/judged_launch.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/counter_hash.h"
#include "oracle/core/result.h"
#include "oracle/tile/device_drawn_tile.h"

namespace tcfuzz::harness::judged {

struct Counters {
  unsigned long long failed;
  unsigned long long kept_failures;  // slots [0, keep_mismatches)
  unsigned long long kept_samples;   // slots [keep_mismatches, keep_mismatches + sample_slots)
};

// Calls f.template operator()<V>() for the V of kValues equal to v, nothing when none is: a
// runtime choice made a template argument, for instructions whose shape must be spelled literally.
// (The array itself is host memory: only the constants made of it reach the device.)
template <const auto& kValues, class F>
__device__ void WithValue(int v, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((v == std::integral_constant<int, kValues[I]>::value
          ? f.template operator()<std::integral_constant<int, kValues[I]>::value>()
          : void()),
     ...);
  }
  (std::make_index_sequence<std::size(kValues)>{});
}

// Where a kernel reports (device pointers) and what it keeps.
struct Slots {
  Counters* counters = nullptr;
  unsigned long long* failed = nullptr;
  unsigned long long* kept_index = nullptr;
  uint32_t* kept_regs = nullptr;  // `words` per slot
  uint64_t sample_every = 0;
  uint32_t keep_mismatches = 0;
  uint64_t sample_slots = 0;
  uint64_t words = 128;  // a case's D registers: 32 lanes x 4 (mma), 128 threads x N/2 (wgmma)
};

// The slot a case's D goes to, or ~0 (called by one thread of the case): a failing case counts
// and keeps its D while failure slots last; a passing one keeps it when sampled, by its case seed
// (a hash: one case in sample_every whatever the shard's stride).
__device__ inline unsigned long long PickSlot(const Slots& s, bool bad, uint64_t case_seed,
                                              uint64_t index) {
  if (bad) {
    s.failed[atomicAdd(&s.counters->failed, 1ull)] = index;
    const unsigned long long nth = atomicAdd(&s.counters->kept_failures, 1ull);
    return nth < s.keep_mismatches ? nth : ~0ull;
  }
  if (s.sample_every == 0 || case_seed % s.sample_every != 0) return ~0ull;
  const unsigned long long nth = atomicAdd(&s.counters->kept_samples, 1ull);
  return nth < s.sample_slots ? s.keep_mismatches + nth
                              : ~0ull;  // more samples than slots: the rest are dropped
}

// Called by every lane of the case's warp with its verdict and its four D registers.
__device__ inline void ReportCase(const Slots& s, bool ok, uint64_t case_seed, uint64_t index,
                                  int lane, const uint32_t d[4]) {
  const bool bad = __any_sync(0xFFFFFFFFu, !ok);
  unsigned long long slot = lane == 0 ? PickSlot(s, bad, case_seed, index) : ~0ull;
  slot = __shfl_sync(0xFFFFFFFFu, slot, 0);
  if (slot != ~0ull) {
    if (lane == 0) s.kept_index[slot] = index;
    for (int x = 0; x < 4; ++x)
      s.kept_regs[slot * s.words + static_cast<uint64_t>(lane) * 4 + x] = d[x];
  }
}

// Called by every thread of a block that runs one case, with its verdict and its `regs` D
// registers, register x at d[x * stride] (thread-major in the slot: thread t's register x at
// t * regs + x).
__device__ inline void ReportBlockCase(const Slots& s, bool ok, uint64_t case_seed, uint64_t index,
                                       const uint32_t* d, int regs, int stride) {
  __shared__ unsigned long long block_slot;
  const bool bad = __syncthreads_or(!ok) != 0;
  if (threadIdx.x == 0) block_slot = PickSlot(s, bad, case_seed, index);
  __syncthreads();
  const unsigned long long slot = block_slot;
  if (slot == ~0ull) return;
  if (threadIdx.x == 0) s.kept_index[slot] = index;
  for (int x = 0; x < regs; ++x)
    s.kept_regs[slot * s.words + static_cast<uint64_t>(threadIdx.x) * regs + x] = d[x * stride];
}

// Why this device cannot run `kernel` (no image of it for the device's architecture), or empty.
template <class Kernel>
std::string Unsupported(Kernel kernel, const char* suite) {
  cudaFuncAttributes a{};
  const cudaError_t e = cudaFuncGetAttributes(&a, kernel);
  if (e == cudaSuccess) return {};
  cudaGetLastError();  // not sticky: clear it
  return std::string("no ") + suite + " kernel for this device (" + cudaGetErrorName(e) + ")";
}

inline std::string CudaError(const char* suite, const char* what, cudaError_t e) {
  return std::string("CUDA error in the ") + suite + " kernel (" + what +
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

// One suite's buffers, kept for the life of the worker.
class Buffers {
 public:
  // `words`: the words of D a kept case sends back (Slots::words).
  explicit Buffers(const char* suite, uint64_t words = 128) : suite_(suite), words_(words) {}

  // Sized for `r`, counters zeroed.
  oracle::Result<Slots> Prepare(const JudgedRange& r) {
    using R = oracle::Result<Slots>;
    cudaError_t e = cudaSuccess;
    if (!counters_ &&
        (e = cudaMalloc(reinterpret_cast<void**>(&counters_), sizeof(Counters))) != cudaSuccess) {
      return R::Fail(CudaError(suite_, "counters", e));
    }
    // Samples are drawn by hash: twice the expected number of slots, and 64 more, nearly always
    // hold them all (a dropped sample is only a case the host does not judge twice).
    const uint64_t sample_slots = r.sample_every ? 2 * (r.count / r.sample_every) + 64 : 0;
    const uint64_t kept_capacity = r.keep_mismatches + sample_slots;
    uint64_t index_capacity = kept_capacity_, regs_capacity = kept_capacity_;
    kept_capacity_ = 0;  // until both buffers hold it
    if ((e = Grow(failed_, failed_capacity_, r.count, sizeof(unsigned long long))) != cudaSuccess ||
        (e = Grow(kept_index_, index_capacity, kept_capacity, sizeof(unsigned long long))) !=
            cudaSuccess ||
        (e = Grow(kept_regs_, regs_capacity, kept_capacity, words_ * sizeof(uint32_t))) !=
            cudaSuccess) {
      return R::Fail(CudaError(suite_, "buffers", e));
    }
    kept_capacity_ = std::min(index_capacity, regs_capacity);
    if ((e = cudaMemset(counters_, 0, sizeof(Counters))) != cudaSuccess)
      return R::Fail(CudaError(suite_, "counters", e));
    return R::Ok(Slots{counters_, failed_, kept_index_, kept_regs_, r.sample_every,
                       r.keep_mismatches, sample_slots, words_});
  }

  // After the launch: the failing indices and the kept D's.
  oracle::Result<JudgedResult> Collect(const Slots& s) {
    using R = oracle::Result<JudgedResult>;
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return R::Fail(CudaError(suite_, "launch", e));
    Counters c{};
    if ((e = cudaMemcpy(&c, counters_, sizeof c, cudaMemcpyDeviceToHost)) != cudaSuccess)
      return R::Fail(CudaError(suite_, "run", e));
    JudgedResult out;
    out.failed.resize(c.failed);
    if (c.failed && (e = cudaMemcpy(out.failed.data(), failed_, c.failed * sizeof(uint64_t),
                                    cudaMemcpyDeviceToHost)) != cudaSuccess) {
      return R::Fail(CudaError(suite_, "results", e));
    }
    // The slots in use: failures from 0, samples from keep_mismatches; each range copied alone.
    const uint64_t ranges[2][2] = {
        {0, std::min<uint64_t>(c.kept_failures, s.keep_mismatches)},
        {s.keep_mismatches, std::min<uint64_t>(c.kept_samples, s.sample_slots)}};
    for (const auto& [from, n] : ranges) {
      if (n == 0) continue;
      std::vector<unsigned long long> index(n);
      std::vector<uint32_t> regs(n * words_);
      if ((e = cudaMemcpy(index.data(), kept_index_ + from, n * sizeof(uint64_t),
                          cudaMemcpyDeviceToHost)) != cudaSuccess ||
          (e = cudaMemcpy(regs.data(), kept_regs_ + from * words_, regs.size() * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost)) != cudaSuccess) {
        return R::Fail(CudaError(suite_, "results", e));
      }
      for (uint64_t k = 0; k < n; ++k) {
        out.kept.push_back(
            {index[k],
             std::vector<uint32_t>(regs.begin() + static_cast<std::ptrdiff_t>(k * words_),
                                   regs.begin() + static_cast<std::ptrdiff_t>((k + 1) * words_))});
      }
    }
    return R::Ok(std::move(out));
  }

 private:
  const char* suite_;
  uint64_t words_;
  Counters* counters_ = nullptr;
  unsigned long long* failed_ = nullptr;
  uint64_t failed_capacity_ = 0;
  unsigned long long* kept_index_ = nullptr;
  uint32_t* kept_regs_ = nullptr;
  uint64_t kept_capacity_ = 0;
};

// The tables a suite's launches share (where register elements sit, the instruction variants),
// copied to the device when they change and kept for the life of the worker.
template <class T>
class DeviceTables {
 public:
  explicit DeviceTables(const char* suite) : suite_(suite) {}

  oracle::Result<const T*> Upload(std::span<const T> host) {
    using R = oracle::Result<const T*>;
    const std::size_t bytes = host.size_bytes();
    const auto* from = reinterpret_cast<const unsigned char*>(host.data());
    if (uploaded_.size() == bytes && std::memcmp(uploaded_.data(), from, bytes) == 0)
      return R::Ok(device_);
    uploaded_.clear();  // until the copy below succeeds
    cudaError_t e = cudaSuccess;
    if (capacity_ < bytes) {
      if (device_) cudaFree(device_);
      device_ = nullptr;
      capacity_ = 0;
      if ((e = cudaMalloc(reinterpret_cast<void**>(&device_), bytes)) != cudaSuccess)
        return R::Fail(CudaError(suite_, "tables", e));
      capacity_ = bytes;
    }
    if ((e = cudaMemcpy(device_, host.data(), bytes, cudaMemcpyHostToDevice)) != cudaSuccess)
      return R::Fail(CudaError(suite_, "tables", e));
    uploaded_.assign(from, from + bytes);
    return R::Ok(device_);
  }

 private:
  const char* suite_;
  T* device_ = nullptr;
  std::size_t capacity_ = 0;
  std::vector<unsigned char> uploaded_;  // what device_ holds
};

// A descriptor-tile suite's slot holds its widest layout's D; a kept case keeps what its own
// layout's D holds (`words(layout)`), the layout picked by its case seed as the kernel picked it.
template <class Layout, class Words>
void TrimToLayouts(JudgedResult& r, uint64_t suite_key, std::span<const Layout> layouts,
                   const Words& words) {
  for (JudgedCase& k : r.kept) {
    const uint64_t cs = oracle::CaseSeedFromKey(suite_key, k.index);
    const Layout& l =
        layouts[oracle::tile::drawn::LayoutIndex(cs, static_cast<uint32_t>(layouts.size()))];
    k.d_regs.resize(static_cast<std::size_t>(words(l)));
    k.d_regs.shrink_to_fit();
  }
}

// Blocks of 256 threads (8 cases) unless a kernel's shared memory asks for fewer. The launch's grid
// for `count` cases, or 0 when too many.
inline constexpr unsigned kThreads = 256;
inline uint64_t Blocks(uint64_t count, unsigned threads = kThreads) {
  const uint64_t blocks = (count * 32 + threads - 1) / threads;
  return blocks > 0x7FFFFFFFull ? 0 : blocks;
}

// What a block's case hands the report: its thread's D registers, register x at mine[x * kThreads].
struct BlockD {
  const uint32_t* mine = nullptr;
  int regs = 0;
};

// The one kernel. A warp a case: lane l's four D registers; a block a case: BlockD.
template <class K>
__global__ void __launch_bounds__(K::kThreads)
    JudgedKernel(const typename K::Table* tables, uint32_t n_tables, typename K::Params p,
                 uint64_t key, uint64_t first, uint64_t stride, uint64_t count, Slots slots) {
  if constexpr (K::kWarpPerCase) {
    const uint64_t w = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (w >= count) return;  // whole warps: the block is a multiple of 32 threads
    const int lane = static_cast<int>(threadIdx.x % 32);
    const uint64_t index = first + w * stride;
    const uint64_t cs = oracle::CaseSeedFromKey(key, index);
    uint32_t d[4] = {0, 0, 0, 0};
    const bool ok = K::Judge(tables, n_tables, p, cs, lane, d);
    ReportCase(slots, ok, cs, index, lane, d);
  } else {
    const uint64_t w = blockIdx.x;
    if (w >= count) return;  // the whole block
    const uint64_t index = first + w * stride;
    const uint64_t cs = oracle::CaseSeedFromKey(key, index);
    BlockD d;
    const bool ok = K::Judge(tables, n_tables, p, cs, d);
    ReportBlockCase(slots, ok, cs, index, d.mine, d.regs, static_cast<int>(K::kThreads));
  }
}

}  // namespace tcfuzz::harness::judged

namespace tcfuzz::harness {

template <class Launch>
std::string JudgedUnsupported() {
  if (!BackendIsCuda()) return {};  // the host path runs every launch JudgedCheck accepts
  return judged::Unsupported(judged::JudgedKernel<typename Launch::Kernel>, Launch::kSuite);
}

template <class Launch>
oracle::Result<JudgedResult> RunJudged(const Launch& l) {
  using K = typename Launch::Kernel;
  using R = oracle::Result<JudgedResult>;
  if (!BackendIsCuda()) return RunJudgedOnHost(l);
  const std::span<const typename K::Table> host = K::Tables(l);
  if (l.count == 0) return R::Ok({});  // cases with no table JudgedCheck refuses, as on the host
  const auto host_error = [](const std::string& why) {
    return R::Fail(std::string(kHostError) + Launch::kSuite + ": " + why);
  };
  if (const std::string why = JudgedCheck(l); !why.empty()) return host_error(why);
  static judged::DeviceTables<typename K::Table> tables(Launch::kSuite);
  static judged::Buffers buffers(Launch::kSuite, K::kWords);
  const auto device_tables = tables.Upload(host);
  if (!device_tables.ok()) return R::Fail(device_tables.error());
  const uint64_t blocks = K::kWarpPerCase           ? judged::Blocks(l.count, K::kThreads)
                          : l.count > 0x7FFFFFFFull ? 0
                                                    : l.count;
  if (blocks == 0) return host_error("too many cases for one launch");
  const std::size_t smem = K::SharedBytes(l);
  if (smem > 0) {
    const cudaError_t e =
        cudaFuncSetAttribute(judged::JudgedKernel<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(smem));
    if (e != cudaSuccess) return R::Fail(judged::CudaError(Launch::kSuite, "shared memory", e));
  }
  const auto slots = buffers.Prepare(l);
  if (!slots.ok()) return R::Fail(slots.error());
  judged::JudgedKernel<K><<<static_cast<unsigned>(blocks), K::kThreads, smem>>>(
      device_tables.value(), static_cast<uint32_t>(host.size()), K::ParamsOf(l), l.suite_key,
      l.first, l.stride, l.count, slots.value());
  auto got = buffers.Collect(slots.value());
  if constexpr (!K::kWarpPerCase) {
    // A slot holds the widest layout's D; a kept case keeps its own layout's.
    if (got.ok()) {
      JudgedResult out = std::move(got).value();
      judged::TrimToLayouts(out, l.suite_key, host, K::Words);
      return R::Ok(std::move(out));
    }
  }
  return got;
}

}  // namespace tcfuzz::harness
