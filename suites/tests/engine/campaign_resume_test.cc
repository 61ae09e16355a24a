// A report that survives what CI does to a run: shards merged into exactly the unsharded report,
// SIGTERM mid-run leaving a report marked interrupted that --resume completes into the
// uninterrupted one, the report folder checked before the first case and switched in whole
// (no reproducers of a previous run left beside a new summary), foreign folders refused.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "suites/engine/atomic_file.h"
#include "suites/engine/campaign.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/merge.h"
#include "suites/engine/report_folder.h"
#include "suites/kinds/case_kind.h"
#include "suites/tests/support/report_compare.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// Fails every 7th case (two families, two checks), its every 5th case's expected result all-zero;
// raises `signal` when it reaches `stop_at`.
class Planted final : public HostSuite {
 public:
  explicit Planted(std::string name, uint64_t stop_at = ~uint64_t{0}, uint64_t* ran = nullptr)
      : name_(std::move(name)), stop_at_(stop_at), ran_(ran) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "planted failures"; }
  std::string_view text_kind() const override { return "zero_column_mask"; }
  uint64_t default_cases() const override { return 100; }
  std::vector<std::string> families() const override { return {"even", "odd"}; }
  CaseResult RunCase(uint64_t index, uint64_t seed) override {
    if (ran_ != nullptr) ++*ran_;
    if (index == stop_at_) std::raise(SIGTERM);
    CaseResult r;
    r.family = index % 2 ? "odd" : "even";
    r.tags.push_back(index % 3 ? "tag.a" : "tag.b");
    r.probes.push_back({kProbeAllZero, index % 5 != 0});  // shards and resumes add them up
    if (index % 7 == 3) {
      r.failures.push_back({index % 5 ? "check.one" : "check.two",
                            "case " + std::to_string(index) + " seed " + std::to_string(seed)});
      r.reproducer =
          "tcfuzz-text 1\nkind = zero_column_mask\n# case " + std::to_string(index) + "\n";
    }
    return r;
  }

 private:
  std::string name_;
  uint64_t stop_at_;
  uint64_t* ran_;
};

std::vector<std::unique_ptr<HostSuite>> Suites(uint64_t stop_at = ~uint64_t{0},
                                               uint64_t* ran = nullptr) {
  std::vector<std::unique_ptr<HostSuite>> all;
  all.push_back(std::make_unique<Planted>("first", stop_at, ran));
  all.push_back(FindCaseKind("zero_column_mask")->host_suite());
  all.push_back(std::make_unique<Planted>("last"));
  return all;
}

CampaignOptions Options(const std::string& dir) {
  CampaignOptions o;
  o.seed = test::Seed();
  o.cases = 3000;
  o.max_reproducers = 50;  // below the 429 failing cases of a suite: the cap is part of the test
  o.report_dir = dir;
  o.command_line = "test";
  return o;
}

// Every file under the folder but summary.json and index.html, with its bytes.
using FileMap = std::map<std::string, std::string>;
FileMap Files(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), dir).string();
    if (rel == "summary.json" || rel == "index.html") continue;  // times and shard differ
    std::string text = ReadFile(e.path().string()).value();
    if (rel == "junit.xml") {  // times differ, and when the run started
      text = std::regex_replace(text, std::regex(" time=\"[0-9.]+\""), "");
      text =
          std::regex_replace(text, std::regex("<property name=\"started\" value=\"[^\"]*\"/>"), "");
    }
    out[rel] = text;
  }
  return out;
}

// The first file that differs ("" when none).
std::string FilesDiff(const FileMap& a, const FileMap& b) {
  for (const auto& [name, text] : a) {
    const auto it = b.find(name);
    if (it == b.end()) return name + " only in the first";
    if (it->second != text)
      return name + " differs:\n" + text.substr(0, 3000) + "\n---\n" + it->second.substr(0, 3000);
  }
  for (const auto& [name, text] : b) {
    if (!a.count(name)) return name + " only in the second";
  }
  return "";
}

