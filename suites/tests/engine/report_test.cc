// The report formats: junit.xml valid against the JUnit schema Jenkins' xUnit plugin uses, with
// each failing test case counted once and errors apart from failures, whatever bytes the
// messages hold; summary.json read back as written, and hostile ones refused in one line.
#include "suites/engine/report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

FailureRecord Record(const std::string& suite, const std::string& family, uint64_t index,
                     const std::string& check, const std::string& message) {
  FailureRecord f;
  f.family = family;
  f.index = index;
  f.case_seed = index * 7 + 1;
  f.case_name = family + "#" + std::to_string(index);
  f.check = check;
  f.signature = suite + "." + family + "." + check;
  f.message = message;
  f.reproducer_path = "reproducers/" + suite + "-" + std::to_string(index) + ".txt";
  return f;
}

// A report with every kind of test case: passing and failing host families, a GPU suite whose
// forms are its families (one with a wrong D, one that only faulted and hung, one the device
// does not run), a skipped GPU suite, and messages with bytes XML forbids.
CampaignReport EveryKind() {
  CampaignReport r;
  r.tool = "tcfuzz test";
  r.seed = 5;
  r.planned_suites = {"host", "gpu", "skipped-gpu"};
  SuiteReport host;
  host.suite = "host";
  host.declared_families = {"a", "b"};
  host.families["a"] = {10, 2};
  host.families["b"] = {10, 0};
  host.failed = 2;
  host.cases = 20;
  host.seconds = 1234.5;
  const std::string hostile =
      std::string("bad \x01\x1b[31m \xff\xfe utf-8 \xed\xa0\x80 ]]> <&>\"'") + "\xc0\xaf" +
      std::string("\0 nul", 5);
  host.failures = {Record("host", "a", 3, "check_x", hostile),
                   Record("host", "a", 9, "check_y", "y")};
  host.signatures = {{"host.a.check_x", 1}, {"host.a.check_y", 1}};
  host.discrimination["a"] = {{"all_zero", {10, 9}}, {"zcm.inverted=1", {4, 4}}};
  SuiteReport gpu;
  gpu.suite = "gpu";
  gpu.device = true;
  gpu.families["m16n8k16"] = {60, 1};
  gpu.families["m16n8k32"] = {39, 2};
  gpu.families["m16n8k64.e4m3"] = {0, 0, 0, 1};  // drawn once, not run: the device lacks it
  gpu.outcomes = {
      {"pass", 96}, {"mismatch", 1}, {"device_fault", 1}, {"timeout", 1}, {"not_supported", 1}};
  gpu.cases = 100;
  gpu.failed = 3;
  gpu.failures = {Record("gpu", "m16n8k16", 4, "mismatch", "D[0][0]"),
                  Record("gpu", "m16n8k32", 50, "device_fault", "illegal address"),
                  Record("gpu", "m16n8k32", 70, "timeout", "watchdog")};
  gpu.signatures = {
      {"gpu.m16n8k16.mismatch", 1}, {"gpu.m16n8k32.device_fault", 1}, {"gpu.m16n8k32.timeout", 1}};
  gpu.worker_phases["device"] = 1.5;
  SuiteReport skipped;
  skipped.suite = "skipped-gpu";
  skipped.device = true;
  skipped.skipped = "no GPU: none found";
  host.expected = 1;
  host.families["b"].expected = 1;
  host.expected_failures = {Record("host", "b", 11, "check_z", "expected (line 1: known): z")};
  host.expected_failures[0].expectation_line = 1;
  r.suites = {host, gpu, skipped};
  r.provenance = {"0123456789ab-dirty",
                  "13.0",
                  "nvJitLink 13.0",
                  "cuda",
                  "2026-11-25T10:00:00Z",
                  42.5,
                  {"runner-1", "runner <2>"},
                  {"NVIDIA H100 80GB HBM3, CC 9.0, driver 13000, runtime 13000"},
                  std::vector<std::string>{"--device", "emulated", "--as", "sm_90a"}};
  r.expectation_lines = {{1, "suite=host family=b", "known", true, 1},
                         {2, "suite=host signature=gone", "fixed long ago", true, 0}};
  return r;
}

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

