// The parent side of a GPU suite with a fake device (suites/tests/engine/fake_worker.cc): the
// probe, result classes, the failure message that names which A element the device read in a probe
// case, a reproducer rebuilt from the seed with the observed D, and its replay without a GPU.
#include "suites/engine/device_campaign.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/merge.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/tests/support/fake_device.h"
#include "suites/tests/support/report_compare.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

using test::FirstProbeCase;

// The instruction form a sparse-mma case is reported under, spelled here from its drawn
// operands: the spelling, shape, A's type, B's where it differs, the accumulator.
std::string FormOf(const gen::GeneratedSparse& g) {
  using oracle::num::Name;
  return std::string(g.op.variant == oracle::sparse::Variant::kOrdered ? "mma.sp::ordered_metadata"
                                                                       : "mma.sp") +
         "." + std::string(g.op.form->shape) + "." + std::string(Name(g.tile.a_type)) +
         (g.tile.b_type == g.tile.a_type ? "" : "x" + std::string(Name(g.tile.b_type))) + "." +
         std::string(Name(g.tile.cd));
}

TEST(DeviceCampaign, FakeDeviceMismatchIsReportedWithWhatItRead) {
  constexpr uint64_t kSeed = 77;
  const uint64_t planted = FirstProbeCase(kSeed);
  ASSERT_LT(planted, 2000u);
  const DeviceProbe probe = ProbeInWorker({FAKE_WORKER_BIN});
  ASSERT_TRUE(probe.available);
  EXPECT_EQ(probe.cc_major, 9);
  EXPECT_EQ(probe.name, "Fake GPU (fake_worker)");
  CampaignOptions o = test::PlantedSparseMma(kSeed, planted, 2000, 500);
  o.report_dir = test::TempDir("device_campaign");
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["cases"], 2000);
  EXPECT_EQ(s["outcomes"]["mismatch"], 1);
  EXPECT_EQ(s["outcomes"]["pass"], 1999);
  ASSERT_EQ(s["failures"].size(), 1u);
  const auto& f = s["failures"][0];
  EXPECT_EQ(f["index"], planted);
  // Families are instruction forms: the planted case's, spelled here from its drawn operands,
  // holds the one failure, and every case of the run is in exactly one family.
  const std::string form = FormOf(DrawSparseMmaCase(kSeed, planted));
  EXPECT_EQ(f["family"], form);
  ASSERT_TRUE(s["families"].contains(form)) << s["families"];
  EXPECT_EQ(s["families"][form]["failed"], 1);
  uint64_t cases = 0, failed = 0;
  for (const auto& [name, fam] : s["families"].items()) {
    EXPECT_EQ(name.rfind("mma.sp", 0), 0u) << name;  // a form, not a result class
    cases += fam["cases"].get<uint64_t>();
    failed += fam["failed"].get<uint64_t>();
  }
  EXPECT_EQ(cases, 2000u);
  EXPECT_EQ(failed, 1u);
  EXPECT_GT(s["families"].size(), 8u);  // the run drew many forms
  // JUnit: a test case per form; the planted one fails alone, each other passes; the result
  // classes apart from forms have their own test cases.
  const std::string junit = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(junit.find("tests=\"" + std::to_string(s["families"].size() + 2) +
                       "\" failures=\"1\" errors=\"0\" skipped=\"0\""),
            std::string::npos)
      << junit;
  const std::size_t at = junit.find("name=\"" + form + "\"");
  ASSERT_NE(at, std::string::npos) << junit;
  EXPECT_EQ(junit.find("<failure"), junit.find("<failure", at)) << junit;
  EXPECT_LT(junit.find("<failure", at), junit.find("</testcase>", at));
  for (const char* apart : {"name=\"model_unconfirmed\"", "name=\"flaky\""})
    EXPECT_NE(junit.find(apart), std::string::npos) << apart;
  EXPECT_EQ(junit.find("name=\"mismatch\""), std::string::npos);
  // The fake raised one element by one: the device "read" the A value one column further on.
  const std::string msg = f["message"];
  EXPECT_NE(msg.find("probe: D["), std::string::npos) << msg;
  EXPECT_NE(msg.find("the device read an A element of column = "), std::string::npos) << msg;
  // The reproducer carries the case, the device's D and the row; replayed without a GPU it
  // fails because the oracle still disagrees with that D.
  const auto text = ReadFile(o.report_dir + "/" + f["reproducer"].get<std::string>());
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.value().find("origin.gpu = sm_90"), std::string::npos);
  EXPECT_NE(
      text.value().find(
          "origin.device = Fake GPU (fake_worker), CC 9.0, CUDA driver API 13000, runtime 13000"),
      std::string::npos)
      << text.value();
  EXPECT_NE(text.value().find("observed.15 = "), std::string::npos);
  const auto doc = oracle::TextDoc::Parse(text.value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  const auto replay = FindCaseKind("sparse_mma")->replay(doc.value());
  ASSERT_TRUE(replay.ok()) << replay.error();
  ASSERT_EQ(replay.value().failures.size(), 1u);
  EXPECT_EQ(replay.value().failures[0].check, "sparse.device_mismatch");
  EXPECT_TRUE(ReadFile(o.report_dir + "/journal-sparse-mma.txt").ok());
}