TEST(CampaignReports, ShardsMergeIntoTheUnshardedReport) {
  const std::string root = TempDir("merge");
  CampaignOptions o = Options(root + "/full");
  std::ostringstream log;
  ASSERT_EQ(RunCampaign(o, Suites(), log), 1) << log.str();
  std::vector<std::string> shards;
  for (uint64_t i : {2, 0, 1}) {  // any order
    CampaignOptions s = o;
    s.shard_index = i;
    s.shard_count = 3;
    s.report_dir = root + "/shard" + std::to_string(i);
    ASSERT_EQ(RunCampaign(s, Suites(), log), 1) << log.str();
    shards.push_back(s.report_dir);
  }
  ASSERT_EQ(MergeReports(shards, root + "/merged", log), 1) << log.str();
  EXPECT_EQ(test::SummaryDiff(root + "/merged", root + "/full"), "[]");
  EXPECT_EQ(FilesDiff(Files(root + "/merged"), Files(root + "/full")), "");
  EXPECT_EQ(Files(root + "/full").count("reproducers/first-" + std::to_string(3 + 7 * 49) + ".txt"),
            1u);  // the 50th failing case has one, the 51st not
  EXPECT_EQ(Files(root + "/full").count("reproducers/first-" + std::to_string(3 + 7 * 50) + ".txt"),
            0u);
  // What merge refuses, each in one line: a missing shard, a shard given twice, another run.
  CampaignOptions other = o;
  other.seed = o.seed + 1;
  other.shard_index = 1;
  other.shard_count = 3;
  other.report_dir = root + "/other";
  ASSERT_EQ(RunCampaign(other, Suites(), log), 1);
  CampaignOptions strict = other;  // the same run but for --strict
  strict.seed = o.seed;
  strict.strict = true;
  strict.report_dir = root + "/strict";
  ASSERT_EQ(RunCampaign(strict, Suites(), log), 1);
  // A shard of another tcfuzz version: its summary says so.
  fs::copy(shards[2], root + "/version", fs::copy_options::recursive);
  std::string summary = ReadFile(root + "/version/summary.json").value();
  const std::string tool = "\"tool\": \"tcfuzz ";
  ASSERT_NE(summary.find(tool), std::string::npos);
  summary.replace(summary.find(tool), tool.size(), tool + "9.9.9 was ");
  ASSERT_TRUE(WriteFileAtomic(root + "/version/summary.json", summary).ok());
  // Hand-edited shards (issue 33): other expectation lines behind the same --expectations path,
  // a misspelt key, counts that add up past 2^64-1.
  const auto edited = [&](const std::string& from, const std::string& name,
                          const std::function<void(nlohmann::json&)>& edit) {
    fs::copy(from, root + "/" + name, fs::copy_options::recursive);
    auto j = nlohmann::json::parse(ReadFile(root + "/" + name + "/summary.json").value());
    edit(j);
    EXPECT_TRUE(WriteFileAtomic(root + "/" + name + "/summary.json", j.dump(2)).ok());
    return root + "/" + name;
  };
  const std::string lines = edited(shards[2], "lines", [](nlohmann::json& j) {
    j["expectation_lines"].push_back({{"line", 1},
                                      {"text", "suite=first"},
                                      {"reason", "known"},
                                      {"could_match", true},
                                      {"matched", 1},
                                      {"stale", false}});
  });
  const std::string typo =
      edited(shards[2], "typo", [](nlohmann::json& j) { j["options"]["stric"] = true; });
  const auto all_cases = [](nlohmann::json& j) {
    for (auto& suite : j["suites"]) suite["cases"] = UINT64_MAX;
  };
  // A shard run with a defect planted in the emulator is not a shard of the plain run.
  const std::string planted = edited(shards[2], "planted", [](nlohmann::json& j) {
    j["provenance"]["backend_args"] = {"--device", "emulated", "--mutant",
                                       "metadata.nibble_order=1"};
  });
  // Two host backends are not one run, whichever shard names one first (shard 0 names none).
  const auto backend = [&](const std::string& from, const std::string& name,
                           const std::string& device) {
    return edited(from, name, [&](nlohmann::json& j) {
      j["provenance"]["backend_args"] = {"--device", device};
    });
  };
  const std::string emulated = backend(shards[2], "emu", "emulated");
  const std::string plugin = backend(shards[0], "plug", "plugin:x.so");
  const std::string huge1 = edited(shards[1], "huge1", all_cases);
  const std::string huge2 = edited(shards[2], "huge2", all_cases);
  const std::pair<std::vector<std::string>, std::string> bad[] = {
      {{shards[0], shards[1], lines}, "(--expectations files with other lines)"},
      {{shards[0], shards[1], typo}, "unknown key 'stric' in \"options\""},
      {{shards[0], huge1, huge2}, "case counts add up past 2^64-1"},
      {{shards[0], shards[1]}, "shards 1 of 3 are missing"},
      {{shards[0], shards[1], shards[1]}, "given twice"},
      {{shards[0], shards[1], other.report_dir}, "are not shards of one run (seed"},
      {{root + "/nothing"}, "nothing/summary.json"},
      {{shards[0], shards[1], strict.report_dir}, "(--strict in one and not the other)"},
      {{shards[0], shards[1], root + "/version"}, "(tcfuzz versions"},
      {{shards[0], shards[1], planted},
       "(backends 'cuda' vs '--device emulated --mutant metadata.nibble_order=1')"},
      {{shards[1], emulated, plugin}, "(backends '--device emulated' vs '--device plugin:x.so')"},
  };
  for (const auto& [dirs, want] : bad) {
    std::ostringstream err;
    EXPECT_EQ(MergeReports(dirs, root + "/bad", err), 2);
    EXPECT_NE(err.str().find(want), std::string::npos) << err.str();
    EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << err.str();
  }
  EXPECT_FALSE(fs::exists(root + "/bad"));
  // A fleet whose scheduler killed shard 1 before its last suite and never ran shard 2 (issue
  // 34): --allow-partial merges what there is, says what is missing and exits 1; without it the
  // refusal names the flag.
  const std::string killed = edited(shards[2], "killed", [](nlohmann::json& j) {
    j["interrupted"] = true;
    j["suites"].erase(j["suites"].size() - 1);  // its last suite never started
    j["cases"] = j["failed"] = 0;               // the totals are the suites' (ReadSummary)
    for (const auto& suite : j["suites"]) {
      j["cases"] = j["cases"].get<uint64_t>() + suite["cases"].get<uint64_t>();
      j["failed"] = j["failed"].get<uint64_t>() + suite["failed"].get<uint64_t>();
    }
  });
  const auto summary_of = [](const std::string& dir) {
    return nlohmann::json::parse(ReadFile(dir + "/summary.json").value());
  };
  const std::string last = summary_of(killed)["options"]["suites"].back();
  std::ostringstream refused, part_log;
  EXPECT_EQ(MergeReports({shards[1], killed}, root + "/part", refused), 2);
  EXPECT_NE(refused.str().find("(or merge --allow-partial)"), std::string::npos) << refused.str();
  ASSERT_EQ(MergeReports({shards[1], killed}, root + "/part", part_log, true), 1) << part_log.str();
  const std::string lacks = "shards 2 of 3 missing; " + last + " unfinished in shard 1";
  EXPECT_NE(part_log.str().find("PARTIAL: " + lacks + "\n"), std::string::npos) << part_log.str();
  const auto part = summary_of(root + "/part"), s0 = summary_of(shards[1]), s1 = summary_of(killed);
  EXPECT_EQ(part["partial"], lacks);
  EXPECT_FALSE(part["interrupted"].get<bool>());
  // The first suite: both shards' cases; the last: shard 0's alone, not complete.
  EXPECT_EQ(part["suites"][0]["cases"].get<uint64_t>(),
            s0["suites"][0]["cases"].get<uint64_t>() + s1["suites"][0]["cases"].get<uint64_t>());
  EXPECT_EQ(part["suites"].back()["cases"], s0["suites"].back()["cases"]);
  EXPECT_FALSE(part["suites"].back()["complete"].get<bool>());
  EXPECT_FALSE(part["suites"][0]["complete"].get<bool>());  // shard 2's cases are not in it
  EXPECT_NE(ReadFile(root + "/part/index.html").value().find("<p class=\"banner\" id=\"partial\">"),
            std::string::npos);
  fs::remove_all(root);
}