TEST(Report, JUnitValidatesAgainstTheJenkinsSchema) {
  const std::string dir = test::TempDir("junit_schema");
  const std::string xml = JUnitXml(EveryKind());
  ASSERT_TRUE(WriteFileAtomic(dir + "/junit.xml", xml).ok());
  if (!std::filesystem::exists("/usr/bin/xmllint"))
    GTEST_SKIP() << "xmllint is not installed (scripts/setup.sh installs libxml2-utils)";
  const CommandResult v = RunArgv(
      {"/usr/bin/xmllint", "--noout", "--schema",
       std::string(TCFUZZ_SOURCE_DIR) + "/suites/tests/data/junit-jenkins.xsd", dir + "/junit.xml"},
      "", {});
  EXPECT_EQ(v.exit_code, 0) << v.err << "\n" << xml;
  // The schema rejects what the old writer did: no errors attribute.
  std::string broken = xml;
  const std::size_t at = broken.find(" errors=\"", broken.find("<testsuite "));
  broken.erase(at, broken.find('"', at + 9) + 1 - at);
  ASSERT_TRUE(WriteFileAtomic(dir + "/broken.xml", broken).ok());
  const CommandResult b =
      RunArgv({"/usr/bin/xmllint", "--noout", "--schema",
               std::string(TCFUZZ_SOURCE_DIR) + "/suites/tests/data/junit-jenkins.xsd",
               dir + "/broken.xml"},
              "", {});
  EXPECT_NE(b.exit_code, 0);
  std::filesystem::remove_all(dir);
}

TEST(Report, EachFailingTestCaseCountsOnceAndFaultsAreErrors) {
  const std::string xml = JUnitXml(EveryKind());
  // host: a fails (two cases, one test case), b passes; gpu: the form with a wrong D fails, the
  // one that only faulted and hung is an error, the one never run is skipped, and the results
  // apart from forms (model_unconfirmed, flaky) pass; the skipped suite is one skipped test case.
  // And the two expectation lines, the second one stale (skipped, not failed without --strict).
  EXPECT_NE(xml.find("<testsuites name=\"tcfuzz\" tests=\"10\" failures=\"2\" errors=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"host\" tests=\"2\" failures=\"1\" errors=\"0\" "
                     "skipped=\"0\" time=\"1234.500\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"gpu\" tests=\"5\" failures=\"1\" errors=\"1\" "
                     "skipped=\"1\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"skipped-gpu\" tests=\"1\" failures=\"0\" errors=\"0\" "
                     "skipped=\"1\""),
            std::string::npos);
  EXPECT_EQ(Count(xml, "<error "), 1);
  EXPECT_EQ(Count(xml, "<failure "), 2);
  EXPECT_NE(xml.find("<error type=\"device_fault\" message=\"gpu.m16n8k32.device_fault: illegal"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure type=\"mismatch\" message=\"gpu.m16n8k16.mismatch: D[0][0]"),
            std::string::npos);
  const std::size_t lacking = xml.find("name=\"m16n8k64.e4m3\"");
  ASSERT_NE(lacking, std::string::npos);
  EXPECT_EQ(xml.find("<skipped message=\"1 cases of this family were drawn; the device does not "
                     "run them\"/>",
                     lacking),
            xml.find("<skipped", lacking));
  EXPECT_NE(xml.find("name=\"not_run\" time=\"0.000\">\n      <skipped message=\"no GPU: none"),
            std::string::npos);
  // The text sits in the body too (GitLab shows only the body), with both commands.
  EXPECT_NE(xml.find(">2 of 10 cases failed&#10;signature host.a.check_x: 1 cases"),
            std::string::npos);
  EXPECT_NE(xml.find("rerun: tcfuzz run --suite host --seed 5 --cases 10"), std::string::npos);
}

