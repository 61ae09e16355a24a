// The GPU pipeline without a GPU (ctest label `emulated`): `--device emulated` and `--device
// plugin:PATH` run the GPU suites through the same engine, reports and reproducers as a device,
// and say which backend ran them. The plug-in is examples/backend_plugin (the emulator with D[0][0]
// bit 0 flipped), so what a campaign must report against it is known exactly.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "suites/engine/device_suite.h"
#include "suites/tests/support/cli_run.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz {
namespace {

// The families of a GPU suite's report as the workers counted them, against each case rebuilt
// in full by the parent's describe (the name its failures would carry): every case of the run in
// the family of its form or layout, and the families are forms, not result classes.
void ExpectEveryCaseInItsFamily(const nlohmann::json& s, uint64_t seed) {
  const std::string name = s["suite"];
  const suites::DeviceSuite* suite = suites::FindDeviceSuite(name);
  ASSERT_NE(suite, nullptr) << name;
  std::map<std::string, uint64_t> want;
  for (uint64_t i = 0; i < s["cases"].get<uint64_t>(); ++i)
    ++want[suite->describe(seed, i, {}, oracle::num::Gpu::kSm90).family];
  std::map<std::string, uint64_t> got;
  for (const auto& [family, f] : s["families"].items()) got[family] = f["cases"];
  EXPECT_EQ(got, want) << name;
  EXPECT_GT(got.size(), 1u) << name;
}

using test::CliRun;
using test::ExpectOneLineError;
using test::Tcfuzz;

nlohmann::json Summary(const std::string& dir) {
  std::ifstream in(dir + "/summary.json");
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str(), nullptr, false);
}

TEST(EmulatedCampaign, WarpMmaSuitesRunCleanAndTheReportSaysEmulated) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const std::string report = dir + "/r";
  const CliRun r = Tcfuzz(
      "run --device emulated --suite sparse-mma --suite dense-mma --cases 3000 "
      "--seed 20261126 --no-progress --report " +
      report);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = Summary(report);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["provenance"]["backend"], "emulated");
  ASSERT_EQ(j["provenance"]["devices"].size(), 1u);
  EXPECT_EQ(j["provenance"]["devices"][0], "tcfuzz emulator (as sm_90a, sm_100a), CC 9.0");
  ASSERT_EQ(j["suites"].size(), 2u);
  for (const auto& s : j["suites"]) {
    EXPECT_EQ(s["cases"], 3000) << s["suite"];
    EXPECT_EQ(s["failed"], 0) << s["suite"];
  }
  EXPECT_NE(r.out.find("sparse-mma: 1 worker processes, 3000 pass"), std::string::npos) << r.out;
}

// An interrupted emulated run resumes on the emulator without --device (the report records the
// backend's options), and refuses another backend. The interruption is made by hand: the run's
// second suite taken out of its summary, which is marked interrupted.
TEST(EmulatedCampaign, AResumeGoesOnWithTheRecordedBackend) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const std::string report = dir + "/r";
  const CliRun r = Tcfuzz(
      "run --device emulated --as sm_90a,sm_100a --suite dense-mma --suite sparse-mma --cases 300 "
      "--seed 7 --no-progress --report " +
      report);
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j = Summary(report);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["provenance"]["backend_args"],
            nlohmann::json::array({"--device", "emulated", "--as", "sm_90a,sm_100a"}));
  ASSERT_EQ(j["suites"].size(), 2u);
  ASSERT_EQ(j["suites"][1]["suite"], "sparse-mma");
  j["suites"].erase(1);
  j["cases"] = 300;
  j["interrupted"] = true;
  {
    std::ofstream out(report + "/summary.json");
    out << j.dump(2) << "\n";
  }
  const CliRun other = Tcfuzz("run --resume " + report + " --device plugin:" FLIPPED_PLUGIN);
  ExpectOneLineError(other, "ran its GPU suites with --device emulated --as sm_90a,sm_100a");
  const CliRun resumed = Tcfuzz("run --resume " + report + " --no-progress");
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  const nlohmann::json after = Summary(report);
  ASSERT_EQ(after["suites"].size(), 2u) << resumed.out;
  EXPECT_EQ(after["suites"][1]["suite"], "sparse-mma");
  EXPECT_EQ(after["suites"][1]["cases"], 300) << resumed.out;  // run, not skipped for no GPU
  EXPECT_EQ(after["provenance"]["backend"], "emulated");
}