// Every case is in one family: those a worker ran, those the device lacks (not_supported, apart),
// and the culprit of a faulting range found alone, whose worker never finished.
TEST(DeviceCampaign, EveryCaseIsInOneFamilyEvenAFaultFoundAlone) {
  constexpr uint64_t kSeed = 5, kCases = 600, kFault = 302;  // 302 % 7 != 0: it runs
  CampaignOptions o;
  o.suites = {kSparseMmaDeviceSuite};
  o.seed = kSeed;
  o.cases = kCases;
  o.gpu = "require";
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--fault-at", std::to_string(kFault), "--unsupported-every", "7"};
  o.device_batch = 200;
  o.report_dir = test::TempDir("device_campaign_families");
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  std::map<std::string, uint64_t> ran, lacking;
  for (uint64_t i = 0; i < kCases; ++i)
    ++(i % 7 == 0 ? lacking : ran)[FormOf(DrawSparseMmaCase(kSeed, i))];
  for (const auto& [name, f] : s["families"].items()) {
    EXPECT_EQ(f["cases"].get<uint64_t>(), ran[name]) << name;
    EXPECT_EQ(f.value("not_supported", uint64_t{0}), lacking[name]) << name;
  }
  std::size_t named = 0;
  for (const auto* m : {&ran, &lacking}) {
    for (const auto& [name, n] : *m) named += s["families"].contains(name) ? 1 : 0;
  }
  EXPECT_EQ(named, ran.size() + lacking.size());
  EXPECT_EQ(s["outcomes"]["not_supported"], (kCases + 6) / 7);
  EXPECT_EQ(s["outcomes"]["device_fault"], 1u);
  EXPECT_EQ(s["families"][FormOf(DrawSparseMmaCase(kSeed, kFault))]["failed"], 1u);
}