// A host family no case drew is skipped, not passed; in a GPU suite a result class with no case
// (no model_unconfirmed, no flaky) is the pass.
TEST(Report, AHostFamilyNoCaseDrewIsSkipped) {
  CampaignReport r = EveryKind();
  r.suites[0].declared_families.push_back("never");
  const std::string xml = JUnitXml(r);
  EXPECT_NE(xml.find("<testsuite name=\"host\" tests=\"3\" failures=\"1\" errors=\"0\" "
                     "skipped=\"1\""),
            std::string::npos)
      << xml;
  const std::size_t at = xml.find("name=\"never\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(xml.find("<skipped message=\"no case of this run drew this family\"/>", at),
            xml.find("<skipped", at));
  EXPECT_LT(xml.find("<skipped", at), xml.find("</testcase>", at));
  // The GPU suite's result classes without cases (no model_unconfirmed, no flaky) stay passes.
  EXPECT_NE(xml.find("<testsuite name=\"gpu\" tests=\"5\" failures=\"1\" errors=\"1\" "
                     "skipped=\"1\""),
            std::string::npos);
}

// A GPU suite that ran but no case of any form (its time ran out, or the device lacks every
// form drawn) tested nothing: one skipped not_run test case, never a green suite.
TEST(Report, AGpuSuiteThatRanNoCaseIsSkipped) {
  CampaignReport r = EveryKind();
  SuiteReport& gpu = r.suites[1];
  gpu.families.clear();
  gpu.failures.clear();
  gpu.signatures.clear();
  gpu.failed = 0;
  gpu.cases = 64;
  gpu.outcomes = {{"not_supported", 64}};
  gpu.coverage["not supported: wgmma needs sm_90a"] = 64;
  std::string xml = JUnitXml(r);
  EXPECT_NE(xml.find("<testsuite name=\"gpu\" tests=\"3\" failures=\"0\" errors=\"0\" "
                     "skipped=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped message=\"no case ran on the device: 64 not supported: wgmma "
                     "needs sm_90a\"/>"),
            std::string::npos)
      << xml;
  gpu.cases = 0;  // none in its time
  gpu.outcomes.clear();
  gpu.coverage.clear();
  xml = JUnitXml(r);
  EXPECT_NE(xml.find("<testsuite name=\"gpu\" tests=\"3\" failures=\"0\" errors=\"0\" "
                     "skipped=\"1\""),
            std::string::npos)
      << xml;
}

TEST(Report, AnyByteInAMessageLeavesWellFormedXml) {
  const std::string xml = JUnitXml(EveryKind());
  for (unsigned char c : xml) {
    EXPECT_TRUE(c >= 0x20 || c == '\n') << "raw control byte " << static_cast<int>(c);
  }
  EXPECT_NE(xml.find("bad \\x01\\x1B[31m \\xFF\\xFE utf-8 \\xED\\xA0\\x80 ]]&gt; &lt;&amp;&gt;"
                     "&quot;&apos;\\xC0\\xAF\\x00 nul"),
            std::string::npos)
      << xml;
  if (!std::filesystem::exists("/usr/bin/xmllint"))
    GTEST_SKIP() << "xmllint is not installed (scripts/setup.sh installs libxml2-utils)";
  const std::string dir = test::TempDir("junit_bytes");
  ASSERT_TRUE(WriteFileAtomic(dir + "/j.xml", xml).ok());
  const CommandResult v = RunArgv({"/usr/bin/xmllint", "--noout", dir + "/j.xml"}, "", {});
  EXPECT_EQ(v.exit_code, 0) << v.err;
  std::filesystem::remove_all(dir);
}

