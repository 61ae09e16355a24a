// The campaign runner: determinism, sharding, reports.
#include "suites/engine/campaign.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/core/random_source.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/case_kind.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using test::TempDir;

nlohmann::json RunAndRead(CampaignOptions o) {
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  return nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
}

TEST(Campaign, ShardsPartitionTheUnshardedRun) {
  CampaignOptions o;
  o.seed = test::Seed();
  o.cases = 3000;
  o.report_dir = TempDir("full");
  const auto full = RunAndRead(o);
  uint64_t sharded_cases = 0;
  std::map<std::string, uint64_t> families;
  for (uint64_t i = 0; i < 3; ++i) {
    CampaignOptions s = o;
    s.shard_index = i;
    s.shard_count = 3;
    s.report_dir = TempDir("shard" + std::to_string(i));
    const auto part = RunAndRead(s);
    EXPECT_EQ(part["shard"], std::to_string(i) + "/3");
    sharded_cases += part["cases"].get<uint64_t>();
    for (const auto& [name, f] : part["suites"][0]["families"].items()) {
      families[name] += f["cases"].get<uint64_t>();
    }
    std::filesystem::remove_all(s.report_dir);
  }
  EXPECT_EQ(sharded_cases, full["cases"].get<uint64_t>());
  for (const auto& [name, f] : full["suites"][0]["families"].items()) {
    EXPECT_EQ(families[name], f["cases"].get<uint64_t>()) << name;
  }
  std::filesystem::remove_all(o.report_dir);
}

TEST(Campaign, SameSeedSameCases) {
  auto suite = FindCaseKind("zero_column_mask")->host_suite();
  for (uint64_t i = 0; i < 200; ++i) {
    const uint64_t seed = gen::CaseSeed(test::Seed(), suite->name(), i);
    EXPECT_EQ(suite->RunCase(i, seed).family, suite->RunCase(i, seed).family);
  }
}

TEST(Campaign, ReportsCoverageAndJUnit) {
  CampaignOptions o;
  o.seed = test::Seed();
  o.cases = 2000;
  o.report_dir = TempDir("report");
  const auto summary = RunAndRead(o);
  EXPECT_EQ(summary["seed"].get<uint64_t>(), o.seed);
  EXPECT_EQ(summary["failed"].get<uint64_t>(), 0u);
  const auto& s = summary["suites"][0];
  EXPECT_EQ(s["suite"], "zero-column-mask");
  EXPECT_GT(s["coverage"]["m=32"].get<uint64_t>(), 0u);
  EXPECT_GT(s["coverage"]["zcm.shift_max"].get<uint64_t>(), 0u);
  const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(xml.find("<testsuite name=\"zero-column-mask\""), std::string::npos);
  EXPECT_NE(xml.find("zero_column_mask.break_one.mma_ws.idesc_n"), std::string::npos);
  std::filesystem::remove_all(o.report_dir);
}

// A suite whose every 7th case fails, with a reproducer whose expectation the oracle refutes.
class PlantedFailureSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "planted"; }
  std::string_view description() const override { return "fails every 7th case"; }
  std::string_view text_kind() const override { return "zero_column_mask"; }
  uint64_t default_cases() const override { return 20; }
  CaseResult RunCase(uint64_t index, uint64_t) override {
    CaseResult r;
    r.family = index % 2 ? "planted.odd" : "planted.even";
    if (index % 7 == 3) {
      r.failures.push_back({"planted", "case " + std::to_string(index) + " <&> fails"});
      r.reproducer =
          "tcfuzz-text 1\ntool = test\nkind = zero_column_mask\nm = 128\nn = 64\nsparse = 0\n"
          "desc = 0x0000000000000000\nexpect.mask = 0x0000000000000001\n";
    }
    return r;
  }
};

TEST(Campaign, FailuresGetReproducersAndJUnitCases) {
  CampaignOptions o;
  o.seed = 9;
  o.cases = 20;
  o.report_dir = TempDir("planted");
  std::vector<std::unique_ptr<HostSuite>> suites;
  suites.push_back(std::make_unique<PlantedFailureSuite>());
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, std::move(suites), log), 1);
  const auto summary = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(summary["failed"].get<uint64_t>(), 3u);  // cases 3, 10, 17
  const auto& failure = summary["suites"][0]["failures"][1];
  EXPECT_EQ(failure["case"], "planted.even#10");
  const std::string repro = failure["reproducer"].get<std::string>();
  EXPECT_EQ(repro, o.report_dir + "/reproducers/planted-10.txt");
  // The reproducer alone replays the failure: its expectation is refuted by the oracle.
  auto doc = oracle::TextDoc::Parse(ReadFile(repro).value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ(doc.value().String("origin.index").value(), "10");
  auto replayed = FindCaseKind("zero_column_mask")->replay(doc.value());
  ASSERT_TRUE(replayed.ok()) << replayed.error();
  ASSERT_EQ(replayed.value().failures.size(), 1u);
  EXPECT_EQ(replayed.value().failures[0].check, "expect_mask");
  const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(xml.find("name=\"planted.even#10\""), std::string::npos);
  EXPECT_NE(xml.find("case 10 &lt;&amp;&gt; fails"), std::string::npos);
  EXPECT_NE(xml.find("failures=\"5\""), std::string::npos);  // 3 cases + 2 families
  std::filesystem::remove_all(o.report_dir);
}

TEST(Campaign, UnknownSuiteIsAnError) {
  CampaignOptions o;
  o.suites = {"nope"};
  o.cases = 1;
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 2);
  EXPECT_EQ(log.str(),
            "tcfuzz: error: unknown suite 'nope' (known: zero-column-mask, smem, sparse-oracle, "
            "sparse-mma, sparse-mma-exact, sparse-mma-exact-f16k32, dense-mma, dense-mma-judged, "
            "smem-hw, tcgen05)\n");
}

}  // namespace
}  // namespace tcfuzz::suites