TEST(CampaignReports, SigtermLeavesAnInterruptedReportThatResumeCompletes) {
  const std::string root = TempDir("resume");
  std::ostringstream log;
  CampaignOptions o = Options(root + "/whole");
  ASSERT_EQ(RunCampaign(o, Suites(), log), 1) << log.str();
  // 1,500 cases a family, every 5th (300) with an all-zero expected result.
  const auto whole = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  for (const char* family : {"even", "odd"}) {
    EXPECT_EQ(whole["suites"][0]["discrimination"][family]["all_zero"],
              (nlohmann::json{{"cases", 1500}, {"telling", 1200}}));
  }
  EXPECT_EQ(whole["suites"][0]["low_discrimination"],
            (nlohmann::json{"even: all_zero 80.0% (1200 of 1500)",
                            "odd: all_zero 80.0% (1200 of 1500)"}));

  CampaignOptions cut = Options(root + "/cut");
  // Raised inside the first batch (1,024 cases): heeded between grains of 8 cases, so the run
  // stops within the batch, after the grains already taken.
  EXPECT_EQ(RunCampaign(cut, Suites(500), log), 128 + SIGTERM) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(cut.report_dir + "/summary.json").value());
  EXPECT_TRUE(j["interrupted"].get<bool>());
  ASSERT_EQ(j["suites"].size(), 1u);  // the later suites never started
  EXPECT_FALSE(j["suites"][0]["complete"].get<bool>());
  const uint64_t ran = j["suites"][0]["cases"];
  EXPECT_GT(ran, 500u);  // case 500 raised it
  EXPECT_LT(ran, 1024u);
  EXPECT_EQ(ran % 8, 0u);  // whole grains: the cases run are a prefix
  EXPECT_EQ(j["suites"][0]["resume_from"], ran);
  EXPECT_NE(ReadFile(cut.report_dir + "/junit.xml").value().find("interrupted"), std::string::npos);
  EXPECT_NE(log.str().find("tcfuzz run --resume " + cut.report_dir), std::string::npos);

  CampaignOptions base;
  base.command_line = "test";
  // Written by another tcfuzz (other cases for the same indices, another report shape): refused,
  // the report left as it was.
  const std::string summary = ReadFile(cut.report_dir + "/summary.json").value();
  nlohmann::json other = j;
  other["tool"] = "tcfuzz 0.2.0";
  ASSERT_TRUE(WriteFileAtomic(cut.report_dir + "/summary.json", other.dump(1)).ok());
  std::ostringstream refused;
  EXPECT_EQ(ResumeCampaign(cut.report_dir, base, Suites(), refused), 2);
  EXPECT_NE(refused.str().find("was written by 'tcfuzz 0.2.0', not tcfuzz "), std::string::npos)
      << refused.str();
  ASSERT_TRUE(WriteFileAtomic(cut.report_dir + "/summary.json", summary).ok());
  EXPECT_EQ(ResumeCampaign(cut.report_dir, base, Suites(), log), 1) << log.str();
  EXPECT_EQ(test::SummaryDiff(cut.report_dir, o.report_dir), "[]");
  EXPECT_EQ(FilesDiff(Files(cut.report_dir), Files(o.report_dir)), "");
  // A finished report resumes to nothing.
  std::ostringstream again;
  EXPECT_EQ(ResumeCampaign(cut.report_dir, base, Suites(), again), 1);
  EXPECT_NE(again.str().find("nothing to resume"), std::string::npos);
  fs::remove_all(root);
}