TEST(EmulatedCampaign, AnotherTargetTakesItsOwnFormsAndRow) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  // sm_80: no fp8 mma (sm_89), so those cases are unsupported, and the sm_80 row judges the rest.
  const CliRun r = Tcfuzz(
      "run --device emulated --as sm_80 --suite dense-mma --cases 2000 "
      "--seed 20261126 --no-progress --report " +
      dir + "/r");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(Summary(dir + "/r")["suites"][0]["coverage"].dump().find("needs sm_89"),
            std::string::npos);
  EXPECT_EQ(Summary(dir + "/r")["provenance"]["devices"][0], "tcfuzz emulator (as sm_80), CC 8.0");
}

// wgmma (as sm_90a) and tcgen05.mma (as sm_100a) tiles from the shared-memory image: legal tiles
// pass, broken-descriptor tiles are recorded as undefined_by_spec, and nothing fails.
TEST(EmulatedCampaign, DescriptorSuitesRunCleanOnTheEmulator) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const CliRun r = Tcfuzz(
      "run --device emulated --suite smem-hw --suite tcgen05 --cases 96 --seed 20261126 "
      "--no-progress --report " +
      dir + "/r");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = Summary(dir + "/r");
  EXPECT_EQ(j["provenance"]["devices"][0], "tcfuzz emulator (as sm_90a, sm_100a), CC 9.0");
  ASSERT_EQ(j["suites"].size(), 2u);
  for (const auto& s : j["suites"]) {
    EXPECT_EQ(s["cases"], 96) << s["suite"];
    EXPECT_EQ(s["failed"], 0) << s["suite"];
    // One case in eight breaks a descriptor rule and is recorded; every other one passes.
    EXPECT_GE(s["outcomes"]["pass"].get<int>(), 64) << s.dump();
    EXPECT_EQ(s["outcomes"]["pass"].get<int>() + s["outcomes"]["undefined_by_spec"].get<int>(), 96)
        << s.dump();
    ExpectEveryCaseInItsFamily(s, 20261126);
  }
}

// The device-judged suites on the emulator: each case drawn, placed and judged on the host by its
// kernel's lane code around the emulator's instruction (harness/judged_host.h), as the kernel does
// on a GPU. Every case passes, and a planted defect fails cases whose reproducers replay FAIL with
// it and PASS without.
TEST(EmulatedCampaign, JudgedSuitesRunOnTheEmulatorAndCatchAPlantedDefect) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const CliRun r = Tcfuzz(
      "run --device emulated --suite sparse-mma-exact --suite sparse-mma-judged "
      "--suite dense-mma-judged --suite smem-hw-judged --suite tcgen05-judged --cases 200 "
      "--seed 20261127 --no-progress --report " +
      dir + "/r");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = Summary(dir + "/r");
  ASSERT_EQ(j["suites"].size(), 5u) << r.out;
  for (const auto& s : j["suites"]) {
    EXPECT_EQ(s["outcomes"]["pass"], 200) << s.dump();
    EXPECT_EQ(s["failed"], 0) << s["suite"];
    // The judged workers count each case's family from the first step of its recipe alone.
    ExpectEveryCaseInItsFamily(s, 20261127);
  }
  // wgmma's transpose-B read the other way (LLVM issue 79271) and one fewer alignment bit.
  for (const std::string mutant : {"layout.transpose_b=1", "numerics.alignment_bits=-1"}) {
    const std::string suite = mutant.starts_with("layout") ? "smem-hw-judged" : "dense-mma-judged";
    const std::string report = dir + "/" + suite;
    const CliRun m = Tcfuzz("run --device emulated --mutant " + mutant + " --suite " + suite +
                            " --cases 200 --seed 5 --reruns 0 --no-progress --report " + report);
    ASSERT_EQ(m.code, 1) << m.out;
    EXPECT_GT(Summary(report)["suites"][0]["failed"].get<int>(), 20) << m.out;
    const std::filesystem::path first =
        *std::filesystem::directory_iterator(report + "/reproducers");
    const CliRun with =
        Tcfuzz("replay --device emulated --mutant " + mutant + " " + first.string());
    EXPECT_EQ(with.code, 1) << with.out;
    const CliRun without = Tcfuzz("replay --device emulated " + first.string());
    EXPECT_EQ(without.code, 0) << without.out;
  }
}

