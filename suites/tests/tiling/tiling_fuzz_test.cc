// tcfuzz tiling fuzz: the reference tiler fuzzes clean; tilers with planted faults (in process
// and as commands) are caught under every rule they break, each minimized to the smallest
// failing problem of the same contract class, and written up as reproducers that fail again
// from the files alone. Problems outside the contract never count as tiling failures.
#include "suites/tiling/tiling_fuzz.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "generators/ascend/tcube_tiling_gen.h"
#include "generators/core/random_source.h"
#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/reference_tiler.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::ascend;
using namespace std::chrono_literals;

const ChipProfile& B2() { return testing::Ascend910B2(); }

std::string Rules(const std::vector<Finding>& fs) {
  std::string s;
  for (const Finding& f : fs) s += f.rule + " ";
  return s;
}
const Finding* FindRule(const std::vector<Finding>& fs, const std::string& rule) {
  for (const Finding& f : fs) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

// The reference tiler with a planted change to its answers.
Tiler Planted(std::function<void(const Problem&, TCubeTiling&)> change) {
  return [change](const Problem& p, const ChipProfile& chip, const std::string& arg) {
    TilerAnswer a = ReferenceTilerUnderTest()(p, chip, arg);
    if (a.kind == TilerAnswer::Kind::kTiling) change(p, a.tiling);
    return a;
  };
}

// baseK 4080 once K passes 300. The smallest failing problem is therefore K = 301 with M = N = 1,
// everything else at its simplest; 4080-wide A tiles overflow L0A (16 * 4080 * 2 B * 2 buffers >
// 64 KiB).
Tiler PlantedBaseK() {
  return Planted([](const Problem& p, TCubeTiling& t) {
    if (p.k > 300) t[kBaseK] = 4080;
  });
}

// An aligned NZ A given an unaligned split: singleCoreM = ceil(M / 3) (M = 256 gives 86, as the
// CANN tiler did), so the last core's 16-row fractal reads go past A.
Tiler PlantedNzSplit() {
  return Planted([](const Problem& p, TCubeTiling& t) {
    if (p.a_format != Format::kNZ || p.m < 32) return;
    const int64_t sm = (p.m + 2) / 3;
    t[kSingleCoreM] = static_cast<int32_t>(sm);
    t[kBaseM] = static_cast<int32_t>(std::min<int64_t>(t[kBaseM], (sm + 15) / 16 * 16));
    t[kUsedCoreNum] = static_cast<int32_t>(((p.m + sm - 1) / sm) *
                                           ((p.n + t[kSingleCoreN] - 1) / t[kSingleCoreN]));
  });
}

// A tiler that plans against the platform's L1 (524288 B on 910B) instead of the kernel's.
Tiler PlantedPlatformL1() {
  return [](const Problem& p, const ChipProfile& chip, const std::string&) {
    ChipProfile platform = chip;
    platform.l1 = chip.l1_platform;
    TilerAnswer a;
    auto t = MakeTiling(p, platform);
    a.kind = t.ok() ? TilerAnswer::Kind::kTiling : TilerAnswer::Kind::kRefused;
    if (t.ok()) a.tiling = t.value();
    return a;
  };
}

// Answers every problem, inside the contract or not, with one core doing all of it in 16 x 16 x
// 16 tiles: legal on any problem inside the contract whose fractal sizes it meets.
Tiler ContractBlind() {
  return [](const Problem& p, const ChipProfile&, const std::string&) {
    TilerAnswer a;
    a.kind = TilerAnswer::Kind::kTiling;
    a.tiling = testing::MakeTiling(p, p.m, p.n, 16, 16, 16);
    return a;
  };
}

std::string Script(const std::string& dir, const std::string& name, const std::string& body) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

nlohmann::json Summary(const TilingFuzzOptions& o) {
  return nlohmann::json::parse(ReadFile(o.out_dir + "/summary.json").value());
}

// The report's findings by rule id.
std::map<std::string, nlohmann::json> FindingsByRule(const TilingFuzzOptions& o) {
  std::map<std::string, nlohmann::json> by_rule;
  const auto summary = Summary(o);
  for (const auto& f : summary["findings"]) by_rule[f["rule"].get<std::string>()] = f;
  return by_rule;
}

// A tiler's answer `t` to `p` on 910B2, judged.
std::vector<Finding> JudgeOnB2(const Problem& p, const TCubeTiling& t) {
  TilerAnswer a;
  a.kind = TilerAnswer::Kind::kTiling, a.tiling = t;
  return Judge(p, B2(), a);
}

TEST(TilingFuzz, ReferenceTilerRunsCleanAndRefusesEveryProblemOutsideTheContract) {
  TilingFuzzOptions o;
  o.seed = 20261122, o.cases = 400, o.out_dir = test::TempDir("tf_clean");
  std::ostringstream log;
  EXPECT_EQ(RunTilingFuzz(o, log), 0) << log.str();
  EXPECT_NE(log.str().find("seed 20261122"), std::string::npos);
  const auto j = Summary(o);
  EXPECT_EQ(j["cases"], 400);
  EXPECT_EQ(j["answered"].get<int>() + j["refused"].get<int>(), 400);
  EXPECT_GT(j["answered"].get<int>(), 250);  // most problems are inside the contract
  EXPECT_GT(j["out_of_contract"].get<int>(), 20);
  EXPECT_EQ(j["refused_out_of_contract"], j["out_of_contract"]);
  EXPECT_TRUE(j["findings"].empty());
  EXPECT_FALSE(j["interrupted"].get<bool>());
}

TEST(TilingFuzz, PlantedFaultIsMinimizedToTheSmallestFailingProblem) {
  Problem p = testing::MakeProblem(4095, 257, 1000, DType::kBFloat16, true);
  p.trans_a = true, p.schedule = Schedule::kMdl;
  const Tiler tiler = PlantedBaseK();
  const auto fs = Judge(p, B2(), tiler(p, B2(), "Ascend910B2"));
  const Finding* f = FindRule(fs, "tiling.l0a_fit");
  ASSERT_TRUE(f) << Rules(fs);
  const Problem m = MinimizeProblem(p, B2(), "Ascend910B2", tiler, *f, 400);
  EXPECT_EQ(ProblemToJson(m), ProblemToJson(testing::MakeProblem(1, 1, 301)));
  // Without the fault nothing fails, and a budget of 0 leaves the problem as it was.
  EXPECT_TRUE(Judge(p, B2(), ReferenceTilerUnderTest()(p, B2(), "")).empty());
  EXPECT_EQ(ProblemToJson(MinimizeProblem(p, B2(), "", tiler, *f, 0)), ProblemToJson(p));
}

TEST(TilingFuzz, EveryRuleAnAnswerBreaksIsCountedWithItsOwnReproducer) {
  // Two faults at once: iterateOrder 2 on every answer (tiling.enum_values, which the validator
  // meets first) and baseK 4080 past K = 300 (tiling.l0a_fit).
  TilingFuzzOptions o;
  o.tiler = Planted([](const Problem& p, TCubeTiling& t) {
    t[kIterateOrder] = 2;
    if (p.k > 300) t[kBaseK] = 4080;
  });
  o.chip_arg = "Ascend910B2", o.chip = B2();
  o.seed = 7, o.cases = 150, o.out_dir = test::TempDir("tf_every");
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  // The expected counts, from the reference tiler and the drawn problems alone.
  uint64_t answered = 0, long_k = 0;
  for (uint64_t i = 0; i < o.cases; ++i) {
    gen::RandomSource src(gen::CaseSeed(o.seed, "tiling-fuzz", i));
    const Problem p = gen::DrawTilingProblem(src, B2());
    if (!MakeTiling(p, B2()).ok()) continue;
    ++answered;
    long_k += p.k > 300;
  }
  ASSERT_GT(long_k, 10u);
  ASSERT_GT(answered, long_k);
  auto by_rule = FindingsByRule(o);
  ASSERT_TRUE(by_rule.count("tiling.enum_values")) << log.str();
  ASSERT_TRUE(by_rule.count("tiling.l0a_fit")) << log.str();
  EXPECT_EQ(by_rule["tiling.enum_values"]["count"], answered);
  EXPECT_EQ(by_rule["tiling.l0a_fit"]["count"], long_k);
  // Each reproducer shows its own rule: the L0A one keeps K past 300, the other shrinks to 1.
  EXPECT_EQ(by_rule["tiling.l0a_fit"]["problem"]["K"], 301);
  EXPECT_EQ(by_rule["tiling.enum_values"]["problem"]["K"], 1);
  for (const auto& [rule, f] : by_rule) {
    const std::string txt = ReadFile(o.out_dir + "/" + f["reproducer"].get<std::string>()).value();
    EXPECT_EQ(txt.rfind("tcfuzz tiling fuzz finding: " + rule + "\n", 0), 0u) << txt;
  }
}

TEST(TilingFuzz, ProblemsOutsideTheContractAreNeverTilingFailures) {
  TilingFuzzOptions o;
  o.tiler = ContractBlind();
  o.seed = 11, o.cases = 300, o.out_dir = test::TempDir("tf_contract");
  std::ostringstream log;
  RunTilingFuzz(o, log);
  const auto j = Summary(o);
  ASSERT_GT(j["out_of_contract"].get<int>(), 20);
  std::set<std::string> problem_rules;
  for (const auto& f : j["findings"]) {
    const std::string rule = f["rule"], cls = f["problem_class"];
    if (rule.starts_with("problem.")) {
      problem_rules.insert(rule);
      EXPECT_EQ(f["severity"], "warning") << rule;
      // Minimized, still outside the contract by the same rule.
      EXPECT_EQ(cls.rfind("outside the contract: ", 0), 0u) << f.dump();
      EXPECT_NE(cls.find(rule), std::string::npos) << f.dump();
    } else {
      EXPECT_EQ(f["severity"], "error") << rule;
      EXPECT_EQ(cls, "inside the contract") << f.dump();
    }
  }
  EXPECT_TRUE(problem_rules.count("problem.nz_alignment")) << log.str();
  EXPECT_TRUE(problem_rules.count("problem.nd_inner_dim")) << log.str();
  EXPECT_TRUE(problem_rules.count("problem.310p_output")) << log.str();
  // Case by case: an answer to a problem outside the contract gives problem.* warnings only.
  for (uint64_t i = 0; i < 300; ++i) {
    gen::RandomSource src(gen::CaseSeed(o.seed, "tiling-fuzz", i));
    const ChipProfile& chip = ChipProfiles()[src.Below(ChipProfiles().size())];
    const Problem p = gen::DrawTilingProblem(src, chip);
    if (ValidateProblem(p, chip).legal()) continue;
    for (const Finding& f : Judge(p, chip, o.tiler(p, chip, chip.name))) {
      EXPECT_TRUE(f.warning && f.rule.starts_with("problem.")) << f.rule << " " << ProblemToJson(p);
    }
  }
}

TEST(TilingFuzz, AnUnalignedSplitOfAnAlignedNzOperandIsAnOverReadAndStaysNz) {
  // The case: M = 256 bf16 NZ A split into singleCoreM 86. K = 64: A is 256 x 64 x 2 B
  // = 32768 B; the last core reads rows [172, 172 + 96) in 16-row units: 12 rows past M, each
  // 16 elements (C0 of bf16) of 2 B in the last K block, so bytes [32768, 33152).
  Problem p = testing::MakeProblem(256, 64, 64, DType::kBFloat16);
  p.a_format = Format::kNZ;
  const auto fs = Judge(p, B2(), PlantedNzSplit()(p, B2(), "Ascend910B2"));
  const Finding* rule = FindRule(fs, "tiling.nz_alignment");
  const Finding* read = FindRule(fs, "tiling.sim.read_past_a");
  ASSERT_TRUE(rule && read) << Rules(fs);
  EXPECT_NE(read->message.find("core 2 reads rows [172, 268) of M = 256: bytes [32768, 33152) "
                               "past A's 32768 bytes"),
            std::string::npos)
      << read->message;
  EXPECT_EQ(read->reason, "A NZ");
  // Minimized, the over-read keeps NZ A and an aligned M (ND or an unaligned M would be another
  // kind of finding).
  TilingFuzzOptions o;
  o.tiler = PlantedNzSplit();
  o.chip_arg = "Ascend910B2", o.chip = B2();
  o.seed = 5, o.cases = 200, o.out_dir = test::TempDir("tf_nz");
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  auto by_rule = FindingsByRule(o);
  for (const char* id : {"tiling.nz_alignment", "tiling.sim.read_past_a"}) {
    ASSERT_TRUE(by_rule.count(id)) << id << "\n" << log.str();
    const auto& f = by_rule[id];
    EXPECT_EQ(f["problem_class"], "inside the contract") << id;
    EXPECT_EQ(f["problem"]["aFormat"], "NZ") << id;
    // The fault needs M >= 32, and the minimizer walks M in 16-row steps: exactly 32.
    EXPECT_EQ(f["problem"]["M"], 32) << id;
    // The fractal over-read happens whether or not the kernel clips its tails.
    EXPECT_EQ(f["consequence"].get<std::string>().rfind(
                  "kernels that clip their tails (SetTail, as the samples do): A (NZ, read in "
                  "16-row fractals)",
                  0),
              0u)
        << f["consequence"];
  }
}

TEST(TilingFuzz, PlanningAgainstThePlatformL1SaysWhichBudgetBrokeAndByHowMuch) {
  // fp16 M = N = 128, K = 4096 on 910B: 128 x 128 x 128 blocks of 32 KiB each for A and B, 8 of
  // each fit 524288 B exactly (the platform's L1) and 7 fit the kernel's 524160 B.
  const Problem p = testing::MakeProblem(128, 128, 4096);
  const auto fs = Judge(p, B2(), PlantedPlatformL1()(p, B2(), "Ascend910B2"));
  ASSERT_EQ(fs.size(), 1u) << Rules(fs);
  EXPECT_EQ(fs[0].rule, "tiling.l1_kernel_reserve");
  EXPECT_EQ(fs[0].message,
            "L1 blocks need 524288 B: within the platform's 524288 B but 128 B into the top 128 B "
            "the kernel reserves (TOTAL_L1_SIZE = 524160 B)");
  const TCubeTiling t = PlantedPlatformL1()(p, B2(), "").tiling;
  const std::string c = Consequence(p, B2(), t, fs[0], 0);
  EXPECT_NE(c.find("kernels driven by their vector cores (MIX mode)"), std::string::npos) << c;
  EXPECT_NE(c.find("the tiler was told L1 = 524288 B"), std::string::npos) << c;
  EXPECT_TRUE(Judge(p, B2(), ReferenceTilerUnderTest()(p, B2(), "")).empty());
  // Fuzzed, it is the one rule that tiler breaks, and its reproducer keeps it: inside the
  // contract, all 524288 B planned.
  TilingFuzzOptions o;
  o.tiler = PlantedPlatformL1();
  o.chip_arg = "Ascend910B2", o.chip = B2();
  o.seed = 1, o.cases = 1500, o.out_dir = test::TempDir("tf_l1");
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  const auto j = Summary(o);
  ASSERT_EQ(j["findings"].size(), 1u) << log.str();
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["rule"], "tiling.l1_kernel_reserve");
  EXPECT_EQ(f["problem_class"], "inside the contract");
  EXPECT_NE(f["message"].get<std::string>().find("into the top 128 B the kernel reserves"),
            std::string::npos)
      << f["message"];
}