TEST(CampaignReports, ARerunLeavesNoReproducerOfThePreviousRun) {
  const std::string dir = TempDir("rerun");
  std::ostringstream log;
  CampaignOptions o = Options(dir);
  ASSERT_EQ(RunCampaign(o, Suites(), log), 1);
  ASSERT_TRUE(fs::exists(dir + "/reproducers/first-3.txt"));
  o.suites = {"zero-column-mask"};
  EXPECT_EQ(RunCampaign(o, Suites(), log), 0) << log.str();
  EXPECT_FALSE(fs::exists(dir + "/reproducers"));
  EXPECT_TRUE(fs::exists(dir + "/summary.json"));
  // No work folder is left beside it.
  for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path())) {
    EXPECT_EQ(e.path().filename().string().find(".tcfuzz_" + std::to_string(::getpid()) +
                                                "_rerun.tcfuzz-"),
              std::string::npos);
  }
  fs::remove_all(dir);
}

// One writer at a time (issue 33: several writers all said they succeeded, the last one won), and
// the staging folders of dead runs into the folder go at the next run; a finished report whose
// switch failed and a live run's staging stay.
TEST(CampaignReports, OneWriterAtATimeAndDeadRunsStagingIsRemoved) {
  const std::string root = TempDir("one_writer");
  const std::string dir = root + "/busy";
  {
    auto holder = ReportFolder::Open(dir, false);
    ASSERT_TRUE(holder.ok()) << holder.error();
    uint64_t ran = 0;
    std::ostringstream log;
    EXPECT_EQ(RunCampaign(Options(dir), Suites(~uint64_t{0}, &ran), log), 2);
    EXPECT_EQ(ran, 0u);
    EXPECT_NE(log.str().find("busy: tcfuzz process " + std::to_string(::getpid()) +
                             " is writing a report there"),
              std::string::npos)
        << log.str();
  }
  EXPECT_FALSE(fs::exists(root + "/.busy.tcfuzz-lock"));  // gone with its holder
  const std::string dead = root + "/.busy.tcfuzz-999999999-0";
  const std::string finished = root + "/.busy.tcfuzz-999999998-3";
  const std::string live = root + "/.busy.tcfuzz-" + std::to_string(::getppid()) + "-0";
  ASSERT_TRUE(WriteFileAtomic(dead + "/journal-first.txt", "half").ok());
  ASSERT_TRUE(WriteFileAtomic(finished + "/summary.json", "{}").ok());
  ASSERT_TRUE(WriteFileAtomic(live + "/journal-first.txt", "running").ok());
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(Options(dir), Suites(), log), 1) << log.str();
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(finished + "/summary.json"));
  EXPECT_TRUE(fs::exists(live + "/journal-first.txt"));
  EXPECT_TRUE(fs::exists(dir + "/summary.json"));
  fs::remove_all(root);
}

