// The campaign runner: determinism, sharding, reports.
#include "suites/engine/campaign.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/core/random_source.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/report.h"
#include "suites/engine/subprocess.h"
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
  // A real run's junit.xml, against the schema Jenkins' xUnit plugin uses.
  if (std::filesystem::exists("/usr/bin/xmllint")) {
    const CommandResult v =
        RunArgv({"/usr/bin/xmllint", "--noout", "--schema",
                 std::string(TCFUZZ_SOURCE_DIR) + "/suites/tests/data/junit-jenkins.xsd",
                 o.report_dir + "/junit.xml"},
                "", {});
    EXPECT_EQ(v.exit_code, 0) << v.err;
  }
  std::filesystem::remove_all(o.report_dir);
}

// A suite whose every 7th case fails, with a reproducer whose expectation the oracle refutes.
class PlantedFailureSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "planted"; }
  std::string_view description() const override { return "fails every 7th case"; }
  std::string_view text_kind() const override { return "zero_column_mask"; }
  uint64_t default_cases() const override { return 20; }
  std::vector<std::string> families() const override { return {"planted.even", "planted.odd"}; }
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
  EXPECT_EQ(failure["signature"], "planted.planted.even.planted");
  EXPECT_EQ(summary["suites"][0]["signatures"]["planted.planted.even.planted"], 1u);  // 10
  EXPECT_EQ(summary["suites"][0]["signatures"]["planted.planted.odd.planted"], 2u);   // 3, 17
  // Reproducer paths are relative to the report folder, so a copied folder still holds.
  const std::string repro = failure["reproducer"].get<std::string>();
  EXPECT_EQ(repro, "reproducers/planted-10.txt");
  // The reproducer alone replays the failure: its expectation is refuted by the oracle.
  auto doc = oracle::TextDoc::Parse(ReadFile(o.report_dir + "/" + repro).value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ(doc.value().String("origin.index").value(), "10");
  auto replayed = FindCaseKind("zero_column_mask")->replay(doc.value());
  ASSERT_TRUE(replayed.ok()) << replayed.error();
  ASSERT_EQ(replayed.value().failures.size(), 1u);
  EXPECT_EQ(replayed.value().failures[0].check, "expect_mask");
  // JUnit: one test case per family, each failing once (2 failing families, not 3 + 2), the
  // failure's text in the element body with the commands to replay and rerun it.
  const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(xml.find("<testsuite name=\"planted\" tests=\"2\" failures=\"2\" errors=\"0\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"planted\" name=\"planted.even\""), std::string::npos);
  EXPECT_EQ(xml.find("#10\""), std::string::npos);  // no test case per failing index
  EXPECT_NE(xml.find("case 10 &lt;&amp;&gt; fails"), std::string::npos);
  EXPECT_NE(xml.find("replay: tcfuzz replay reproducers/planted-10.txt"), std::string::npos);
  EXPECT_NE(xml.find("rerun: tcfuzz run --suite planted --seed 9 --cases 11"), std::string::npos);
  EXPECT_NE(xml.find("failures=\"2\" errors=\"0\" time="), std::string::npos);
  std::filesystem::remove_all(o.report_dir);
}

// Every case fails: the lists stop at their cap, the counts do not.
class AllFailSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "all-fail"; }
  std::string_view description() const override { return "fails every case"; }
  std::string_view text_kind() const override { return "zero_column_mask"; }
  uint64_t default_cases() const override { return 10; }
  std::vector<std::string> families() const override { return {"f"}; }
  CaseResult RunCase(uint64_t index, uint64_t) override {
    CaseResult r;
    r.family = "f";
    r.failures.push_back({"c" + std::to_string(index % 3), std::string(200, 'x')});
    r.reproducer = "tcfuzz-text 1\nkind = zero_column_mask\n";
    return r;
  }
};

TEST(Campaign, AMillionFailuresStayASmallReport) {
  CampaignOptions o;
  o.seed = 1;
  o.cases = 20000;
  o.report_dir = TempDir("allfail");
  std::vector<std::unique_ptr<HostSuite>> suites;
  suites.push_back(std::make_unique<AllFailSuite>());
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, std::move(suites), log), 1);
  const std::string text = ReadFile(o.report_dir + "/summary.json").value();
  const auto s = nlohmann::json::parse(text)["suites"][0];
  EXPECT_EQ(s["failed"], 20000u);
  EXPECT_EQ(s["failures"].size(), kMaxListedFailures);
  EXPECT_EQ(s["failures"].back()["index"], kMaxListedFailures - 1);  // the first ones, by index
  EXPECT_EQ(s["failures_not_listed"], 20000u - kMaxListedFailures);
  EXPECT_EQ(s["signatures"]["all-fail.f.c0"], 6667u);
  uint64_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(o.report_dir + "/reproducers")) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, o.max_reproducers);
  // Bounded by the caps, not by the failures: 20,000 cases or a million give the same sizes.
  EXPECT_LT(text.size(), 1u << 20);
  const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_LT(xml.size(), 64u << 10);
  EXPECT_NE(xml.find("... and 19980 more failing cases"), std::string::npos);
  std::filesystem::remove_all(o.report_dir);
}

// The JUnit test cases of a real suite are its declared families, whatever the case count, and
// every family a case names is declared.
TEST(Campaign, JUnitTestCasesDoNotChangeWithTheCaseCount) {
  for (const auto& suite : MakeHostSuites()) {
    const std::vector<std::string> declared = suite->families();
    for (uint64_t i = 0; i < 3000; ++i) {
      const std::string family =
          suite->RunCase(i, gen::CaseSeed(test::Seed(), suite->name(), i)).family;
      EXPECT_NE(std::find(declared.begin(), declared.end(), family), declared.end())
          << suite->name() << " case " << i << " names undeclared family " << family;
    }
  }
  const auto testcases = [](uint64_t cases) {
    CampaignOptions o;
    o.seed = test::Seed();
    o.suites = {"zero-column-mask"};
    o.cases = cases;
    o.report_dir = TempDir("stable" + std::to_string(cases));
    std::ostringstream log;
    EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
    const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
    std::set<std::string> names;
    for (std::size_t at = 0; (at = xml.find("<testcase ", at)) != std::string::npos; ++at)
      names.insert(xml.substr(at, xml.find('>', at) - at));
    std::filesystem::remove_all(o.report_dir);
    return names;
  };
  const auto few = testcases(20), many = testcases(2000);
  EXPECT_GT(few.size(), 10u);
  EXPECT_EQ(few, many);
}

TEST(Campaign, UnknownSuiteIsAnError) {
  CampaignOptions o;
  o.suites = {"nope"};
  o.cases = 1;
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 2);
  EXPECT_EQ(log.str(),
            "tcfuzz: error: unknown suite 'nope' (known: zero-column-mask, smem, sparse-oracle, "
            "sparse-mma, sparse-mma-exact, sparse-mma-exact-f16k32, sparse-mma-judged, dense-mma, "
            "dense-mma-judged, smem-hw, smem-hw-judged, tcgen05, tcgen05-judged)\n");
}

}  // namespace
}  // namespace tcfuzz::suites
