// The expectations file, the scan's verdicts against the model, and its worker isolation: a
// planted crash and a planted hang cost one item each and are reported as such.
#include "suites/toolchain/toolchain_scan.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/nvjitlink.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/toolchain/expectations.h"

namespace tcfuzz::suites {
namespace {

TEST(Expectations, ParsesLinesAndNamesTheBadOne) {
  const auto ok = ParseExpectations(
      "# comment\n\ntoolkit=13.0 verdict=accept target=sm_10[03]a "
      "form=\"tcgen05.mma*.kind::i8 scale_d=0 @*\"  # dropped immediate\n"
      "toolkit=12.8 verdict=reject target=sm_90a form=\"wgmma* a=regs @8.0\" # older toolkit\n");
  ASSERT_TRUE(ok.ok()) << ok.error();
  ASSERT_EQ(ok.value().size(), 2u);
  EXPECT_EQ(ok.value()[0].line, 3);
  EXPECT_EQ(ok.value()[0].key_glob, "tcgen05.mma*.kind::i8 scale_d=0 @*");
  EXPECT_EQ(ok.value()[0].reason, "dropped immediate");
  EXPECT_FALSE(ok.value()[1].accept);

  EXPECT_EQ(ParseExpectations("toolkit=13.0 verdict=maybe target=sm_90a form=x # y\n").error(),
            "expectations line 1: verdict= must be accept or reject");
  EXPECT_EQ(ParseExpectations("\ntoolkit=13.0 verdict=accept target=sm_90a # no form\n").error(),
            "expectations line 2: no form= field");
  EXPECT_EQ(ParseExpectations("toolkit=13.0 verdict=accept target=sm_90a form=wgmma*\n").error(),
            "expectations line 1: no '# reason'");
  EXPECT_EQ(ParseExpectations("13.0 accept sm_90a wgmma* # old format\n").error(),
            "expectations line 1: want field=pattern, got '13.0'");
  EXPECT_EQ(ParseExpectations("toolkit=13.0 device=x verdict=accept # y\n").error(),
            "expectations line 1: unknown field 'device' (fields: toolkit, verdict, target, "
            "form)");
  EXPECT_EQ(ParseExpectations("toolkit=13.0 form=\"a b # y\n").error(),
            "expectations line 1: form: no closing quote");
}

TEST(Expectations, MatchesToolkitVerdictTargetAndKey) {
  const auto all = ParseExpectations(
                       "toolkit=13.0 verdict=accept target=sm_10[03]a "
                       "form=\"tcgen05.mma*.kind::i8 scale_d=0 @*\" # r\n")
                       .value();
  const std::string key = "tcgen05.mma.sp.cta_group::1.kind::i8 scale_d=0 @8.6";
  EXPECT_EQ(MatchExpectation(all, "13.0", true, "sm_103a", key), 0);
  EXPECT_EQ(MatchExpectation(all, "13.1", true, "sm_103a", key), -1);   // another toolkit
  EXPECT_EQ(MatchExpectation(all, "13.0", false, "sm_103a", key), -1);  // the other verdict
  EXPECT_EQ(MatchExpectation(all, "13.0", true, "sm_110a", key), -1);
  EXPECT_EQ(MatchExpectation(all, "13.0", true, "sm_100a",
                             "tcgen05.mma.cta_group::1.kind::f16 scale_d=0 @8.6"),
            -1);
}

ScanOptions Small(const std::string& forms) {
  ScanOptions o;
  o.forms = forms;
  o.targets = {"sm_80", "sm_90a"};
  return o;
}

TEST(ToolchainScan, ModelHoldsForWarpSparseFormsInProcess) {
  if (!harness::NvJitLink::Load().ok()) GTEST_SKIP() << harness::NvJitLink::Load().error();
  // The f16 forms of mma.sp at PTX 8.x: selector 2 with f32 D is the one known deviation (SP4).
  ScanOptions o = Small("mma.sp.sync.aligned.m16n8k32.row.col.*.f16.f16.*");
  const auto r = RunScan(o);
  ASSERT_TRUE(r.ok()) << r.error();
  int deviations = 0;
  for (const ScanRow& row : r.value().rows) {
    if ((row.observed == Observed::kAccept) == row.expected_accept) continue;
    ++deviations;
    EXPECT_NE(row.form.find("f32.f16.f16.f32 sel=2"), std::string::npos)
        << row.form << " " << row.diagnostic;
    EXPECT_TRUE(row.unexpected());  // no expectations file given
  }
  EXPECT_EQ(deviations, 2);  // one per target
  // With the repository's expectations, nothing is unexpected and no line is stale for these
  // targets.
  o.expectations_file = std::string(TCFUZZ_SOURCE_DIR) + "/corpus/toolchain/expectations.txt";
  const auto known = RunScan(o);
  ASSERT_TRUE(known.ok()) << known.error();
  EXPECT_EQ(known.value().unexpected, 0);
  EXPECT_TRUE(known.value().stale.empty());
}

TEST(ToolchainScan, BadOptionsAreOneLineErrors) {
  ScanOptions o = Small("*");
  o.targets = {"sm_91z"};
  EXPECT_EQ(RunScan(o).error(), "--targets: unknown target 'sm_91z'");
  o = Small("no such form*");
  if (harness::NvJitLink::Load().ok()) {
    EXPECT_EQ(RunScan(o).error(), "--forms: no form key matches 'no such form*'");
  }
  o = Small("*");
  o.assembler = "gas";
  EXPECT_EQ(RunScan(o).error(), "--assembler: want nvjitlink or ptxas, not 'gas'");
  o.assembler = "ptxas";
  o.ptxas = "/nonexistent/ptxas";
  // A --ptxas that names no executable is the user's mistake (exit 2), not a missing toolkit.
  ScanError why = ScanError::kAssemblerMissing;
  EXPECT_EQ(RunScan(o, &why).error(), "--ptxas: /nonexistent/ptxas is not an executable file");
  EXPECT_EQ(why, ScanError::kBadInput);
}

struct CliRun {
  int code;
  std::string out;
};
CliRun Tcfuzz(const std::string& args) {
  FILE* p = ::popen((std::string(TCFUZZ_BIN) + " " + args + " 2>&1").c_str(), "r");
  CliRun r{-1, ""};
  char buf[4096];
  for (size_t n; p != nullptr && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = p != nullptr ? ::pclose(p) : -1;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Every number through the one parser (issue 33): a sign, a space or a negative count is an error
// naming the option, never read as 1 or wrapped to 2^64 - 1.
TEST(ToolchainScan, NumbersAreReadByTheOneParser) {
  const std::pair<std::string, std::string> bad[] = {
      {"toolchain scan --targets sm_90a --jobs +1",
       "tcfuzz: error: --jobs: '+1' is not a number\n"},
      {"toolchain scan --targets sm_90a --jobs ' 1'",
       "tcfuzz: error: --jobs: ' 1' is not a number\n"},
      {"toolchain scan --targets sm_90a --item-timeout-ms 0",
       "tcfuzz: error: --item-timeout-ms: must be at least 1, got 0\n"},
      {"toolchain worker --targets sm_90a --first -1 --count 1",
       "tcfuzz: error: --first: '-1' is not a number\n"},
  };
  for (const auto& [args, want] : bad) {
    const CliRun r = Tcfuzz(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.out, want) << args;
  }
}

TEST(ToolchainScan, PlantedCrashAndHangAreIsolatedToTheirItems) {
  if (!harness::NvJitLink::Load().ok()) GTEST_SKIP() << harness::NvJitLink::Load().error();
  const std::string dir = test::TempDir("toolchain_plant");
  const CliRun r = Tcfuzz(
      "toolchain scan --forms 'wgmma.mma_async.sync.aligned.m64n*k16.f32.f16.f16 trans_a=0 "
      "trans_b=0 @8.0' "
      "--targets sm_90a,sm_90 "
      "--jobs 2 --item-timeout-ms 1500 --plant-crash 5 --plant-hang 40 --json --out " +
      dir + "/scan.json");
  EXPECT_EQ(r.code, 1) << r.out;  // a crash and a hang are unexpected verdicts
  std::ifstream in(dir + "/scan.json");
  const auto rows = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(rows.is_array());
  ASSERT_EQ(rows.size(), 66u);  // (32 N values and the N = 264 neighbour) x 2 targets
  int accepted = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string observed = rows[i]["observed"];
    if (i == 5) {
      EXPECT_EQ(observed, "crash");
      // The worker died of SIGSEGV (under ASan: ASan's SEGV report and exit 1).
      const std::string diag = rows[i]["diagnostic"];
      EXPECT_TRUE(diag.find("signal 11") != std::string::npos ||
                  diag.find("SEGV") != std::string::npos)
          << diag;
    } else if (i == 40) {
      EXPECT_EQ(observed, "timeout");
    } else {
      // Everything else assembled as the model says (sm_90 rejects all: wgmma needs the suffix).
      EXPECT_EQ(rows[i]["observed"], rows[i]["expected"]) << rows[i].dump();
      accepted += observed == "accept";
      EXPECT_EQ(rows[i]["known_deviation"], false);
    }
    for (const char* field :
         {"form", "ptx", "target", "expected", "observed", "diagnostic", "known_deviation"}) {
      EXPECT_TRUE(rows[i].contains(field)) << field;
    }
  }
  EXPECT_GE(accepted, 30);  // the legal N values on sm_90a, less what the plants took
}

TEST(ToolchainScan, TableNamesUnexpectedVerdictsAndExitsNonZero) {
  if (!harness::NvJitLink::Load().ok()) GTEST_SKIP() << harness::NvJitLink::Load().error();
  // Without the expectations file, SP4's selector 2 is an unexpected accept.
  const CliRun r = Tcfuzz(
      "toolchain scan --no-expectations --targets sm_80 --forms "
      "'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 *'");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("UNEXPECTED sm_80 mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                       "sel=2 @7.1: model reject "
                       "(mma_sp.selector), observed accept"),
            std::string::npos)
      << r.out;
  const CliRun known = Tcfuzz(
      "toolchain scan --targets sm_80 --forms "
      "'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 *'");
  EXPECT_EQ(known.code, 0) << known.out;
  EXPECT_NE(known.out.find("1 known deviations, 0 unexpected verdicts, 0 stale expectations"),
            std::string::npos)
      << known.out;
}

TEST(ToolchainScan, StaleExpectationFailsTheScan) {
  if (!harness::NvJitLink::Load().ok()) GTEST_SKIP() << harness::NvJitLink::Load().error();
  const std::string dir = test::TempDir("toolchain_stale");
  std::ofstream(dir + "/exp.txt")
      << "toolkit=13.0 verdict=reject target=sm_80 "
         "form=\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 @*\" # pretend\n";
  const CliRun r = Tcfuzz(
      "toolchain scan --targets sm_80 --forms 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "@*' "
      "--expectations " +
      dir + "/exp.txt");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("STALE expectation line 1"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tcfuzz::suites