TEST(CampaignReports, TheFolderIsCheckedBeforeTheFirstCase) {
  const std::string root = TempDir("folder");
  ASSERT_TRUE(WriteFileAtomic(root + "/file", "x").ok());
  ASSERT_TRUE(WriteFileAtomic(root + "/mine/notes.txt", "keep me").ok());
  const std::pair<std::string, std::string> bad[] = {
      {root + "/file", "exists and is not a folder"},
      {root + "/file/sub", "cannot create it"},
      {root + "/mine", "holds 'notes.txt', which is not part of a tcfuzz report"},
  };
  for (const auto& [dir, want] : bad) {
    uint64_t ran = 0;
    std::ostringstream log;
    CampaignOptions o = Options(dir);
    EXPECT_EQ(RunCampaign(o, Suites(~uint64_t{0}, &ran), log), 2);
    EXPECT_EQ(ran, 0u) << dir;
    EXPECT_NE(log.str().find(want), std::string::npos) << log.str();
  }
  EXPECT_EQ(ReadFile(root + "/mine/notes.txt").value(), "keep me");
  // A file put into the report folder while the run went is kept, not deleted with the old report.
  {
    fs::create_directories(root + "/late");
    auto folder = ReportFolder::Open(root + "/late", false);
    ASSERT_TRUE(folder.ok()) << folder.error();
    ASSERT_TRUE(WriteFileAtomic(root + "/late/added-meanwhile.txt", "mine").ok());
    ReportFolder f = std::move(folder).value();
    const std::string work = f.work();
    ASSERT_TRUE(f.Commit().ok());
    EXPECT_EQ(ReadFile(work + "/added-meanwhile.txt").value(), "mine");
  }
  // A symbolic link to a folder stays a link; the report lands in the folder it names.
  fs::create_directories(root + "/real");
  fs::create_symlink(root + "/real", root + "/link");
  std::ostringstream log;
  CampaignOptions o = Options(root + "/link");
  o.suites = {"last"};
  EXPECT_EQ(RunCampaign(o, Suites(), log), 1) << log.str();
  EXPECT_TRUE(fs::is_symlink(root + "/link"));
  EXPECT_TRUE(fs::exists(root + "/real/summary.json"));
  fs::remove_all(root);
}

