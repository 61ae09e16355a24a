// How many host threads the host-side work (the host suites' batches, the emulator's warps) uses
// by default, and the loop that spreads it over them. The default: every core, but one in a build
// with AddressSanitizer, whose allocator serializes the allocation-heavy cases: `smem` took 91 s on
// one thread and 95 s on two there (twice the CPU, no gain), and ctest runs two tests at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace tcfuzz::harness {

inline unsigned DefaultHostThreads() {
#if defined(__SANITIZE_ADDRESS__)
  return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 1;
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

// Runs body(i) for i in [0, n) on up to `threads` threads, at least `at_least` indices each
// (each index once; order free): a thread is worth starting for 64 cheap indices, or one costly.
template <typename Body>
void ParallelFor(std::size_t n, unsigned threads, Body body, std::size_t at_least = 64) {
  threads =
      std::max(1u, std::min<unsigned>(
                       threads, static_cast<unsigned>(n / std::max<std::size_t>(at_least, 1) + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      for (std::size_t i = t; i < n; i += threads) body(i);
    });
  }
  for (auto& th : pool) th.join();
}

}  // namespace tcfuzz::harness