// A suite a host backend does not execute says so rather than pass: wgmma, plain and judged, on a
// plug-in built against the ABI's first table (warp_mma only), whose warp suites run.
TEST(EmulatedCampaign, SuitesABackendDoesNotExecuteSaySo) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const CliRun p = Tcfuzz(std::string("run --device plugin:") + WARP_ONLY_PLUGIN +
                          " --suite smem-hw --suite smem-hw-judged --suite sparse-mma "
                          "--suite dense-mma-judged --cases 64 --seed 1 --no-progress "
                          "--report " +
                          dir + "/p");
  ASSERT_EQ(p.code, 0) << p.out;
  EXPECT_NE(p.out.find("smem-hw: 1 worker processes, 64 not_supported; 0 families"),
            std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("smem-hw-judged: 1 worker processes, 64 not_supported; 0 families"),
            std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("sparse-mma: 1 worker processes, 64 pass"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("dense-mma-judged: 1 worker processes, 64 pass"), std::string::npos)
      << p.out;
  EXPECT_NE(Summary(dir + "/p").dump().find("does not execute wgmma or tcgen05.mma tiles yet"),
            std::string::npos);
}

TEST(PluginCampaign, TheChangedBehaviourIsReportedAndReplaysOnlyWithThePlugin) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const std::string report = dir + "/r";
  const std::string plugin = std::string("plugin:") + FLIPPED_PLUGIN;
  const CliRun r = Tcfuzz("run --device " + plugin +
                          " --suite sparse-mma --cases 64 --seed 5 "
                          "--no-progress --report " +
                          report);
  ASSERT_EQ(r.code, 1) << r.out;
  const nlohmann::json j = Summary(report);
  EXPECT_EQ(j["provenance"]["backend"], "plugin");
  EXPECT_EQ(j["provenance"]["devices"][0],
            "tcfuzz emulator with D[0][0] bit 0 flipped (as sm_90a, sm_100a), CC 9.0");
  EXPECT_EQ(j["suites"][0]["failed"], 64);  // every case: D[0][0] is always wrong
  ASSERT_FALSE(j["suites"][0]["failures"].empty());
  for (const auto& f : j["suites"][0]["failures"])
    EXPECT_NE(f.dump().find("D[0][0]"), std::string::npos) << f.dump();
  // A reproducer executed again: FAIL on the plug-in, PASS on the unchanged emulator.
  std::string repro;
  for (const auto& e : std::filesystem::directory_iterator(report + "/reproducers"))
    if (e.path().extension() == ".txt") repro = e.path().string();
  ASSERT_FALSE(repro.empty());
  const CliRun with = Tcfuzz("replay --device " + plugin + " " + repro);
  EXPECT_EQ(with.code, 1) << with.out;
  EXPECT_EQ(with.out.rfind("FAIL ", 0), 0u) << with.out;
  EXPECT_NE(with.out.find("D[0][0]"), std::string::npos) << with.out;
  const CliRun without = Tcfuzz("replay --device emulated " + repro);
  EXPECT_EQ(without.code, 0) << without.out;
  EXPECT_NE(without.out.find("PASS "), std::string::npos) << without.out;
  EXPECT_NE(without.out.find("executed on tcfuzz emulator (as sm_90a, sm_100a)"), std::string::npos)
      << without.out;
  // The planted wrong D, minimized on the plug-in: it still fails at D[0][0].
  const CliRun min = Tcfuzz("minimize --device " + plugin + " " + repro + " --out " + dir +
                            "/min.txt --budget 40");
  ASSERT_EQ(min.code, 0) << min.out;
  EXPECT_NE(min.out.find("mismatch at D[0][0]"), std::string::npos) << min.out;
  EXPECT_EQ(Tcfuzz("replay --device " + plugin + " " + dir + "/min.txt").code, 1);
}

