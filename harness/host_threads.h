// How many host threads the host-side work (the host suites' batches, the emulator's warps) uses
// by default: every core, but one in a build with AddressSanitizer, whose allocator serializes
// the allocation-heavy cases: `smem` took 91 s on one thread and 95 s on two there (twice the CPU,
// no gain), and ctest runs two tests at once.
#pragma once

#include <algorithm>
#include <thread>

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

}  // namespace tcfuzz::harness