// The same planted mismatch on a device whose target no hardware evidence covers (CC 8.6: the
// sparse maps were seen on an H100 only): the expectation rests on readings that are hypotheses
// there, so the case is model_unconfirmed, reported apart, and the campaign does not fail.
TEST(DeviceCampaign, MismatchOnAnUnprovenTargetIsModelUnconfirmed) {
  constexpr uint64_t kSeed = 77;
  const uint64_t planted = FirstProbeCase(kSeed);
  ASSERT_EQ(::setenv("TCFUZZ_FAKE_CC", "8.6", 1), 0);
  CampaignOptions o;
  o.suites = {kSparseMmaDeviceSuite};
  o.seed = kSeed;
  o.cases = planted + 1;
  o.gpu = "require";
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--device-probe-wrong-at", std::to_string(planted)};
  o.report_dir = test::TempDir("device_campaign_unconfirmed");
  std::ostringstream log;
  const int rc = RunCampaign(o, log);
  ::unsetenv("TCFUZZ_FAKE_CC");
  EXPECT_EQ(rc, 0) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["failed"], 0);
  EXPECT_EQ(s["outcomes"]["model_unconfirmed"], 1);
  EXPECT_FALSE(s["outcomes"].contains("mismatch"));
  EXPECT_EQ(s["failures"].size(), 0u);
  ASSERT_EQ(s["model_unconfirmed"].size(), 1u);
  const auto& u = s["model_unconfirmed"][0];
  EXPECT_EQ(u["index"], planted);
  const std::string msg = u["message"];
  EXPECT_EQ(msg.rfind("rests on SP0 (hypothesis)", 0), 0u) << msg;
  EXPECT_EQ(u["check"], "model_unconfirmed");
  const std::string path = u["reproducer"];
  EXPECT_EQ(path.rfind("unconfirmed/sparse-mma-", 0), 0u) << path;
  EXPECT_NE(ReadFile(o.report_dir + "/" + path).value().find("origin.outcome = model_unconfirmed"),
            std::string::npos);
  const std::string junit = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(junit.find("<skipped message=\"model_unconfirmed: 1 mismatches rest on readings no "
                       "hardware has shown here: rests on SP0 (hypothesis)"),
            std::string::npos)
      << junit;
  EXPECT_NE(log.str().find("UNCONFIRMED sparse-mma."), std::string::npos) << log.str();
}

TEST(DeviceCampaign, NoDeviceIsSkippedOrAnErrorAsAsked) {
  CampaignOptions o;
  o.suites = {kSparseMmaDeviceSuite};
  o.cases = 10;
  o.report_dir = test::TempDir("device_campaign_off");
  o.worker = {FAKE_WORKER_BIN};
  o.gpu = "off";
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j["suites"][0]["skipped"], "no GPU: --gpu off");
  // The page's green line says that nothing ran, and why (issue 34).
  EXPECT_NE(ReadFile(o.report_dir + "/index.html")
                .value()
                .find("suites: <span id=\"suites-ran\">0</span> of 1 ran (1 skipped: no GPU: "
                      "--gpu off)</p>"),
            std::string::npos);
  o.worker = {o.report_dir + "/missing-binary"};
  o.gpu = "require";
  std::ostringstream log2;
  EXPECT_EQ(RunCampaign(o, log2), 2);
  EXPECT_NE(log2.str().find("--gpu require: the device probe failed"), std::string::npos)
      << log2.str();
  // Nothing ran, and the report says why: the GPU suite is an error in JUnit.
  const auto j2 = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j2["cases"], 0);
  EXPECT_NE(j2["suites"][0]["error"].get<std::string>().find("--gpu require: the device probe"),
            std::string::npos);
  const std::string junit = ReadFile(o.report_dir + "/junit.xml").value();
  EXPECT_NE(junit.find("<error type=\"not_run\" message=\"--gpu require: the device probe"),
            std::string::npos)
      << junit;
  EXPECT_EQ(junit.find("errors=\"0\""), std::string::npos) << junit;
}