// A catalogue written outside the repository, run without rebuilding anything: the mutant that
// reads the wrong rows' metadata is killed and its first kill replays FAIL with it and PASS
// without; a mutant equivalent on sm_90 (its own block length) survives, and the run says so; a
// mutant of the zero-column mask, whose every reading is unproven on hardware (tcgen05.mma.ws
// needs sm_100), is seen only as model_unconfirmed: flagged, neither killed nor survived; a
// mutant written as a backend plug-in (D[0][0] flipped) is killed.
TEST(Mutants, ACatalogueFromAnywhereIsRunAndScored) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  {
    std::ofstream f(dir + "/mine.txt");
    f << "# mine\n"
         "rows | sparse-mma | metadata.row_halves=1 | a test\n"
         "same_l | dense-mma | numerics.block_size=16 | sm_90's own block: equivalent\n"
         "mask | tcgen05 | zcm.ignored=1 | unproven readings\n"
         "flip | dense-mma | plugin:" FLIPPED_PLUGIN " | a plug-in: D[0][0] bit 0 flipped\n";
  }
  const CliRun r =
      Tcfuzz("mutants --catalogue " + dir + "/mine.txt --cases 60 --seed 3 --report " + dir + "/m");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("killed   rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SURVIVED same_l"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flagged  mask  tcgen05: model_unconfirmed at case"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("killed   flip  dense-mma: killed at case 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("score: 2 of 4 mutants killed, 1 flagged"), std::string::npos) << r.out;
  std::ifstream in(dir + "/m/summary.json");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["killed"], 2);
  EXPECT_EQ(j["flagged"], 1);
  EXPECT_EQ(j["survived"], 1);
  EXPECT_EQ(j["matrix"][0]["suites"][0]["killed"], true);
  EXPECT_EQ(j["matrix"][1]["suites"][0]["killed"], false);
  EXPECT_EQ(j["matrix"][2]["flagged"], true);
  EXPECT_GT(j["matrix"][2]["suites"][0]["model_unconfirmed"], 0);
  // The same matrix as JUnit (a survivor fails, a flagged mutant is skipped with why; valid for
  // Jenkins' schema) and as the page's grid.
  std::ifstream junit_in(dir + "/m/junit.xml");
  const std::string junit((std::istreambuf_iterator<char>(junit_in)),
                          std::istreambuf_iterator<char>());
  EXPECT_NE(junit.find("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos)
      << junit;
  EXPECT_NE(junit.find("name=\"same_l\" time="), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure message=\"numerics.block_size=16: survived 60 cases\""),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("<skipped message=\"zcm.ignored=1: seen only as model_unconfirmed"),
            std::string::npos)
      << junit;
  if (std::filesystem::exists("/usr/bin/xmllint")) {
    const std::string check = "/usr/bin/xmllint --noout --schema " +
                              std::string(TCFUZZ_SOURCE_DIR) +
                              "/suites/tests/data/junit-jenkins.xsd " + dir + "/m/junit.xml";
    EXPECT_EQ(std::system(check.c_str()), 0) << check;
  }
  std::ifstream html_in(dir + "/m/index.html");
  const std::string html((std::istreambuf_iterator<char>(html_in)),
                         std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("2 of 4 mutants killed, 1 flagged, 1 survived"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"survived\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"runs/mask.tcgen05/index.html\">flagged"), std::string::npos);
  std::string repro;
  for (const auto& e :
       std::filesystem::directory_iterator(dir + "/m/runs/rows.sparse-mma/reproducers"))
    repro = e.path().string();
  ASSERT_FALSE(repro.empty());
  // Its rerun line names the backend and the mutant it failed on.
  std::ifstream repro_in(repro);
  const std::string repro_text((std::istreambuf_iterator<char>(repro_in)),
                               std::istreambuf_iterator<char>());
  EXPECT_NE(repro_text.find("--device emulated --as sm_90a,sm_100a --mutant metadata.row_halves=1"),
            std::string::npos)
      << repro_text;
  const CliRun with = Tcfuzz("replay --device emulated --mutant metadata.row_halves=1 " + repro);
  EXPECT_EQ(with.code, 1) << with.out;
  const CliRun without = Tcfuzz("replay --device emulated " + repro);
  EXPECT_EQ(without.code, 0) << without.out;
}

