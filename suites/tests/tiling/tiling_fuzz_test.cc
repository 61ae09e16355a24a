// tcfuzz tiling fuzz: the reference tiler fuzzes clean; tilers with planted faults (in process
// and as commands) are caught under the right rule, minimized to the smallest failing problem,
// and written up as reproducers that fail again from the files alone.
#include "suites/tiling/tiling_fuzz.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "oracle/ascend/reference_tiler.h"
#include "suites/engine/atomic_file.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::ascend;
using namespace std::chrono_literals;

const ChipProfile& B2() { return testing::Ascend910B2(); }

// The reference tiler with one planted fault: baseK 4080 once K passes 300. The smallest failing
// problem is therefore K = 301 with M = N = 1, everything else at its simplest; 4080-wide A tiles
// overflow L0A (16 * 4080 * 2 B * 2 buffers > 64 KiB), the first rule the validator checks.
Tiler PlantedBaseK() {
  return [](const Problem& p, const ChipProfile& chip, const std::string& arg) {
    TilerAnswer a = ReferenceTilerUnderTest()(p, chip, arg);
    if (a.kind == TilerAnswer::Kind::kTiling && p.k > 300) a.tiling[kBaseK] = 4080;
    return a;
  };
}

std::string Script(const std::string& dir, const std::string& name, const std::string& body) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

TEST(TilingFuzz, ReferenceTilerRunsCleanAndWritesTheSummary) {
  TilingFuzzOptions o;
  o.seed = 20261122, o.cases = 400, o.out_dir = test::TempDir("tf_clean");
  std::ostringstream log;
  EXPECT_EQ(RunTilingFuzz(o, log), 0) << log.str();
  EXPECT_NE(log.str().find("seed 20261122"), std::string::npos);
  const auto j = nlohmann::json::parse(ReadFile(o.out_dir + "/summary.json").value());
  EXPECT_EQ(j["cases"], 400);
  EXPECT_EQ(j["answered"].get<int>() + j["refused"].get<int>(), 400);
  EXPECT_GT(j["answered"].get<int>(), 100);  // most edge problems have an answer
  EXPECT_TRUE(j["findings"].empty());
}

TEST(TilingFuzz, PlantedFaultIsMinimizedToTheSmallestFailingProblem) {
  Problem p = testing::MakeProblem(4095, 257, 1000, DType::kBFloat16, true);
  p.trans_a = true, p.schedule = Schedule::kMdl;
  const Tiler tiler = PlantedBaseK();
  const auto f = Judge(p, B2(), tiler(p, B2(), "Ascend910B2"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->rule, "tiling.l0a_fit");
  const Problem m = MinimizeProblem(p, B2(), "Ascend910B2", tiler, f->rule, 400);
  Problem want = testing::MakeProblem(1, 1, 301);
  EXPECT_EQ(ProblemToJson(m), ProblemToJson(want));
  // Without the fault nothing fails, and a budget of 0 leaves the problem as it was.
  EXPECT_FALSE(Judge(p, B2(), ReferenceTilerUnderTest()(p, B2(), "")));
  EXPECT_EQ(ProblemToJson(MinimizeProblem(p, B2(), "", tiler, f->rule, 0)), ProblemToJson(p));
}

TEST(TilingFuzz, CommandTilersThatCrashHangOrBabbleAreFindings) {
  const std::string dir = test::TempDir("tf_cmd");
  const Problem p = testing::MakeProblem(64, 64, 64);
  const auto judge = [&](const std::string& body, std::chrono::milliseconds timeout = 10s) {
    return Judge(p, B2(),
                 ExternalTiler(Script(dir, "t.sh", body), timeout)(p, B2(), "Ascend910B2"));
  };
  EXPECT_EQ(judge("kill -SEGV $$")->rule, "tiler.crash");
  EXPECT_EQ(judge("echo boom >&2; exit 3")->message, "exit 3: boom");
  EXPECT_EQ(judge("exec sleep 30", 200ms)->rule, "tiler.hang");
  EXPECT_EQ(judge("echo hello")->rule, "tiler.garbage");
  EXPECT_EQ(judge("echo '{\"usedCoreNum\": 1}'")->message, "tiling JSON: missing key 'M'");
  EXPECT_EQ(judge("echo '{}'; exit 1")->rule, "tiler.garbage");  // a refusal says nothing on stdout
  EXPECT_FALSE(judge("echo 'no tiling for you' >&2; exit 1"));   // a refusal is not a finding
  // A 200-byte image is an answer too: all zeros breaks usedCoreNum first.
  EXPECT_EQ(judge("head -c 200 /dev/zero")->rule, "tiling.used_core_num");
  // The tiler sees the problem on stdin and the chip in TCFUZZ_CHIP.
  const std::string answer = dir + "/answer.json";
  ASSERT_TRUE(WriteFileAtomic(answer, ToJson(MakeTiling(p, B2()).value())).ok());
  EXPECT_FALSE(judge("grep -q '\"M\":64' && [ \"$TCFUZZ_CHIP\" = Ascend910B2 ] && cat " + answer));
}

TEST(TilingFuzz, ATilerWritingInvalidUtf8StillGetsASummary) {
  const std::string dir = test::TempDir("tf_utf8");
  TilingFuzzOptions o;
  // Refuses with a stray byte, or crashes with one: both texts reach summary.json.
  o.tiler_command = Script(
      dir, "t.sh", "printf 'no \\377 tiling' >&2; grep -q '\"isBias\":true' && exit 5; exit 1");
  o.seed = 4, o.cases = 30, o.out_dir = dir + "/report";
  std::ostringstream log;
  EXPECT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.out_dir + "/summary.json").value());
  EXPECT_GT(j["refused"].get<int>(), 0);
  EXPECT_EQ(j["findings"][0]["rule"], "tiler.crash");
}