TEST(CampaignReports, ExpectationsMakeKnownFailuresExpectedAndReportStaleLines) {
  const std::string root = TempDir("expect");
  ASSERT_TRUE(WriteFileAtomic(root + "/exp.txt",
                              "# the baseline\n"
                              "suite=first signature=first.@(odd|even).check.one  # known: one\n"
                              "suite=last  # every failure of last\n"
                              "suite=zero-column-mask family=*  # stale: it never fails\n"
                              "cc=9.0 suite=first  # GPU only: cannot match a host suite\n")
                  .ok());
  CampaignOptions o = Options(root + "/r");
  o.expectations_file = root + "/exp.txt";
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, Suites(), log), 1) << log.str();  // check.two of first is not known
  auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& first = j["suites"][0];
  // Of first's failing cases (index % 7 == 3), those with index % 5 == 0 fail check.two.
  uint64_t two = 0, one = 0;
  for (uint64_t i = 3; i < 3000; i += 7) (i % 5 ? one : two) += 1;
  EXPECT_EQ(first["failed"], two);
  EXPECT_EQ(first["expected_fail"], one);
  EXPECT_EQ(first["expected_failures"][0]["expectation_line"], 2);
  EXPECT_EQ(j["suites"][2]["failed"], 0u);
  EXPECT_EQ(j["suites"][2]["expected_fail"], one + two);
  EXPECT_EQ(j["stale_expectations"], 1u);
  EXPECT_TRUE(j["expectation_lines"][2]["stale"].get<bool>());
  EXPECT_FALSE(j["expectation_lines"][3]["could_match"].get<bool>());
  EXPECT_NE(log.str().find("STALE expectation line 4"), std::string::npos) << log.str();
  const std::string xml = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(xml.find("<testcase classname=\"expectations\" name=\"line 4\" time=\"0.000\">\n"
                     "      <skipped type=\"stale\""),
            std::string::npos)
      << xml;
  // Every failure known: exit 0; --strict makes the stale line fail the run.
  ASSERT_TRUE(WriteFileAtomic(root + "/all.txt", "suite=@(first|last)  # all known\n").ok());
  o.expectations_file = root + "/all.txt";
  EXPECT_EQ(RunCampaign(o, Suites(), log), 0) << log.str();
  ASSERT_TRUE(WriteFileAtomic(root + "/all.txt",
                              "suite=@(first|last)  # all known\nsuite=zero-column-mask  # stale\n")
                  .ok());
  EXPECT_EQ(RunCampaign(o, Suites(), log), 0);
  o.strict = true;
  EXPECT_EQ(RunCampaign(o, Suites(), log), 1);
  j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_TRUE(j["options"]["strict"].get<bool>());
  // A bad file is a one-line error before the first case.
  ASSERT_TRUE(WriteFileAtomic(root + "/bad.txt", "suite=first wrong=x  # r\n").ok());
  o.expectations_file = root + "/bad.txt";
  std::ostringstream err;
  EXPECT_EQ(RunCampaign(o, Suites(), err), 2);
  EXPECT_EQ(err.str(), "tcfuzz: error: --expectations: " + root +
                           "/bad.txt: expectations line 1: unknown field 'wrong' (fields: device, "
                           "cc, driver, toolkit, suite, family, signature)\n");
  fs::remove_all(root);
}

}  // namespace
}  // namespace tcfuzz::suites