// One mutant of each class from the shipped catalogue, killed within a few hundred cases.
TEST(Mutants, TheShippedCatalogueKillsOneOfEachClass) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const CliRun r = Tcfuzz(
      "mutants --only sparse.warp0_metadata,dense.a_row_halves,num.zero_term_dominates,"
      "engine.all_zero --cases 300 --seed 1 --report " +
      dir + "/m");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("score: 4 of 4 mutants killed"), std::string::npos) << r.out;
}

TEST(Mutants, BadCataloguesAndMutantsAreOneLineErrors) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  {
    std::ofstream f(dir + "/bad.txt");
    f << "ok | sparse-mma | result.zero=1 | fine\nbad | sparse-mma | result.nothing=1 | no\n";
  }
  ExpectOneLineError(Tcfuzz("mutants --catalogue " + dir + "/bad.txt --report " + dir + "/m"),
                     "catalogue line 2: mutant: no point 'result.nothing'");
  ExpectOneLineError(Tcfuzz("mutants --only nothing --report " + dir + "/m"),
                     "no mutant 'nothing'");
  {  // a name that is no GPU suite would let every mutant "survive" unrun
    std::ofstream f(dir + "/unrun.txt");
    f << "w | smem | result.zero=1 | x\n";
  }
  ExpectOneLineError(Tcfuzz("mutants --catalogue " + dir + "/unrun.txt --report " + dir + "/m"),
                     "'smem' is no GPU suite");
  // A report folder another process writes (its lock held, here by flock(1)) is refused, not
  // silently overwritten when both finish (issue 33: two matrices, the last one won).
  ExpectOneLineError(Tcfuzz("mutants --only sparse.selector_lane --cases 20 --report " + dir + "/m",
                            "flock " + dir + "/.m.tcfuzz-lock"),
                     "is writing a report there");
  EXPECT_FALSE(std::filesystem::exists(dir + "/m"));
  ExpectOneLineError(Tcfuzz("run --device cuda --mutant result.zero=1 --suite sparse-mma"),
                     "needs --device emulated");
  ExpectOneLineError(Tcfuzz("run --device emulated --mutant result.zero=7 --suite sparse-mma"),
                     "result.zero takes 0..1");
}

TEST(DeviceOption, BadValuesAreOneLineErrors) {
  const std::string dir =
      test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const std::string tail = " --suite sparse-mma --cases 1 --report " + dir + "/r";
  ExpectOneLineError(Tcfuzz("run --device gpu" + tail), "cuda, emulated or plugin:PATH");
  ExpectOneLineError(Tcfuzz("run --device emulated --as sm_99x" + tail), "--as");
  ExpectOneLineError(Tcfuzz("run --device cuda --as sm_90a" + tail), "--as");
  ExpectOneLineError(Tcfuzz("run --as sm_90a" + tail), "--as needs --device");
  ExpectOneLineError(Tcfuzz("run --device plugin:" + dir + "/none.so" + tail), "none.so");
  ExpectOneLineError(Tcfuzz(std::string("run --device plugin:") + WRONG_ABI_PLUGIN + tail),
                     "ABI version 99, this tcfuzz reads 1");
  EXPECT_FALSE(std::filesystem::exists(dir + "/r"));  // refused before the report
}

}  // namespace
}  // namespace tcfuzz