TEST(TilingFuzz, ReproducerFilesFailAgainOnTheirOwn) {
  const std::string dir = test::TempDir("tf_repro");
  // A command tiler that answers every problem with the same fixed tiling (the answer to
  // 64 x 64 x 64): wrong shapes for almost every other problem.
  const Problem p = testing::MakeProblem(64, 64, 64);
  ASSERT_TRUE(WriteFileAtomic(dir + "/fixed.json", ToJson(MakeTiling(p, B2()).value())).ok());
  TilingFuzzOptions o;
  o.tiler_command = Script(dir, "fixed.sh", "cat > /dev/null; cat " + dir + "/fixed.json");
  o.chip_arg = "Ascend910B2", o.chip = B2();
  o.seed = 3, o.cases = 40, o.out_dir = dir + "/report";
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  const auto j = nlohmann::json::parse(ReadFile(o.out_dir + "/summary.json").value());
  ASSERT_FALSE(j["findings"].empty());
  const auto& first = j["findings"][0];
  EXPECT_EQ(first["chip"], "Ascend910B2");
  const std::string txt = ReadFile(first["reproducer"].get<std::string>()).value();
  EXPECT_NE(txt.find("seed: 3, case "), std::string::npos) << txt;
  EXPECT_NE(txt.find("tcfuzz tiling check --chip 'Ascend910B2'"), std::string::npos) << txt;
  // The minimized problem file, given to the tiler again, fails the same rule.
  std::string stem = first["reproducer"].get<std::string>();
  stem.resize(stem.size() - 4);
  const auto problem = ProblemFromJson(ReadFile(stem + ".problem.json").value());
  ASSERT_TRUE(problem.ok()) << problem.error();
  const auto again =
      Judge(problem.value(), B2(),
            ExternalTiler(o.tiler_command, 10s)(problem.value(), B2(), "Ascend910B2"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->rule, first["rule"].get<std::string>());
  // The tiler's answer was kept next to it, and reads back as the fixed tiling.
  EXPECT_EQ(ReadFile(stem + ".tiling.json").value(), ReadFile(dir + "/fixed.json").value());
}

}  // namespace
}  // namespace tcfuzz::suites