TEST(TilingFuzz, SingleCoreLargerThanTheProblemIsHarmlessOnlyWhereTailsAreClipped) {
  // The CANN tiler's M = N = K = 1 answer: singleCoreM = 16. A clipping kernel computes the one
  // row; one that walks whole singleCore blocks reads A rows [1, 16) and writes C rows past C.
  const Problem p = testing::MakeProblem(1, 1, 1);
  TCubeTiling t = MakeTiling(p, B2()).value();
  t[kSingleCoreM] = 16;
  const auto fs = JudgeOnB2(p, t);
  ASSERT_EQ(fs.size(), 1u) << Rules(fs);
  EXPECT_EQ(fs[0].rule, "tiling.single_core");
  const std::string c = Consequence(p, B2(), t, fs[0], 0);
  EXPECT_EQ(c.rfind("kernels that clip their tails (SetTail, as the samples do): no access "
                    "outside A, B or C",
                    0),
            0u)
      << c;
  EXPECT_NE(c.find("Kernels that do not: A (ND): core 0 reads rows [0, 16) of M = 1"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("writes C rows [0, 16)"), std::string::npos) << c;
}

TEST(TilingFuzz, AHugeSingleCoreBlockIsNotWalkedTileByTile) {
  // singleCoreM = 2^31 - 1: kernels that clip walk M rows, those that do not would walk 2^31
  // rows in 16-row tiles. The consequence says "not simulated" at once instead.
  const Problem p = testing::MakeProblem(64, 64, 64);
  TCubeTiling t = MakeTiling(p, B2()).value();
  t[kSingleCoreM] = 2147483647;
  const auto fs = JudgeOnB2(p, t);
  const Finding* f = FindRule(fs, "tiling.single_core");
  ASSERT_TRUE(f) << Rules(fs);
  const std::string c = Consequence(p, B2(), t, *f, 0);
  EXPECT_NE(c.find("Kernels that do not: not simulated (too many tiles)"), std::string::npos) << c;
}

TEST(TilingFuzz, ConsequencesSayWhatTheSimulationDoesNotModel) {
  const Problem p = testing::MakeProblem(64, 64, 512);
  TCubeTiling t = MakeTiling(p, B2()).value();
  t[kBaseK] = 4080;  // L0A overflow: a buffer size, not something the walk sees
  const Finding f{"tiling.l0a_fit", "baseM", "A tile needs more than L0A 65536"};
  const std::string c = Consequence(p, B2(), t, f, 0);
  EXPECT_NE(c.find("tiling.l0a_fit is not simulated"), std::string::npos) << c;
}

TEST(TilingFuzz, CommandTilersThatCrashHangOrBabbleAreFindings) {
  const std::string dir = test::TempDir("tf_cmd");
  const Problem p = testing::MakeProblem(64, 64, 64);
  const auto judge = [&](const std::string& body, std::chrono::milliseconds timeout = 10s) {
    const auto fs =
        Judge(p, B2(), ExternalTiler(Script(dir, "t.sh", body), timeout)(p, B2(), "Ascend910B2"));
    return fs.empty() ? Finding{"none", "", ""} : fs[0];
  };
  EXPECT_EQ(judge("kill -SEGV $$").rule, "tiler.crash");
  EXPECT_EQ(judge("echo boom >&2; exit 3").message, "exit 3: boom");
  EXPECT_EQ(judge("exec sleep 30", 200ms).rule, "tiler.hang");
  EXPECT_EQ(judge("echo hello").rule, "tiler.garbage");
  EXPECT_EQ(judge("echo '{\"usedCoreNum\": 1}'").message, "tiling JSON: missing key 'M'");
  EXPECT_EQ(judge("echo '{}'; exit 1").rule, "tiler.garbage");  // a refusal says nothing on stdout
  EXPECT_EQ(judge("echo 'no tiling for you' >&2; exit 1").rule, "none");  // a refusal is fine
  // A 200-byte image is an answer too: all zeros breaks usedCoreNum first.
  EXPECT_EQ(judge("head -c 200 /dev/zero").rule, "tiling.used_core_num");
  // The tiler sees the problem on stdin, the chip in TCFUZZ_CHIP, the L1 in TCFUZZ_L1_SIZE.
  const std::string answer = dir + "/answer.json";
  ASSERT_TRUE(WriteFileAtomic(answer, ToJson(MakeTiling(p, B2()).value())).ok());
  EXPECT_EQ(judge("grep -q '\"M\":64' && [ \"$TCFUZZ_CHIP\" = Ascend910B2 ] && "
                  "[ \"$TCFUZZ_L1_SIZE\" = 524288 ] && cat " +
                  answer)
                .rule,
            "none");
}

// The lines protocol (issue 34: a process per problem cost a CANN wrapper 45 ms a call): one
// process, a request line in, an answer line out. What it gets wrong is a finding as with a
// process per problem, and the next problem starts it afresh.
TEST(TilingFuzz, ALongLivedTilerAnswersALineAPerProblem) {
  const std::string dir = test::TempDir("tf_lines");
  const Problem p = testing::MakeProblem(64, 64, 64);
  const std::string answer = nlohmann::json::parse(ToJson(MakeTiling(p, B2()).value())).dump();
  // Each request carries the problem, the chip's name and profile and the L1 size; this one
  // checks them and answers with the reference tiling, counting its requests in a file.
  const std::string good =
      Script(dir, "good.sh",
             "[ \"$TCFUZZ_TILER_PROTOCOL\" = lines ] || exit 9\n"
             "while read -r line; do\n"
             "  echo x >> " +
                 dir +
                 "/calls\n"
                 "  case \"$line\" in "
                 "*'\"problem\":{\"M\":64,'*'\"chip\":\"Ascend910B2\"'*'\"l1_size\":524288}')\n"
                 "    printf '{\"tiling\":%s}\\n' '" +
                 answer +
                 "';;\n"
                 "  *) echo '{\"refused\":\"not the request\"}';;\n"
                 "  esac\n"
                 "done\n");
  const Tiler tiler = ExternalTiler(good, 10s, 0, TilerProtocol::kLines);
  for (int i = 0; i < 3; ++i) {
    const TilerAnswer a = tiler(p, B2(), "Ascend910B2");
    EXPECT_EQ(a.kind, TilerAnswer::Kind::kTiling) << a.detail;
    EXPECT_TRUE(Judge(p, B2(), a).empty());
  }
  EXPECT_EQ(ReadFile(dir + "/calls").value(), "x\nx\nx\n");  // one process, three answers
  const auto judge = [&](const std::string& body, std::chrono::milliseconds timeout = 10s) {
    const auto fs = Judge(p, B2(),
                          ExternalTiler(Script(dir, "t.sh", body), timeout, 0,
                                        TilerProtocol::kLines)(p, B2(), "Ascend910B2"));
    return fs.empty() ? Finding{"none", "", ""} : fs[0];
  };
  EXPECT_EQ(judge("read -r l; echo boom >&2; exit 3").message, "exit 3: boom");
  EXPECT_EQ(judge("read -r l; kill -SEGV $$").rule, "tiler.crash");
  EXPECT_EQ(judge("read -r l; exec sleep 30", 200ms).rule, "tiler.hang");
  EXPECT_EQ(judge("read -r l; echo hello; sleep 30").rule, "tiler.garbage");
  EXPECT_EQ(judge("read -r l; echo '{\"tiling\":{\"usedCoreNum\":1}}'; sleep 30").message,
            "tiling JSON: missing key 'M'");
  EXPECT_EQ(judge("read -r l; echo '{\"refused\":\"no\"}'; sleep 30").rule, "none");
  // A key given twice, or a line past the output cap, is garbage as in a per-problem answer; a
  // tiler whose stderr is closed still answers.
  EXPECT_EQ(judge("read -r l; echo '{\"refused\":\"a\",\"refused\":\"b\"}'; sleep 30").rule,
            "tiler.garbage");
  EXPECT_EQ(judge("read -r l; head -c 2000000 /dev/zero | tr '\\0' x; sleep 30").rule,
            "tiler.garbage");
  EXPECT_EQ(judge("exec 2>&-; read -r l; echo '{\"refused\":\"no\"}'; sleep 30").rule, "none");
  // A tiler that died is started again for the next problem.
  const Tiler once = ExternalTiler(Script(dir, "once.sh", "read -r l; echo '{\"refused\":\"no\"}'"),
                                   10s, 0, TilerProtocol::kLines);
  EXPECT_EQ(once(p, B2(), "Ascend910B2").kind, TilerAnswer::Kind::kRefused);
  EXPECT_EQ(once(p, B2(), "Ascend910B2").kind, TilerAnswer::Kind::kCrash);  // exit 0, no line
  EXPECT_EQ(once(p, B2(), "Ascend910B2").kind, TilerAnswer::Kind::kRefused);
}

// The example tiler speaks both protocols: the same seed gives the same counts either way.
TEST(TilingFuzz, TheExampleTilerAnswersAlikeInBothProtocols) {
  const std::string dir = test::TempDir("tf_both");
  nlohmann::json summaries[2];
  for (const TilerProtocol protocol : {TilerProtocol::kProcess, TilerProtocol::kLines}) {
    TilingFuzzOptions o;
    o.tiler_command = ShellQuote(EXAMPLE_TILER_BIN);
    o.protocol = protocol;
    o.seed = 20261127, o.cases = 150;
    o.out_dir = dir + (protocol == TilerProtocol::kLines ? "/lines" : "/process");
    std::ostringstream log;
    EXPECT_EQ(RunTilingFuzz(o, log), 0) << log.str();
    summaries[protocol == TilerProtocol::kLines] = Summary(o);
  }
  EXPECT_EQ(summaries[1]["tiler_protocol"], "lines");
  for (const char* key : {"cases", "in_contract", "answered", "refused", "refused_out_of_contract",
                          "warnings", "refusals_in_contract", "findings"})
    EXPECT_EQ(summaries[0][key], summaries[1][key]) << key;
  EXPECT_GT(summaries[1]["answered"].get<int>(), 100);
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
  const auto j = Summary(o);
  EXPECT_GT(j["refused"].get<int>(), 0);
  EXPECT_EQ(j["findings"][0]["rule"], "tiler.crash");
}

TEST(TilingFuzz, ReproducersRerunFromTheirFolderWithAQuotedTilerPath) {
  const std::string dir = test::TempDir("tf_repro");
  // A command tiler, at a path with a quote and a space, that answers every problem with the
  // same fixed tiling (the answer to 64 x 64 x 64): wrong shapes for almost every other problem.
  const Problem p = testing::MakeProblem(64, 64, 64);
  ASSERT_TRUE(WriteFileAtomic(dir + "/fixed.json", ToJson(MakeTiling(p, B2()).value())).ok());
  TilingFuzzOptions o;
  o.tiler_command =
      ShellQuote(Script(dir, "it's a tiler.sh", "cat > /dev/null; cat " + dir + "/fixed.json"));
  o.chip_arg = "Ascend910B2", o.chip = B2();
  o.seed = 3, o.cases = 40, o.out_dir = dir + "/report";
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  const auto j = Summary(o);
  ASSERT_FALSE(j["findings"].empty());
  int checked = 0;
  for (const auto& f : j["findings"]) {
    EXPECT_EQ(f["chip"], "Ascend910B2");
    const std::string txt = ReadFile(o.out_dir + "/" + f["reproducer"].get<std::string>()).value();
    EXPECT_NE(txt.find("seed: 3, case "), std::string::npos) << txt;
    // The rerun line, run by the shell from the reproducer folder, answers with the kept tiling.
    const std::string marker = "rerun the tiler (from this folder):\n  ";
    const auto at = txt.find(marker);
    ASSERT_NE(at, std::string::npos) << txt;
    const std::string rerun =
        txt.substr(at + marker.size(), txt.find('\n', at + marker.size()) - at - marker.size());
    const auto r =
        RunCommand("cd " + ShellQuote(o.out_dir + "/reproducers") + " && " + rerun, "", {});
    ASSERT_TRUE(r.ok()) << rerun << "\n" << r.err;
    EXPECT_EQ(r.out, ReadFile(dir + "/fixed.json").value());
    // The minimized problem file, given to the tiler again, fails the same rule.
    std::string stem = o.out_dir + "/" + f["reproducer"].get<std::string>();
    stem.resize(stem.size() - 4);
    const auto problem = ProblemFromJson(ReadFile(stem + ".problem.json").value());
    ASSERT_TRUE(problem.ok()) << problem.error();
    const auto again = Judge(problem.value(), B2(),
                             ExternalTiler(o.tiler_command, 10s)(problem.value(), B2(), ""));
    EXPECT_TRUE(FindRule(again, f["rule"])) << f["rule"] << ": " << Rules(again);
    EXPECT_EQ(ReadFile(stem + ".tiling.json").value(), ReadFile(dir + "/fixed.json").value());
    ++checked;
  }
  EXPECT_GT(checked, 1);
}

TEST(TilingFuzz, ARerunReplacesThePreviousReportAndRefusesAForeignFolder) {
  const std::string dir = test::TempDir("tf_rerun");
  TilingFuzzOptions o;
  o.tiler = PlantedBaseK();
  o.seed = 9, o.cases = 60, o.out_dir = dir + "/report";
  std::ostringstream log;
  ASSERT_EQ(RunTilingFuzz(o, log), 1) << log.str();
  ASSERT_FALSE(std::filesystem::is_empty(o.out_dir + "/reproducers"));
  // The clean rerun leaves no reproducer of the first run beside its empty findings.
  o.tiler = nullptr;
  ASSERT_EQ(RunTilingFuzz(o, log), 0) << log.str();
  EXPECT_TRUE(Summary(o)["findings"].empty());
  EXPECT_FALSE(std::filesystem::exists(o.out_dir + "/reproducers"));
  // A folder of something else is not replaced.
  o.out_dir = test::TempDir("tf_rerun_foreign");
  std::ofstream(o.out_dir + "/notes.txt") << "mine\n";
  std::ostringstream refused;
  EXPECT_EQ(RunTilingFuzz(o, refused), 2);
  EXPECT_NE(refused.str().find("notes.txt"), std::string::npos) << refused.str();
  EXPECT_EQ(ReadFile(o.out_dir + "/notes.txt").value(), "mine\n");
}

TEST(TilingFuzz, AStopRequestEndsTheRunWithAnInterruptedReport) {
  // SIGTERM arrives during case 20 (sent by the tiler itself, so the test is deterministic): the
  // run stops before case 21, keeps what it found and says it was interrupted.
  TilingFuzzOptions o;
  int calls = 0;
  o.tiler = [&calls](const Problem& p, const ChipProfile& chip, const std::string& arg) {
    if (++calls == 21) std::raise(SIGTERM);
    return PlantedBaseK()(p, chip, arg);
  };
  o.seed = 2, o.cases = 500, o.out_dir = test::TempDir("tf_stop");
  std::ostringstream log;
  EXPECT_EQ(RunTilingFuzz(o, log), 128 + SIGTERM) << log.str();
  // The minimizer stops too: after the signal, one call per rule that case breaks (the answer
  // kept for its reproducer), not hundreds of minimizing calls.
  EXPECT_LE(calls, 30);
  const auto j = Summary(o);
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_LT(j["cases"].get<int>(), 500);
  EXPECT_NE(log.str().find("INTERRUPTED (signal 15)"), std::string::npos) << log.str();
}

}  // namespace
}  // namespace tcfuzz::suites
