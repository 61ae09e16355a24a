// Host-side parallelism of the GPU workers (generation and the oracle).
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace tcfuzz::suites {

// Runs body(i) for i in [0, n) on up to `threads` threads, at least 64 indices each (each index
// once; order free).
template <typename Body>
void ParallelFor(std::size_t n, unsigned threads, Body body) {
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(n / 64 + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      for (std::size_t i = t; i < n; i += threads) body(i);
    });
  }
  for (auto& th : pool) th.join();
}

}  // namespace tcfuzz::suites
