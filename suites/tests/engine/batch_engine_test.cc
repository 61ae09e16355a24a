// The engine against a fake worker (suites/tests/engine/fake_worker.cc): planted device faults,
// hangs and crashes are each isolated to their own case by splitting, in fresh processes; the other
// cases still run; classes stay apart; the journal names every range before it runs; shards
// add up to the whole run.
#include "suites/engine/batch_engine.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "suites/engine/atomic_file.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

using namespace std::chrono_literals;

EngineOptions Fake(std::vector<std::string> plant, const std::string& dir) {
  EngineOptions o;
  o.worker = {FAKE_WORKER_BIN};
  o.extra_args = std::move(plant);
  o.extra_args.insert(o.extra_args.end(), {"--log", dir + "/starts.txt"});
  o.batch = 1000;
  o.watchdog_base = 5000ms;
  o.watchdog_per_case = 0us;
  o.journal_path = dir + "/journal.txt";
  return o;
}

int Lines(const std::string& path, const std::string& prefix = "") {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

TEST(WorkerProtocol, LinesAndObservedWordsRoundTripAndGarbageIsRefused) {
  const auto line =
      ParseCaseLine(CaseLine(17, CaseOutcome::kMismatch, "D[3][4] oracle 1\nsecond line"));
  ASSERT_TRUE(line);
  EXPECT_EQ(line->index, 17u);
  EXPECT_EQ(line->outcome, CaseOutcome::kMismatch);
  EXPECT_EQ(line->detail, "D[3][4] oracle 1 second line");
  EXPECT_FALSE(ParseCaseLine("case x mismatch"));
  EXPECT_FALSE(ParseCaseLine("case 3 exploded why"));
  std::vector<uint32_t> d(128);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint32_t>(i * 0x01010101u);
  EXPECT_EQ(ParseObserved("D[0][0] x" + ObservedField(d)), d);
  EXPECT_TRUE(ParseObserved("observed=12,zz").empty());
  EXPECT_TRUE(ParseObserved("observed=1,2,3").empty());      // not 128 words
  EXPECT_TRUE(ParseObserved("observed=123456789").empty());  // past 32 bits
  const WorkerOutput w = ParseWorkerOutput(
      PhaseLine("draw", 1.5) + "\n" + PhaseLine("draw", 0.25) +
      "\nphase device x\nphase judge -1\nphase  2\nphase judge 1e400\nran 3\ndone\n");
  EXPECT_EQ(w.phases, (std::map<std::string, double>{{"draw", 1.75}}));
  EXPECT_EQ(w.ran, 3u);
}

TEST(BatchEngine, CleanRunOneWorkerPerBatchAndAJournal) {
  const std::string dir = test::TempDir("engine_clean");
  const EngineResult r = RunEngine(Fake({}, dir), "fake", 1, 0, 10000);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.cases, 10000u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kPass), 10000u);
  EXPECT_TRUE(r.records.empty());
  EXPECT_EQ(r.workers, 10u);
  // Each fake worker reports 0.25 s drawing and 0.5 s on the device; its wall time is real.
  EXPECT_DOUBLE_EQ(r.phase_seconds.at("draw"), 2.5);
  EXPECT_DOUBLE_EQ(r.phase_seconds.at("device"), 5.0);
  EXPECT_GT(r.worker_seconds, 0.0);
  EXPECT_EQ(Lines(dir + "/journal.txt", "begin "), 10);
  EXPECT_EQ(Lines(dir + "/journal.txt", "end "), 10);
  EXPECT_EQ(Lines(dir + "/journal.txt", "finished"), 1);
}

TEST(BatchEngine, DeviceFaultsAreIsolatedAndTheRestRuns) {
  const std::string dir = test::TempDir("engine_fault");
  // Two faults in one batch and one in another.
  const EngineResult r =
      RunEngine(Fake({"--fault-at", "4321", "--fault-at", "4999", "--fault-at", "7000"}, dir),
                "fake", 1, 0, 10000);
  ASSERT_EQ(r.records.size(), 3u);
  for (const CaseRecord& c : r.records) {
    EXPECT_EQ(c.outcome, CaseOutcome::kDeviceFault);
    EXPECT_EQ(c.detail, "CUDA_ERROR_ILLEGAL_ADDRESS (planted)");
  }
  EXPECT_EQ(r.records[0].index, 4321u);
  EXPECT_EQ(r.records[1].index, 4999u);
  EXPECT_EQ(r.records[2].index, 7000u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kPass), 9997u);
  EXPECT_EQ(r.cases, 10000u);
  // The faulted workers' time is its own phase; the complete ones reported theirs.
  EXPECT_GT(r.phase_seconds.at("failed workers"), 0.0);
  EXPECT_LT(r.phase_seconds.at("failed workers"), r.worker_seconds);
  // Splitting by 8: at most 8 workers per level, about log8(1000) + 1 levels per faulty batch.
  EXPECT_LT(r.workers, 10u + 2 * 8 * 5);
  // The last process to run case 4321 ran it alone.
  std::ifstream starts(dir + "/starts.txt");
  bool alone = false;
  for (uint64_t f, c; starts >> f >> c;) alone = alone || (f == 4321 && c == 1);
  EXPECT_TRUE(alone);
  EXPECT_GE(Lines(dir + "/journal.txt", "failed 4000 1000 device_fault"), 1);
}