// smem-hw through the same parent with a fake device that reads what the oracle's maps say:
// one planted misread in a probe tile is a mismatch that names the A element and byte; every
// broken-descriptor tile is undefined by spec, recorded under undefined/, and never a failure.
TEST(DeviceCampaign, SmemHwMisreadNamesTheElementAndBrokenDescriptorsAreRecordedNotJudged) {
  constexpr uint64_t kSeed = 91, kCases = 120;
  uint64_t planted = 0, broken = 0;
  for (uint64_t i = 0; i < kCases; ++i) {
    const auto g = DrawSmemHwCase(kSeed, i);
    if (g.broken) {
      ++broken;
    } else if (planted == 0 && g.values == gen::TileValues::kProbe &&
               oracle::num::IsFloat(g.tile.ab) && g.tile.d == oracle::num::Format::kF32) {
      planted = i;
    }
  }
  ASSERT_GT(planted, 0u);
  ASSERT_GT(broken, 0u);
  CampaignOptions o;
  o.suites = {kSmemHwSuite};
  o.seed = kSeed;
  o.cases = kCases;
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--device-probe-wrong-at", std::to_string(planted)};
  o.device_batch = 40;
  o.report_dir = test::TempDir("device_campaign_smem");
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["outcomes"]["undefined_by_spec"], broken);
  EXPECT_EQ(s["outcomes"]["mismatch"], 1);
  ASSERT_EQ(s["failures"].size(), 1u);
  const auto& f = s["failures"][0];
  EXPECT_EQ(f["index"], planted);
  const std::string msg = f["message"];
  EXPECT_NE(msg.find("probe: D[0][0] meets B's one hot K = "), std::string::npos) << msg;
  EXPECT_NE(msg.find("the oracle reads A(0,"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is the value of A(0,"), std::string::npos) << msg;
  // The reproducer replays without a GPU: the oracle still disagrees with the recorded D.
  const auto text = ReadFile(o.report_dir + "/" + f["reproducer"].get<std::string>());
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.value().find("kind = wgmma_tile"), std::string::npos);
  EXPECT_NE(text.value().find("observed.63 = "), std::string::npos);
  const auto doc = oracle::TextDoc::Parse(text.value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  const auto replay = FindCaseKind("wgmma_tile")->replay(doc.value());
  ASSERT_TRUE(replay.ok()) << replay.error();
  ASSERT_EQ(replay.value().failures.size(), 1u);
  EXPECT_EQ(replay.value().failures[0].check, "tile.device_mismatch");
  // Every broken tile has its record, and the fake (which reads as decoded) was "as-if".
  uint64_t records = 0;
  for (uint64_t i = 0; i < kCases; ++i) {
    if (!DrawSmemHwCase(kSeed, i).broken) continue;
    const auto rec = ReadFile(o.report_dir + "/undefined/smem-hw-" + std::to_string(i) + ".txt");
    ASSERT_TRUE(rec.ok()) << i;
    EXPECT_NE(rec.value().find(": as-if"), std::string::npos) << rec.value().substr(0, 200);
    const auto rec_doc = oracle::TextDoc::Parse(rec.value());
    ASSERT_TRUE(rec_doc.ok());
    const auto rec_replay = FindCaseKind("wgmma_tile")->replay(rec_doc.value());
    ASSERT_TRUE(rec_replay.ok()) << rec_replay.error();
    EXPECT_TRUE(rec_replay.value().failures.empty());  // undefined: nothing to judge
    ++records;
  }
  EXPECT_EQ(records, broken);
}

TEST(DeviceCampaign, DenseMmaMisreadIsReportedWithTheElementAndReplays) {
  constexpr uint64_t kSeed = 93;
  uint64_t planted = 0;
  for (;; ++planted) {
    const auto g = DrawDenseMmaCase(kSeed, planted);
    if (g.mode == gen::ValueMode::kProbe && oracle::num::IsFloat(g.tile.a_type) &&
        g.tile.cd == oracle::num::Format::kF32)
      break;
  }
  CampaignOptions o;
  o.suites = {kDenseMmaSuite};
  o.seed = kSeed;
  o.cases = planted + 500;
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--device-probe-wrong-at", std::to_string(planted)};
  o.report_dir = test::TempDir("device_campaign_dense");
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  ASSERT_EQ(s["failures"].size(), 1u) << log.str();
  const auto& f = s["failures"][0];
  EXPECT_EQ(f["index"], planted);
  const std::string msg = f["message"];
  EXPECT_NE(msg.find("probe: D[0][0] meets B's one hot K = "), std::string::npos) << msg;
  EXPECT_NE(msg.find("is the value of A(0,"), std::string::npos) << msg;
  EXPECT_EQ(
      f["family"].get<std::string>().rfind(DrawDenseMmaCase(kSeed, planted).tile.form->Name(), 0),
      0u)
      << f;
  const auto text = ReadFile(o.report_dir + "/" + f["reproducer"].get<std::string>());
  ASSERT_TRUE(text.ok());
  const auto doc = oracle::TextDoc::Parse(text.value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  const auto replay = FindCaseKind("dense_mma")->replay(doc.value());
  ASSERT_TRUE(replay.ok()) << replay.error();
  ASSERT_EQ(replay.value().failures.size(), 1u);
  EXPECT_EQ(replay.value().failures[0].check, "dense.device_mismatch");
}

TEST(DeviceCampaign, AFaultOnABrokenDescriptorIsUndefinedNotAFailure) {
  constexpr uint64_t kSeed = 92;
  uint64_t broken = 0;
  while (!DrawSmemHwCase(kSeed, broken).broken) ++broken;
  CampaignOptions o;
  o.suites = {kSmemHwSuite};
  o.seed = kSeed;
  o.cases = broken + 8;
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--fault-at", std::to_string(broken)};
  o.device_batch = 16;
  o.report_dir = test::TempDir("device_campaign_broken_fault");
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_FALSE(s["outcomes"].contains("device_fault")) << s;
  EXPECT_TRUE(s["failures"].empty());
  const auto rec = ReadFile(o.report_dir + "/undefined/smem-hw-" + std::to_string(broken) + ".txt");
  ASSERT_TRUE(rec.ok());
  EXPECT_NE(rec.value().find("device_fault, CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos)
      << rec.value();
}

// A GPU baseline: the known mismatch is expected_fail on this device (not on another), a skips
// line keeps a suite from running, and GPU shards merge into the unsharded report.
TEST(DeviceCampaign, ABaselineKnowsAMismatchSkipsASuiteAndShardsMerge) {
  constexpr uint64_t kSeed = 77;
  const uint64_t planted = FirstProbeCase(kSeed);
  const std::string root = test::TempDir("device_baseline");
  CampaignOptions o = test::PlantedSparseMma(kSeed, planted, 2000, 500);
  o.report_dir = root + "/r";
  o.expectations_file = root + "/exp.txt";
  ASSERT_TRUE(WriteFileAtomic(o.expectations_file,
                              "device=\"Fake GPU*\" cc=9.0 toolkit=* suite=sparse-mma "
                              "signature=*.mismatch  # planted\n")
                  .ok());
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j["suites"][0]["failed"], 0u);
  EXPECT_EQ(j["suites"][0]["expected_fail"], 1u);
  EXPECT_EQ(j["suites"][0]["outcomes"]["expected_fail"], 1u);
  EXPECT_EQ(j["suites"][0]["expected_failures"][0]["index"], planted);
  EXPECT_EQ(j["stale_expectations"], 0u);
  // The same line for another compute capability holds nowhere here: a failure again, and the
  // line, which could not have matched, is not stale either.
  ASSERT_TRUE(WriteFileAtomic(o.expectations_file,
                              "cc=10.* suite=sparse-mma signature=*.mismatch  # Blackwell only\n")
                  .ok());
  EXPECT_EQ(RunCampaign(o, log), 1);
  j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j["suites"][0]["failed"], 1u);
  EXPECT_EQ(j["stale_expectations"], 0u);
  // Skips: the suite does not start a worker on this device.
  o.expectations_file.clear();
  o.skips_file = root + "/skips.txt";
  ASSERT_TRUE(WriteFileAtomic(o.skips_file, "cc=9.* suite=sparse-*  # hangs this driver\n").ok());
  EXPECT_EQ(RunCampaign(o, log), 0);
  j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j["suites"][0]["skipped"], "--skips " + o.skips_file + " line 1: hangs this driver");
  EXPECT_EQ(j["suites"][0]["cases"], 0u);
  // Shards of the GPU suite merge into the unsharded report.
  o.skips_file.clear();
  o.report_dir = root + "/full";
  EXPECT_EQ(RunCampaign(o, log), 1);
  std::vector<std::string> shards;
  for (uint64_t i = 0; i < 2; ++i) {
    CampaignOptions s = o;
    s.shard_index = i;
    s.shard_count = 2;
    s.report_dir = root + "/shard" + std::to_string(i);
    EXPECT_EQ(RunCampaign(s, log), i == planted % 2 ? 1 : 0) << log.str();
    shards.push_back(s.report_dir);
  }
  EXPECT_EQ(MergeReports(shards, root + "/merged", log), 1) << log.str();
  EXPECT_EQ(test::SummaryDiff(root + "/merged", root + "/full"), "[]");
  const std::string repro = "/reproducers/sparse-mma-" + std::to_string(planted) + ".txt";
  EXPECT_EQ(ReadFile(root + "/merged" + repro).value(), ReadFile(root + "/full" + repro).value());
  // Issue 33: a reproducer that is a link out of its shard (to anything the runner can read) is
  // refused, never copied into the published report; so is a linked reproducer folder.
  ASSERT_TRUE(WriteFileAtomic(root + "/secret.txt", "not for the report\n").ok());
  const std::string shard_repro = shards[planted % 2] + repro;
  std::filesystem::remove(shard_repro);
  std::filesystem::create_symlink(root + "/secret.txt", shard_repro);
  EXPECT_EQ(MergeReports(shards, root + "/leaked", log), 2) << log.str();
  EXPECT_FALSE(std::filesystem::exists(root + "/leaked" + repro));
  std::filesystem::remove(shard_repro);
  const std::string folder = shards[planted % 2] + "/reproducers";
  std::filesystem::rename(folder, root + "/elsewhere");
  ASSERT_TRUE(WriteFileAtomic(root + "/elsewhere" + repro.substr(repro.rfind('/')), "x\n").ok());
  std::filesystem::create_directory_symlink(root + "/elsewhere", folder);
  EXPECT_EQ(MergeReports(shards, root + "/leaked2", log), 2) << log.str();
  std::filesystem::remove_all(root);
}

// Flakes: a fault that no part of its range repeats, and a mismatch that does not come back
// when its case runs again, are flaky (reported, not failures unless --strict); a mismatch that
// comes back every time stays a failure.
TEST(DeviceCampaign, ResultsThatDoNotRecurAreFlakyNeverPasses) {
  const std::string root = test::TempDir("device_flaky");
  CampaignOptions o;
  o.suites = {kSparseMmaDeviceSuite};
  o.seed = 5;
  o.cases = 2000;
  o.gpu = "require";
  o.worker = {FAKE_WORKER_BIN};
  o.device_batch = 500;
  o.report_dir = root + "/fault";
  o.worker_extra = {"--fault-at", "700", "--once", root + "/fault.once"};
  std::ostringstream log;
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  auto s = j["suites"][0];
  EXPECT_EQ(s["failed"], 0u);
  EXPECT_EQ(s["cases"], 2000u);
  EXPECT_EQ(s["outcomes"]["flaky"], 1u);
  EXPECT_EQ(s["outcomes"]["pass"], 1999u);
  ASSERT_EQ(s["flaky"].size(), 1u);
  EXPECT_EQ(s["flaky"][0]["index"], 500u);  // the batch [500, 1000) it struck
  EXPECT_NE(s["flaky"][0]["message"].get<std::string>().find(
                "device_fault in cases [500, 1000) did not recur when they ran again"),
            std::string::npos)
      << s["flaky"][0]["message"];
  EXPECT_NE(log.str().find("1 flaky"), std::string::npos) << log.str();
  // A mismatch the reruns do not repeat.
  o.report_dir = root + "/mismatch";
  o.worker_extra = {"--mismatch-at", "300", "--once", root + "/mismatch.once"};
  EXPECT_EQ(RunCampaign(o, log), 0) << log.str();
  j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  s = j["suites"][0];
  EXPECT_EQ(s["failed"], 0u);
  ASSERT_EQ(s["flaky"].size(), 1u);
  EXPECT_EQ(s["flaky"][0]["index"], 300u);
  EXPECT_EQ(
      s["flaky"][0]["message"].get<std::string>().rfind("mismatch, then pass, then pass: ", 0), 0u)
      << s["flaky"][0]["message"];
  // --strict: a flake fails the run, as a JUnit failure.
  o.report_dir = root + "/strict";
  o.strict = true;
  std::filesystem::remove(root + "/mismatch.once");
  EXPECT_EQ(RunCampaign(o, log), 1);
  EXPECT_NE(ReadFile(o.report_dir + "/junit.xml")
                .value()
                .find("name=\"flaky\" time=\"0.000\">\n      <failure"),
            std::string::npos);
  // A mismatch every run repeats stays a mismatch.
  o.strict = false;
  o.report_dir = root + "/steady";
  o.worker_extra = {"--mismatch-at", "300"};
  EXPECT_EQ(RunCampaign(o, log), 1);
  j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_EQ(j["suites"][0]["failed"], 1u);
  EXPECT_NE(ReadFile(o.report_dir + "/journal-sparse-mma.txt")
                .value()
                .find("rerun 300 mismatch, then mismatch, then mismatch"),
            std::string::npos);
  std::filesystem::remove_all(root);
}

// SIGTERM during a GPU suite: the engine starts no new worker, the report says where to go on,
// and --resume ends with the uninterrupted run's report.
TEST(DeviceCampaign, AnInterruptedGpuSuiteResumesToTheWholeRun) {
  constexpr uint64_t kSeed = 77;
  const uint64_t planted = FirstProbeCase(kSeed);
  const std::string root = test::TempDir("device_resume");
  CampaignOptions o;
  o.suites = {kSparseMmaDeviceSuite};
  o.seed = kSeed;
  o.cases = 40000;  // 400 workers: far longer than the 300 ms before the signal
  o.gpu = "require";
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--device-probe-wrong-at", std::to_string(planted), "--mismatch-at", "30000"};
  o.device_batch = 100;
  o.report_dir = root + "/whole";
  std::ostringstream log;
  ASSERT_EQ(RunCampaign(o, log), 1) << log.str();
  o.report_dir = root + "/cut";
  // The signal arrives from outside while workers run; the handler only sets a flag.
  // (Only while the run goes: after it the default action would end the test process.)
  std::atomic<bool> running{true};
  std::thread killer([&running] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (running) ::kill(::getpid(), SIGTERM);
  });
  const int code = RunCampaign(o, log);
  running = false;
  killer.join();
  ASSERT_EQ(code, 128 + SIGTERM) << "the run ended before the signal: " << log.str();
  auto cut = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  EXPECT_TRUE(cut["interrupted"].get<bool>());
  EXPECT_FALSE(cut["suites"][0]["complete"].get<bool>());
  const uint64_t from = cut["suites"][0]["resume_from"].get<uint64_t>();
  EXPECT_EQ(from % 100, 0u);  // a batch boundary
  EXPECT_EQ(cut["suites"][0]["cases"].get<uint64_t>(), from);
  CampaignOptions base;
  base.worker = {FAKE_WORKER_BIN};
  base.worker_extra = o.worker_extra;
  base.device_batch = 100;
  EXPECT_EQ(ResumeCampaign(o.report_dir, base, log), 1) << log.str();
  EXPECT_EQ(test::SummaryDiff(root + "/cut", root + "/whole"), "[]");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace tcfuzz::suites