TEST(Report, SummaryReadsBackAsWritten) {
  const std::string dir = test::TempDir("summary_rt");
  CampaignReport r = EveryKind();
  r.interrupted = true;
  r.cases = 100;
  r.suites[0].complete = false;
  r.suites[0].resume_from = 21;
  r.suites[0].coverage["tag"] = 3;
  r.suites[0].cases = 1000;
  r.suites[0].discrimination["a"]["all_zero"] = {200, 170};
  ASSERT_TRUE(WriteFileAtomic(dir + "/summary.json", SummaryJson(r)).ok());
  const auto back = ReadSummary(dir + "/summary.json");
  ASSERT_TRUE(back.ok()) << back.error();
  // Written again, the same text: nothing was lost on the way.
  EXPECT_EQ(SummaryJson(back.value()), SummaryJson(r));
  EXPECT_TRUE(back.value().interrupted);
  EXPECT_EQ(back.value().suites[0].resume_from, 21u);
  EXPECT_EQ(back.value().suites[0].discrimination, r.suites[0].discrimination);
  // Family a's all_zero told 170 of 200 apart: named, in the summary and on the page.
  EXPECT_NE(SummaryJson(r).find("\"a: all_zero 85.0% (170 of 200)\""), std::string::npos);
  EXPECT_NE(IndexHtml(r).find("a: all_zero 85.0% (170 of 200)"), std::string::npos);
  std::filesystem::remove_all(dir);
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// The summary with one value replaced, at a JSON pointer.
std::string Edited(const std::string& summary, const std::string& pointer,
                   const nlohmann::json& value) {
  nlohmann::json j = nlohmann::json::parse(summary);
  j[nlohmann::json::json_pointer(pointer)] = value;
  return j.dump(2);
}

// A GPU suite one shard skipped (no GPU there) and another ran: the sum ran, with its failures.
// What produced the report and where, in all three files (issue 34).
TEST(Report, EveryFileSaysWhatRanWhere) {
  const CampaignReport r = EveryKind();
  const std::string xml = JUnitXml(r), html = IndexHtml(r);
  EXPECT_NE(xml.find("<property name=\"commit\" value=\"0123456789ab-dirty\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"hosts\" value=\"runner-1; runner &lt;2&gt;\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"devices\" value=\"NVIDIA H100 80GB HBM3, CC 9.0"),
            std::string::npos);
  EXPECT_NE(html.find("<code id=\"commit\">0123456789ab-dirty</code>"), std::string::npos);
  EXPECT_NE(html.find("<span id=\"devices\">NVIDIA H100 80GB HBM3, CC 9.0"), std::string::npos);
  EXPECT_NE(SummaryJson(r).find("\"started\": \"2026-11-25T10:00:00Z\""), std::string::npos);
  // The assembler toolchain scan would use, and the command line, in every file.
  EXPECT_NE(xml.find("<property name=\"assembler\" value=\"nvJitLink 13.0\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<property name=\"command\" value=\""), std::string::npos);
  EXPECT_NE(html.find(", assembler nvJitLink 13.0;"), std::string::npos);
  EXPECT_NE(SummaryJson(r).find("\"assembler\": \"nvJitLink 13.0\""), std::string::npos);
  // This process: a host, and a start time in UTC ISO 8601.
  const Provenance now = ThisRun();
  ASSERT_EQ(now.hosts.size(), 1u);
  EXPECT_FALSE(now.hosts[0].empty());
  EXPECT_TRUE(std::regex_match(now.started, std::regex("20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:"
                                                       "[0-5][0-9]:[0-6][0-9]Z")))
      << now.started;
  EXPECT_EQ(now.backend, "none");
  EXPECT_TRUE(now.assembler == "none" || now.assembler.starts_with("nvJitLink ")) << now.assembler;
  // Parts of one run: every host and device once, the earliest start, the seconds added.
  Provenance later = r.provenance;
  later.started = "2026-11-25T11:00:00Z";
  later.seconds = 7.5;
  later.hosts = {"runner-3", "runner-1"};
  later.backend = "none";
  later.devices.clear();
  const Provenance m = MergedProvenance({later, r.provenance});
  EXPECT_EQ(m.started, "2026-11-25T10:00:00Z");
  EXPECT_EQ(m.seconds, 50.0);
  EXPECT_EQ(m.hosts, (std::vector<std::string>{"runner-3", "runner-1", "runner <2>"}));
  EXPECT_EQ(m.devices, r.provenance.devices);
  EXPECT_EQ(m.backend, "cuda");
}

TEST(Report, ASkippedShardDoesNotHideOneThatRan) {
  const CampaignReport r = EveryKind();
  SuiteReport skipped = r.suites[2], ran = r.suites[1];
  skipped.suite = ran.suite;
  AddSuiteReport(skipped, ran);
  EXPECT_EQ(skipped.skipped, "");
  EXPECT_EQ(skipped.failed, 3u);
  SuiteReport both = r.suites[2];
  AddSuiteReport(both, r.suites[2]);
  EXPECT_EQ(both.skipped, "no GPU: none found");
}

TEST(Report, HostileSummariesAreOneLineErrors) {
  const std::string dir = test::TempDir("summary_bad");
  const std::string good = SummaryJson(EveryKind());
  std::string escaping = good;
  const std::string from = "\"reproducer\": \"reproducers/host-3.txt\"";
  ASSERT_NE(escaping.find(from), std::string::npos);
  escaping.replace(escaping.find(from), from.size(), "\"reproducer\": \"../../etc/passwd\"");
  const std::pair<std::string, std::string> cases[] = {
      {"", "not a tcfuzz summary"},
      {"[", "not a tcfuzz summary"},
      {std::string(100000, '[') + std::string(100000, ']'), "nested deeper than 64 levels"},
      {Replace(good, "\"seed\":", "\"seed\": 1, \"seed\":"), "duplicate key \"seed\""},
      {"{\"tool\": \"other\"}", "not a tcfuzz report"},
      {good.substr(0, good.size() / 2), "not a tcfuzz summary"},
      {escaping, "leaves the report folder"},
      {Replace(good, "\"shard\": \"0/1\"", "\"shard\": \"0/-1\""), "\"shard\" is not I/N"},
      {Replace(good, "\"seconds\": 1234.5", "\"seconds\": 1e308"), "not a number of seconds"},
      {Replace(good, "\"reproducers/host-3.txt\"", "\"javascript:alert(1)\""),
       "leaves the report folder"},
      // Past the CLI's own limits: no suite to run, more cases than --cases takes.
      {Edited(good, "/options/suites", nlohmann::json::array()), "not a list of 1 to 64 suites"},
      {Edited(good, "/options/cases", ~uint64_t{0}), "\"options.cases\" is not 1 to 2^40"},
      {Edited(good, "/provenance/hosts/0", 7), "provenance hosts entry is not a string"},
      // Probe counts past the suite's cases, or telling more than they probed.
      {Edited(good, "/suites/0/discrimination/a/all_zero/cases", 21), "exceeds its cases"},
      {Edited(good, "/suites/0/discrimination/a/all_zero/telling", 11), "exceeds its cases"},
      {Edited(good, "/suites/0/discrimination/a/all_zero", {{"cases", 1}, {"tellin", 1}}),
       "unknown key 'tellin'"},
      {Edited(good, "/suites/0/discrimination/a", 3), "discrimination of 'a' is not an object"},
      {Edited(good, "/provenance/backend_args/0", 7),
       "provenance backend_args entry is not a string"},
  };
  for (const auto& [text, want] : cases) {
    ASSERT_TRUE(WriteFileAtomic(dir + "/summary.json", text).ok());
    const auto r = ReadSummary(dir + "/summary.json");
    ASSERT_FALSE(r.ok()) << text.substr(0, 40);
    EXPECT_NE(r.error().find(want), std::string::npos) << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tcfuzz::suites