TEST(BatchEngine, HangsAreKilledAndIsolated) {
  const std::string dir = test::TempDir("engine_hang");
  EngineOptions o = Fake({"--hang-at", "77"}, dir);
  o.batch = 200, o.watchdog_base = 300ms;
  const EngineResult r = RunEngine(o, "fake", 1, 0, 400);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].index, 77u);
  EXPECT_EQ(r.records[0].outcome, CaseOutcome::kTimeout);
  EXPECT_EQ(r.counts.at(CaseOutcome::kPass), 399u);
}

TEST(BatchEngine, ClassesStayApart) {
  const std::string dir = test::TempDir("engine_classes");
  const EngineResult r = RunEngine(Fake({"--crash-at", "5", "--mismatch-at", "9", "--mismatch-at",
                                         "1501", "--unsupported-every", "500"},
                                        dir),
                                   "fake", 1, 0, 2000);
  EXPECT_EQ(r.cases, 2000u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kHarnessError), 1u);  // the crash: SIGABRT is ours to explain
  EXPECT_EQ(r.counts.at(CaseOutcome::kMismatch), 2u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kNotSupported), 4u);  // 0, 500, 1000, 1500
  EXPECT_EQ(r.not_supported.at("planted: form needs sm_120a"), 4u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kPass), 2000u - 1 - 2 - 4);
  ASSERT_FALSE(r.records.empty());
  EXPECT_EQ(r.records[0].index, 5u);
  EXPECT_NE(r.records[0].detail.find("signal 6"), std::string::npos) << r.records[0].detail;
}

TEST(BatchEngine, AggregatedNotSupportedCounts) {
  const std::string dir = test::TempDir("engine_nodevice");
  const EngineResult r = RunEngine(Fake({"--no-device", "1"}, dir), "fake", 1, 0, 2500);
  EXPECT_EQ(r.cases, 2500u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kNotSupported), 2500u);
  EXPECT_EQ(r.not_supported.at("no GPU: fake"), 2500u);
  EXPECT_EQ(r.counts.count(CaseOutcome::kPass) ? r.counts.at(CaseOutcome::kPass) : 0, 0u);
  EXPECT_TRUE(r.records.empty());
}

TEST(BatchEngine, AWorkerThatCannotStartStopsTheRun) {
  const std::string dir = test::TempDir("engine_missing");
  EngineOptions o = Fake({}, dir);
  o.worker = {dir + "/no-such-worker"};
  const EngineResult r = RunEngine(o, "fake", 1, 0, 10000);
  EXPECT_EQ(r.workers, 1u);
  EXPECT_EQ(r.counts.at(CaseOutcome::kHarnessError), 10000u);
  EXPECT_NE(r.error.find("worker did not start"), std::string::npos) << r.error;
}

TEST(BatchEngine, ShardsAddUpToTheWholeRun) {
  const std::string dir = test::TempDir("engine_shards");
  uint64_t cases = 0, mismatches = 0;
  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    const EngineResult r =
        RunEngine(Fake({"--shard", shard, "--mismatch-at", "10", "--mismatch-at", "11"}, dir),
                  "fake", 1, 0, 3000);
    cases += r.cases;
    mismatches += r.counts.count(CaseOutcome::kMismatch) ? r.counts.at(CaseOutcome::kMismatch) : 0;
  }
  EXPECT_EQ(cases, 3000u);
  EXPECT_EQ(mismatches, 2u);
}

// Under a deadline a batch is sized to end within it: a device at 1 ms a case, a 3 s budget and a
// batch of 100,000 (100 s) runs a small first batch, then what that pace fits in the time left,
// never more cases than the budget holds.
TEST(BatchEngine, ADeadlineSizesTheBatchesToFitIt) {
  const std::string dir = test::TempDir("engine_deadline");
  EngineOptions o = Fake({"--ms-per-case", "1"}, dir);
  o.batch = 100000;
  o.deadline = 3000ms;
  const EngineResult r = RunEngine(o, "x", 1, 0, 1000000);
  EXPECT_GE(r.cases, kFirstBatchUnderDeadline);  // the first batch always runs
  EXPECT_LE(r.cases, 3000u);                     // each case sleeps 1 ms: no more fit in 3 s
  EXPECT_GE(r.workers, 2u);
  EXPECT_EQ(r.next, r.cases);  // a prefix: a resumed run goes on from there
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tcfuzz::suites
