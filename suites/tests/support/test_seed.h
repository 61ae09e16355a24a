// The seed of this test process (printed at start; see test_main.cc).
#pragma once

#include <cstdint>

namespace tcfuzz::test {
uint64_t Seed();
}  // namespace tcfuzz::test
