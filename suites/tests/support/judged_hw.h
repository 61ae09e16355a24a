// What the device-judged suites' GPU tests share (for gpu_tests; TCFUZZ_BIN is the tcfuzz binary
// the workers run), so each suite's test is its host view of a case and one-line calls:
//  - TCFUZZ_SKIP_UNLESS_SUITE_RUNS: skips visibly unless the device runs the suite, asking the
//    suite's own support predicate (DeviceSuite::unsupported), as its worker does;
//  - ExpectEveryCaseIsTheHosts: one launch with every D sent back; no case fails the device-side
//    check, every index comes back once, and each D is the host oracle's;
//  - ExpectAWrongRowFails: the device model with a narrower alignment (F = 20 instead of the
//    row's) disagrees with the hardware on the sums that need the bits, so the device-side check
//    can fail. Every judged suite's campaign through the engine is judged_campaign_test.cc.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/backend.h"
#include "harness/device.h"
#include "harness/judged_launch.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::test {

// Why this machine cannot run `suite`, or empty.
inline std::string WhyNotRun(const harness::DeviceInfo& info, std::string_view suite) {
  if (!info.available) return "no GPU: " + info.reason;
  const suites::DeviceSuite* s = suites::FindDeviceSuite(suite);
  if (s == nullptr || s->unsupported == nullptr) {
    ADD_FAILURE() << suite << " is no GPU suite with a support predicate";
    return "no support predicate";
  }
  const std::string why = s->unsupported(info);
  return why.empty() ? why : std::string(suite) + " does not run on " + info.name + ": " + why;
}

// The device of the process's backend as `suite` runs on it (a host backend as the target its
// family runs as: TCFUZZ_DEVICE=emulated runs these tests on the emulator).
inline harness::DeviceInfo SuiteDeviceInfo(std::string_view suite) {
  const suites::DeviceSuite* s = suites::FindDeviceSuite(suite);
  return harness::ProbeBackend(s != nullptr ? s->family : "mma");
}

// Leaves `info`, the device, in scope.
#define TCFUZZ_SKIP_UNLESS_SUITE_RUNS(suite)                                        \
  const harness::DeviceInfo info = ::tcfuzz::test::SuiteDeviceInfo(suite);          \
  if (const std::string why = ::tcfuzz::test::WhyNotRun(info, suite); !why.empty()) \
  GTEST_SKIP() << why

// The host's view of a kept case: the oracle's D, the device's D in the same layout, and a label.
struct HostView {
  std::vector<uint32_t> want, got;
  std::string label;
};

// `host(kept case)` gives its HostView.
template <class Launch, class Host>
void ExpectEveryCaseIsTheHosts(Launch l, uint64_t suite_key, uint64_t count, const Host& host) {
  l.suite_key = suite_key;
  l.first = 1000;
  // A host backend (the emulated run) takes about 2 ms a tile, the oracle as long again (ten
  // times that under AddressSanitizer).
  l.count = harness::BackendIsCuda() ? count : std::min<uint64_t>(count, 300);
  l.sample_every = 1;  // every D comes back
  const auto got = harness::RunJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_TRUE(got.value().failed.empty())
      << got.value().failed.size() << " cases failed the device-side check, first "
      << got.value().failed.front();
  ASSERT_EQ(got.value().kept.size(), l.count);
  std::set<uint64_t> seen;
  int bad = 0;
  for (const harness::JudgedCase& k : got.value().kept) {
    seen.insert(k.index);
    const HostView v = host(k);
    if (v.want != v.got && ++bad <= 5)
      ADD_FAILURE() << "case " << k.index << " " << v.label << ": "
                    << suites::MismatchDetail(v.want, v.got);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(seen.size(), l.count);
  EXPECT_EQ(*seen.begin(), l.first);
}

template <class Launch>
void ExpectAWrongRowFails(Launch l, uint64_t count) {
  l.f16.F = l.bf16.F = 20;
  l.suite_key = 7;
  // On a host backend nearly every case fails (F = 20 is far from every row): 300 show it.
  l.count = harness::BackendIsCuda() ? count : std::min<uint64_t>(count, 300);
  const auto got = harness::RunJudged(l);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_GT(got.value().failed.size(), 100u);
  EXPECT_LE(got.value().kept.size(), l.keep_mismatches);
}

}  // namespace tcfuzz::test
