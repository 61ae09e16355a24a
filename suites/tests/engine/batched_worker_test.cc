// The shared worker body (batched_worker.h) with a toy suite standing in for a GPU: cases
// grouped by key and cut into launches of at most `per_launch`, in index order; unsupported
// cases counted per reason; every case counted in its family (ran or not); a JIT error is a harness
// error of its launch's cases only; any other launch error is a sticky fault that ends the worker;
// the protocol and the phases come out as the engine parses them.
#include "suites/engine/batched_worker.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <span>
#include <sstream>

namespace tcfuzz::suites {
namespace {

using Words = std::vector<std::vector<uint32_t>>;

struct ToySuite {
  uint64_t jit_error_at = ~uint64_t{0}, fault_at = ~uint64_t{0};
  std::mutex* mu;
  std::vector<std::vector<uint64_t>>* launches;  // each Run's cases

  uint64_t Draw(uint64_t index) const { return index; }
  std::string Unsupported(uint64_t c) const { return c % 10 == 9 ? "toy: needs sm_120a" : ""; }
  std::string Key(uint64_t c) const { return "k" + std::to_string(c % 3); }
  // Families cut across keys, as forms do across launches (types and layouts of one instruction).
  std::string Family(uint64_t c) const { return c % 2 ? "odd form" : "even form"; }
  oracle::Result<Words> Run(std::span<const uint64_t* const> batch) const {
    std::vector<uint64_t> cases;
    for (const uint64_t* c : batch) cases.push_back(*c);
    {
      const std::lock_guard<std::mutex> lock(*mu);
      launches->push_back(cases);
    }
    for (const uint64_t c : cases) {
      if (c == jit_error_at)
        return oracle::Result<Words>::Fail(std::string(harness::kJitError) + ": toy");
      if (c == fault_at) return oracle::Result<Words>::Fail("CUDA_ERROR_ILLEGAL_ADDRESS (toy)");
    }
    Words d;
    for (const uint64_t c : cases) d.push_back({static_cast<uint32_t>(2 * c)});
    return oracle::Result<Words>::Ok(std::move(d));
  }
  // The expected D is 2c: case 0's is all-zero.
  std::string Judge(uint64_t index, uint64_t c, const std::vector<uint32_t>& d,
                    std::vector<ProbeResult>& probes) const {
    const uint32_t want[] = {static_cast<uint32_t>(2 * c)};
    ProbeZeroAndC(want, {}, probes);
    if (d.size() != 1 || d[0] != 2 * c)
      return CaseLine(index, CaseOutcome::kHarnessError, "toy: D of another case");
    return c % 7 == 0 ? CaseLine(index, CaseOutcome::kMismatch, "toy") : "";
  }
};

struct Ran {
  int exit = 0;
  WorkerOutput out;
  std::vector<std::vector<uint64_t>> launches;
};

Ran RunToy(uint64_t count, std::size_t per_launch, uint64_t jit_error_at = ~uint64_t{0},
           uint64_t fault_at = ~uint64_t{0}) {
  Ran r;
  std::mutex mu;
  WorkerArgs a;
  a.threads = 3;
  std::vector<uint64_t> indices;
  for (uint64_t i = 0; i < count; ++i) indices.push_back(i);
  std::ostringstream out;
  r.exit = RunBatchedCases<uint64_t>(a, indices, per_launch,
                                     ToySuite{jit_error_at, fault_at, &mu, &r.launches}, out);
  r.out = ParseWorkerOutput(out.str());
  return r;
}

TEST(BatchedWorker, LaunchesShareAKeyKeepIndexOrderAndStayWithinTheLimit) {
  const Ran r = RunToy(1000, 64);
  EXPECT_EQ(r.exit, 0);
  EXPECT_TRUE(r.out.done);
  EXPECT_EQ(r.out.ran, 1000u);
  ASSERT_EQ(r.out.unsupported.size(), 1u);
  EXPECT_EQ(r.out.unsupported[0], (std::pair<uint64_t, std::string>{100, "toy: needs sm_120a"}));
  std::multiset<uint64_t> launched;
  for (const auto& l : r.launches) {
    ASSERT_FALSE(l.empty());
    EXPECT_LE(l.size(), 64u);
    for (std::size_t i = 0; i < l.size(); ++i) {
      EXPECT_EQ(l[i] % 3, l[0] % 3);  // one key per launch
      if (i > 0) {
        EXPECT_LT(l[i - 1], l[i]);  // index order
      }
      launched.insert(l[i]);
    }
  }
  EXPECT_EQ(launched.size(), 900u);  // every supported case once, no unsupported one
  for (uint64_t c = 0; c < 1000; ++c) EXPECT_EQ(launched.count(c), c % 10 == 9 ? 0u : 1u) << c;
  std::set<uint64_t> mismatched;
  for (const auto& c : r.out.cases) {
    EXPECT_EQ(c.outcome, CaseOutcome::kMismatch)
        << c.index << " " << c.detail;  // each case judged with its own D
    mismatched.insert(c.index);
  }
  for (uint64_t c = 0; c < 1000; ++c)
    EXPECT_EQ(mismatched.count(c), c % 7 == 0 && c % 10 != 9 ? 1u : 0u) << c;
  for (const char* phase : {"draw", "jit", "device", "judge"})
    EXPECT_TRUE(r.out.phases.count(phase)) << phase;
  // Each key's cases that ran, 300 of k0 (case 0's expected D all-zero), 300 of k1 and k2 (the
  // cases ending in 9 did not run).
  const Discrimination want = {{"k0", {{"all_zero", {300, 299}}, {"d_equals_c", {300, 299}}}},
                               {"k1", {{"all_zero", {300, 300}}, {"d_equals_c", {300, 300}}}},
                               {"k2", {{"all_zero", {300, 300}}, {"d_equals_c", {300, 300}}}}};
  EXPECT_EQ(r.out.discrimination, want);
  // Every case is counted in its family once: the 500 even ones ran; of the odd, the 100 ending
  // in 9 did not (the device lacks them), the other 400 ran.
  EXPECT_EQ(r.out.families, (FamilyCounts{{"even form", 500}, {"odd form", 400}}));
  EXPECT_EQ(r.out.unsupported_families, (FamilyCounts{{"odd form", 100}}));
}

TEST(BatchedWorker, AJitErrorFailsItsLaunchOnlyAndAFaultEndsTheWorker) {
  const Ran jit = RunToy(300, 16, 100);  // case 100: key k1
  EXPECT_EQ(jit.exit, 0);
  EXPECT_TRUE(jit.out.done);
  std::vector<uint64_t> failed_launch;
  for (const auto& l : jit.launches) {
    if (std::find(l.begin(), l.end(), 100) != l.end()) failed_launch = l;
  }
  ASSERT_FALSE(failed_launch.empty());
  std::set<uint64_t> harness_errors;
  for (const auto& c : jit.out.cases) {
    if (c.outcome == CaseOutcome::kHarnessError) harness_errors.insert(c.index);
  }
  EXPECT_EQ(harness_errors, std::set<uint64_t>(failed_launch.begin(), failed_launch.end()));
  // The other launches still ran: 270 supported cases, 90 per key, 6 launches of 16 each.
  EXPECT_EQ(jit.launches.size(), 18u);

  const Ran fault = RunToy(300, 16, ~uint64_t{0}, 100);
  EXPECT_EQ(fault.exit, kWorkerFaultExit);
  EXPECT_FALSE(fault.out.done);
  EXPECT_NE(fault.out.fault.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos);
}

}  // namespace
}  // namespace tcfuzz::suites
