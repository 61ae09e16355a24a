// Ascend TCubeTiling: the 200-byte image and its field offsets, the JSON forms, chip profiles,
// and validate() on tilings whose legality the reference states (../shared/reference/
// ascend-tcubetiling.md).
#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/tiling_rules.h"
#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::oracle::ascend {
namespace {

TEST(TCubeTilingImage, FiftyInt32FieldsInKernelOrder) {
  ASSERT_EQ(FieldNames().size(), 50u);
  // The reference's offset table (§1): index -> field.
  EXPECT_EQ(FieldNames()[0], "usedCoreNum");
  EXPECT_EQ(FieldNames()[17], "iterateOrder");
  EXPECT_EQ(FieldNames()[26], "stepKa");
  EXPECT_EQ(FieldNames()[30], "dbL0A");
  EXPECT_EQ(FieldNames()[33], "ALayoutInfoB");
  EXPECT_EQ(FieldNames()[48], "BatchNum");
  EXPECT_EQ(FieldNames()[49], "mxTypePara");
  TCubeTiling t;
  t[kMxTypePara] = 0x01020304;
  t[kUsedCoreNum] = -2;
  const auto img = ToImage(t);
  ASSERT_EQ(img.size(), 200u);
  EXPECT_EQ(img[196], 0x04);  // little-endian, byte offset 4 * 49
  EXPECT_EQ(img[199], 0x01);
  EXPECT_EQ(img[0], 0xFE);
  EXPECT_EQ(img[3], 0xFF);
  EXPECT_EQ(FromImage(img).value(), t);
  EXPECT_EQ(FromImage(std::vector<uint8_t>(199)).error(),
            "a TCubeTiling image is 200 bytes, got 199");
}

TEST(TCubeTilingJson, RoundTripAndOneLineErrors) {
  TCubeTiling t;
  for (int i = 0; i < kTilingFields; ++i) t.v[static_cast<std::size_t>(i)] = i * 3 - 7;
  EXPECT_EQ(FromJson(ToJson(t)).value(), t);
  std::string json = ToJson(t);
  EXPECT_EQ(FromJson("{").error().rfind("tiling JSON: not valid JSON (", 0), 0u);
  EXPECT_NE(FromJson(R"({"usedCoreNum": 1, "usedCoreNum": 2})").error().find("duplicate key"),
            std::string::npos);
  EXPECT_EQ(FromJson("[1]").error(),
            "tiling JSON: expected an object of the 50 TCubeTiling fields");
  EXPECT_EQ(FromJson(R"({"usedCoreNum": 1, "bogus": 2})").error(),
            "tiling JSON: unknown key 'bogus'");
  EXPECT_EQ(FromJson(R"({"usedCoreNum": 1})").error(), "tiling JSON: missing key 'M'");
  EXPECT_EQ(FromJson(R"({"M": 2147483648})").error(),
            "tiling JSON: M = 2147483648 is outside int32");
  EXPECT_EQ(FromJson(R"({"M": 1.5})").error(), "tiling JSON: M is not an integer");
}

TEST(ChipProfiles, NamesAndSizes) {
  const ChipProfile* b2 = FindChip("ascend910b2");  // case-insensitive
  ASSERT_NE(b2, nullptr);
  EXPECT_EQ(b2->name, "Ascend910B2");
  EXPECT_EQ(b2->l0c, 131072);  // Ascend910B2.ini
  EXPECT_EQ(b2->ub, 196608);
  EXPECT_EQ(b2->bias_table, 1024);
  EXPECT_EQ(b2->l1_platform, 524288);
  EXPECT_EQ(b2->l1, 524288 - 128);  // the kernel's TOTAL_L1_SIZE (K6)
  EXPECT_EQ(b2->ai_cores, 24);
  EXPECT_EQ(FindChip("Ascend910B4")->ai_cores, 20);
  EXPECT_EQ(FindChip("ASCEND310P3")->l0c, 256 * 1024);
  EXPECT_FALSE(FindChip("Ascend950")->confirmed);
  EXPECT_EQ(FindChip("Ascend999"), nullptr);
  for (const std::string_view n :
       {"Ascend910", "Ascend310P3", "Ascend910B1", "Ascend910B3", "Ascend910_93", "Ascend310B"}) {
    EXPECT_NE(FindChip(n), nullptr) << n;
  }
  auto custom = ChipFromJson(
      R"({"name":"mine","ai_cores":4,"l0a":65536,"l0b":65536,"l0c":131072,"l1":524288,"ub":196608})");
  ASSERT_TRUE(custom.ok()) << custom.error();
  EXPECT_EQ(custom.value().l1_platform, 524288);
  EXPECT_EQ(ChipFromJson(R"({"name":"x","ai_cores":4})").error(),
            "chip profile: missing key 'l0a'");
  EXPECT_EQ(ChipFromJson(R"({"name":"x","cores":4})").error(), "chip profile: unknown key 'cores'");
  // Every built-in profile reads back from its JSON form (what a tiler under test is given).
  for (const ChipProfile& c : ChipProfiles()) {
    const auto back = ChipFromJson(ChipToJson(c));
    ASSERT_TRUE(back.ok()) << back.error();
    const ChipProfile& b = back.value();
    EXPECT_EQ(std::tie(b.name, b.npu_arch, b.ai_cores, b.vector_cores, b.l0a, b.l0b, b.l0c, b.l1,
                       b.l1_platform, b.ub, b.bias_table, b.confirmed, b.note),
              std::tie(c.name, c.npu_arch, c.ai_cores, c.vector_cores, c.l0a, c.l0b, c.l0c, c.l1,
                       c.l1_platform, c.ub, c.bias_table, c.confirmed, c.note))
        << c.name;
  }
}

Problem Fp16(int64_t m, int64_t n, int64_t k, bool bias = false) {
  return testing::MakeProblem(m, n, k, DType::kFloat16, bias);
}
using testing::HuaweiUt;

TEST(TilingValidate, HuaweiKernelUtTilingIsLegal) {
  const auto r = Validate(Fp16(64, 256, 256, true), HuaweiUt(), *FindChip("Ascend910B2"));
  EXPECT_TRUE(r.hard.legal()) << r.hard.violations()[0].message;
}

TEST(TilingValidate, RulesOneAtATime) {
  const ChipProfile& chip = *FindChip("Ascend910B2");
  const Problem p = Fp16(64, 256, 256, true);
  const auto violates = [&](TCubeTiling t, const char* rule) {
    return Validate(p, t, chip).hard.Violates(rule);
  };
  TCubeTiling t = HuaweiUt();
  t[kUsedCoreNum] = 25;
  EXPECT_TRUE(violates(t, "tiling.used_core_num"));
  t = HuaweiUt();
  t[kStepKb] = 0;
  EXPECT_TRUE(violates(t, "tiling.positive"));
  t = HuaweiUt();
  t[kIterateOrder] = 2;
  EXPECT_TRUE(violates(t, "tiling.enum_values"));
  t = HuaweiUt();
  t[kBaseN] = 72;
  EXPECT_TRUE(violates(t, "tiling.base_alignment"));
  t = HuaweiUt();
  t[kDepthB1] = 3;
  EXPECT_TRUE(violates(t, "tiling.depth_step"));
  t = HuaweiUt();
  t[kBaseN] = 512, t[kSingleCoreN] = 512, t[kN] = 512;  // bias row 512 fp32 = 2 KB > 1 KB table
  EXPECT_TRUE(Validate(Fp16(64, 512, 256, true), t, chip).hard.Violates("tiling.bias_table"));
  t = HuaweiUt();
  t[kSingleCoreM] = 32;  // two M blocks, one core
  EXPECT_TRUE(violates(t, "tiling.too_few_cores"));
  t = HuaweiUt();
  t[kUsedCoreNum] = 3;  // K2: more cores than C blocks is only a warning
  EXPECT_FALSE(violates(t, "tiling.used_core_num"));
  EXPECT_TRUE(Validate(p, t, chip).warnings.Violates("tiling.warn.extra_cores"));
}

TEST(TilingValidate, MdlRules) {
  const ChipProfile& chip = *FindChip("Ascend910B2");
  Problem p = Fp16(64, 256, 256);
  p.schedule = Schedule::kMdl;
  TCubeTiling t = HuaweiUt();
  t[kIsBias] = 0;
  t[kBaseK] = 64, t[kStepKa] = 1, t[kStepKb] = 1, t[kStepM] = 2, t[kDepthA1] = 4, t[kBaseM] = 32;
  // K has 4 base blocks but A holds one in L1: stepM must be 1 (H10).
  EXPECT_TRUE(Validate(p, t, chip).hard.Violates("tiling.mdl_k_full"));
  t[kStepM] = 1, t[kDepthA1] = 2, t[kStepKa] = 3, t[kDepthA1] = 3, t[kStepKb] = 2, t[kDepthB1] = 4;
  // kaIter = ceil(256 / 192) = 2, kbIter = ceil(256 / 128) = 2: divisible; stepKa/stepKb 3/2 is K8.
  const auto r = Validate(p, t, chip);
  EXPECT_FALSE(r.hard.Violates("tiling.mdl_k_iter"));
  EXPECT_TRUE(r.warnings.Violates("tiling.warn.step_k"));
}

// H16: on 910 and 310P the kernel needs 0 < transLength and 2 x transLength <= UB always, and
// 4 x transLength <= UB when the matmul does not reuse UB (enableUBReuse false), which the tiling
// does not say: a warning. 310P3's UB is 256 KiB (Ascend310P3.ini); 910B has no such field rule.
TEST(TilingValidate, TransLengthOn310PAnd910) {
  const Problem p = Fp16(64, 256, 256, true);
  constexpr int32_t kUb = 256 * 1024;
  for (const char* name : {"Ascend310P3", "Ascend910"}) {
    const ChipProfile& chip = *FindChip(name);
    ASSERT_EQ(chip.ub, kUb) << name;
    for (const auto& [trans, hard, warned] : std::vector<std::tuple<int32_t, bool, bool>>{
             {0, true, false},
             {-32, true, false},
             {kUb / 4, false, false},
             {kUb / 4 + 32, false, true},
             {kUb / 2, false, true},
             {kUb / 2 + 32, true, false},
         }) {
      TCubeTiling t = HuaweiUt();
      t[kTransLength] = trans;
      const TilingVerdict v = Validate(p, t, chip);
      EXPECT_EQ(v.hard.Violates("tiling.trans_length"), hard) << name << " " << trans;
      EXPECT_EQ(v.warnings.Violates("tiling.warn.trans_length"), warned) << name << " " << trans;
    }
  }
  TCubeTiling t = HuaweiUt();
  t[kTransLength] = kUb;
  const TilingVerdict b2 = Validate(p, t, *FindChip("Ascend910B2"));
  EXPECT_FALSE(b2.hard.Violates("tiling.trans_length"));
  EXPECT_FALSE(b2.warnings.Violates("tiling.warn.trans_length"));
}

TEST(TilingValidate, NdInnerDimensionAndNzAreTheProblemsContract) {
  const ChipProfile& chip = *FindChip("Ascend910B2");
  TCubeTiling t = HuaweiUt();
  Problem p = Fp16(64, 256, 70008);
  t[kKa] = t[kKb] = t[kSingleCoreK] = 70008, t[kIsBias] = 0;
  EXPECT_EQ(ValidateProblem(p, chip).RuleIds(), std::set<std::string>{"problem.nd_inner_dim"});
  EXPECT_FALSE(Validate(p, t, chip).legal());
  p.trans_a = true;  // A's inner dimension is now M; B (not transposed) stays inner in N = 256
  p.b_format = Format::kNZ;
  // 70008 % 16 (C0 of fp16) = 8: NZ B's K is off its fractal grid.
  EXPECT_EQ(ValidateProblem(p, chip).RuleIds(), std::set<std::string>{"problem.nz_alignment"});
  EXPECT_EQ(ValidateProblem(p, chip).violations()[0].message,
            "NZ B needs N % 16 == 0 and K % 16 == 0; N = 256, K = 70008");
  p.k = 70016;  // aligned: inside the contract, and the tiling rules are judged again
  t[kKa] = t[kKb] = t[kSingleCoreK] = 70016;
  EXPECT_TRUE(Validate(p, t, chip).in_contract());
}

TEST(TilingValidate, ProblemContractRules) {
  // 310P: N * sizeof(C) a multiple of 32 B: fp32 C needs N % 8, fp16 C N % 16.
  const ChipProfile& p3 = *FindChip("Ascend310P3");
  Problem p = Fp16(16, 8, 16);
  EXPECT_TRUE(ValidateProblem(p, p3).legal());  // 8 * 4 B = 32 B
  p.n = 12;
  EXPECT_TRUE(ValidateProblem(p, p3).Violates("problem.310p_output"));  // 48 B
  EXPECT_TRUE(ValidateProblem(p, *FindChip("Ascend910B2")).legal());    // 910B has no such rule
  p.c = DType::kFloat16, p.n = 24;
  EXPECT_TRUE(ValidateProblem(p, p3).Violates("problem.310p_output"));  // 48 B
  // NZ granules: int8 A's C0 is 32, fp32's 8.
  Problem q = testing::MakeProblem(32, 32, 48, DType::kInt8);
  q.a_format = Format::kNZ;
  EXPECT_TRUE(ValidateProblem(q, p3).Violates("problem.nz_alignment"));  // 48 % 32
  q.k = 64;
  EXPECT_TRUE(ValidateProblem(q, p3).legal());
  Problem f = testing::MakeProblem(32, 32, 24, DType::kFloat32);
  f.b_format = Format::kNZ;
  EXPECT_TRUE(ValidateProblem(f, *FindChip("Ascend910B2")).legal());  // 24 % 8 == 0
  f.n = 40;                                                           // 40 % 16 != 0
  EXPECT_TRUE(ValidateProblem(f, *FindChip("Ascend910B2")).Violates("problem.nz_alignment"));
  // The tiling check refuses to judge: the verdict has no hard violations, and is not legal.
  const TilingVerdict v = Validate(f, TCubeTiling{}, *FindChip("Ascend910B2"));
  EXPECT_FALSE(v.in_contract());
  EXPECT_TRUE(v.hard.legal());
  EXPECT_FALSE(v.legal());
}

TEST(TilingProblem, JsonAndErrors) {
  const std::string good =
      R"({"M":64,"N":256,"K":256,"aType":"float16","bType":"float16","cType":"float32","biasType":"float32",)"
      R"("aFormat":"ND","bFormat":"NZ","transA":false,"transB":true,"isBias":true,"schedule":"mdl"})";
  auto p = ProblemFromJson(good);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p.value().b_format, Format::kNZ);
  EXPECT_TRUE(p.value().trans_b);
  EXPECT_EQ(ProblemFromJson(ProblemToJson(p.value())).value().schedule, Schedule::kMdl);
  EXPECT_EQ(ProblemFromJson(R"({"M":1})").error(), "problem: missing key 'N'");
  std::string bad = good;
  bad.replace(bad.find("float16"), 7, "float64");
  EXPECT_EQ(ProblemFromJson(bad).error(),
            "problem: aType must be float16, bfloat16, float32, int8, int32 or int4");
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
