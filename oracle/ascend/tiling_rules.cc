#include "oracle/ascend/tiling_rules.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "oracle/ascend/k_loop.h"
#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/tiling_math.h"
#include "oracle/core/json_reader.h"
#include "oracle/core/span.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::oracle::ascend {
namespace {

// Sections cite docs/ascend-tiling.md (its rows name the CANN source each comes from).
constexpr Rule kCores{"tiling.used_core_num", "docs/ascend-tiling.md H1 (TCubeTiling doc)",
                      "1 <= usedCoreNum <= the chip's AI cores"};
constexpr Rule kPositive{"tiling.positive", "docs/ascend-tiling.md H2 (doc; kernel asserts)",
                         "singleCore*, base*, depth*, step* are all > 0"};
constexpr Rule kL0A{"tiling.l0a_fit", "docs/ascend-tiling.md H3 (kernel CheckTiling)",
                    "baseM*baseK*sizeof(A)*(2 if L0 ping-pong) <= L0A"};
constexpr Rule kL0B{"tiling.l0b_fit", "docs/ascend-tiling.md H3 (kernel CheckTiling)",
                    "baseN*baseK*sizeof(B)*(2 if L0 ping-pong) <= L0B"};
constexpr Rule kL0C{"tiling.l0c_fit", "docs/ascend-tiling.md H4", "baseM*baseN*4*dbL0C <= L0C"};
constexpr Rule kBias{"tiling.bias_table", "docs/ascend-tiling.md H5",
                     "with bias: baseN*sizeof(bias) <= bias table"};
constexpr Rule kBaseAlign{
    "tiling.base_alignment", "docs/ascend-tiling.md H6 (doc)",
    "baseM, baseN multiples of 16; baseK of C0 (A not transposed, B transposed) else of 16"};
constexpr Rule kL1{"tiling.l1_fit", "docs/ascend-tiling.md H7 (doc, GetTiling)",
                   "depthA1*baseM*baseK*sz(A) + depthB1*baseN*baseK*sz(B) (+ bias row) <= the "
                   "platform's L1"};
constexpr Rule kL1Kernel{"tiling.l1_kernel_reserve", "docs/ascend-tiling.md H7, K6 (kernel)",
                         "the L1 blocks also stay below the bytes the kernel reserves at the top "
                         "of L1 (TOTAL_L1_SIZE)"};
constexpr Rule kDepth{"tiling.depth_step", "docs/ascend-tiling.md H8 (doc)",
                      "depthA1 = stepM*stepKa*db, depthB1 = stepN*stepKb*db, db in {1,2}"};
constexpr Rule kMdlDepth{"tiling.mdl_depth", "docs/ascend-tiling.md H9 (kernel DepthCheck)",
                         "MDL: depth divisible by step product, quotient <= 2"};
constexpr Rule kMdlKFull{"tiling.mdl_k_full", "docs/ascend-tiling.md H10 (doc, KLoopMDLBase)",
                         "MDL: K not fully in L1 for A (B) needs stepM (stepN) = 1"};
constexpr Rule kMdlKIter{"tiling.mdl_k_iter", "docs/ascend-tiling.md H11",
                         "MDL: kaIter and kbIter divide one another"};
constexpr Rule kMdlKLoop{
    "tiling.mdl_k_loop", "docs/ascend-tiling.md H9-H11, K8 (the kernel's MDL K loop, derived)",
    "MDL: the K loop multiplies every K column once, from the L1 chunk the copy loaded"};
constexpr Rule kEnums{"tiling.enum_values", "docs/ascend-tiling.md H12",
                      "iterateOrder, isBias in {0,1}; dbL0A/B/C in {1,2}"};
constexpr Rule kNz{"tiling.nz_alignment", "docs/ascend-tiling.md H13 (doc)",
                   "NZ operands: singleCoreM (A), singleCoreN (B) multiples of 16; singleCoreK of "
                   "C0"};
constexpr Rule kStepDepth{"tiling.step_le_depth",
                          "docs/ascend-tiling.md H14 (GetTiling CheckFinalParams)",
                          "stepM <= depthA1, stepN <= depthB1; share sizes within their buffers"};
constexpr Rule kTransLengthRule{"tiling.trans_length",
                                "docs/ascend-tiling.md H16 (kernel, arch 2002/1001)",
                                "910 and 310P: 0 < transLength and 2*transLength <= UB"};
constexpr Rule kShareModeRule{"tiling.share_mode", "docs/ascend-tiling.md H17",
                              "shareMode 1: every L0 tile within half its buffer"};
constexpr Rule kMmad{"tiling.mmad_limits", "docs/ascend-tiling.md H18 (Mmad)",
                     "baseM, baseN, baseK <= 4095"};
constexpr Rule kShape{"tiling.shape", "docs/ascend-tiling.md fields (M, N, Ka, Kb)",
                      "M, N, Ka, Kb equal the problem's M, N, K, K"};
constexpr Rule kSingle{"tiling.single_core", "docs/ascend-tiling.md fields",
                       "singleCoreM <= M, singleCoreN <= N, singleCoreK = K"};
constexpr Rule kBiasFlag{"tiling.bias_flag", "docs/ascend-tiling.md fields (isBias)",
                         "isBias matches the problem"};
constexpr Rule kCoverage{
    "tiling.too_few_cores", "docs/ascend-tiling.md tiling.too_few_cores (kernel mapping)",
    "usedCoreNum >= ceil(M/singleCoreM)*ceil(N/singleCoreN): every C block has a core"};

constexpr Rule kWExtraCores{
    "tiling.warn.extra_cores", "docs/ascend-tiling.md K2",
    "usedCoreNum > the C blocks: extra cores compute out of range unless the kernel guards"};
constexpr Rule kWBaseK{"tiling.warn.base_k", "docs/ascend-tiling.md soft rule",
                       "GetTiling emits baseK as a multiple of C0"};
constexpr Rule kWStepK{"tiling.warn.step_k", "docs/ascend-tiling.md K8",
                       "stepKa and stepKb multiples of each other"};
constexpr Rule kWDbL0C{"tiling.warn.db_l0c", "docs/ascend-tiling.md K7 (host)",
                       "GetTiling always emits dbL0C = 1"};
constexpr Rule kWTransLength{
    "tiling.warn.trans_length", "docs/ascend-tiling.md H16 (kernel, enableUBReuse false)",
    "910 and 310P: 4*transLength <= UB, which a matmul that does not reuse UB needs"};

constexpr std::array<const Rule*, 24> kHard = {
    &kCores,         &kPositive, &kL0A,      &kL0B,    &kL0C,       &kBias,
    &kBaseAlign,     &kL1,       &kL1Kernel, &kDepth,  &kMdlDepth,  &kMdlKFull,
    &kMdlKIter,      &kMdlKLoop, &kEnums,    &kNz,     &kStepDepth, &kTransLengthRule,
    &kShareModeRule, &kMmad,     &kShape,    &kSingle, &kBiasFlag,  &kCoverage};
constexpr std::array<const Rule*, 5> kSoft = {&kWExtraCores, &kWBaseK, &kWStepK, &kWDbL0C,
                                              &kWTransLength};

constexpr std::array<std::pair<DType, std::string_view>, 6> kTypes = {
    {{DType::kFloat16, "float16"},
     {DType::kBFloat16, "bfloat16"},
     {DType::kFloat32, "float32"},
     {DType::kInt8, "int8"},
     {DType::kInt32, "int32"},
     {DType::kInt4, "int4"}}};

}  // namespace

std::string_view Name(DType t) {
  for (const auto& [x, n] : kTypes) {
    if (x == t) return n;
  }
  return "?";
}
std::optional<DType> ParseDType(std::string_view s) {
  for (const auto& [x, n] : kTypes) {
    if (n == s) return x;
  }
  return std::nullopt;
}
int64_t SizeTimes2(DType t) {
  switch (t) {
    case DType::kFloat16:
    case DType::kBFloat16:
      return 4;
    case DType::kFloat32:
    case DType::kInt32:
      return 8;
    case DType::kInt8:
      return 2;
    case DType::kInt4:
      return 1;
  }
  return 2;
}
int64_t C0(DType t) { return 64 / SizeTimes2(t); }

Span<const Rule* const> TilingRules() { return kHard; }
Span<const Rule* const> TilingWarnings() { return kSoft; }

Result<Problem> ProblemFromJson(std::string_view json) {
  using R = Result<Problem>;
  const auto parsed = ParseJson(json);
  if (!parsed.ok()) return R::Fail("problem: " + parsed.error());
  const nlohmann::json& j = parsed.value();
  if (!j.is_object()) return R::Fail("problem: not a JSON object");
  static const std::array<std::string_view, 13> kKeys = {
      "M",       "N",       "K",      "aType",  "bType",  "cType",   "biasType",
      "aFormat", "bFormat", "transA", "transB", "isBias", "schedule"};
  for (const auto& [key, value] : j.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      return R::Fail("problem: unknown key " + Quoted(key));
  }
  for (std::string_view key : kKeys) {
    if (!j.contains(std::string(key)))
      return R::Fail("problem: missing key '" + std::string(key) + "'");
  }
  Problem p;
  for (auto [key, dst] : {std::pair{"M", &p.m}, std::pair{"N", &p.n}, std::pair{"K", &p.k}}) {
    if (!j[key].is_number_integer() || j[key].get<int64_t>() < 1 ||
        j[key].get<int64_t>() > (int64_t{1} << 31) - 1) {
      return R::Fail(std::string("problem: ") + key + " must be an integer in 1..2^31-1");
    }
    *dst = j[key].get<int64_t>();
  }
  for (auto [key, dst] : {std::pair{"aType", &p.a}, std::pair{"bType", &p.b},
                          std::pair{"cType", &p.c}, std::pair{"biasType", &p.bias}}) {
    const auto t = j[key].is_string() ? ParseDType(j[key].get<std::string>()) : std::nullopt;
    if (!t)
      return R::Fail(std::string("problem: ") + key +
                     " must be float16, bfloat16, float32, int8, int32 or int4");
    *dst = *t;
  }
  for (auto [key, dst] : {std::pair{"aFormat", &p.a_format}, std::pair{"bFormat", &p.b_format}}) {
    const std::string v = j[key].is_string() ? j[key].get<std::string>() : "";
    if (v != "ND" && v != "NZ")
      return R::Fail(std::string("problem: ") + key + " must be ND or NZ");
    *dst = v == "NZ" ? Format::kNZ : Format::kND;
  }
  for (auto [key, dst] : {std::pair{"transA", &p.trans_a}, std::pair{"transB", &p.trans_b},
                          std::pair{"isBias", &p.is_bias}}) {
    if (!j[key].is_boolean())
      return R::Fail(std::string("problem: ") + key + " must be true or false");
    *dst = j[key].get<bool>();
  }
  const std::string sched = j["schedule"].is_string() ? j["schedule"].get<std::string>() : "";
  if (sched != "norm" && sched != "mdl") return R::Fail("problem: schedule must be norm or mdl");
  p.schedule = sched == "mdl" ? Schedule::kMdl : Schedule::kNorm;
  return R::Ok(p);
}

std::string ProblemToJson(const Problem& p) {
  nlohmann::ordered_json j;
  j["M"] = p.m;
  j["N"] = p.n;
  j["K"] = p.k;
  j["aType"] = std::string(Name(p.a));
  j["bType"] = std::string(Name(p.b));
  j["cType"] = std::string(Name(p.c));
  j["biasType"] = std::string(Name(p.bias));
  j["aFormat"] = p.a_format == Format::kNZ ? "NZ" : "ND";
  j["bFormat"] = p.b_format == Format::kNZ ? "NZ" : "ND";
  j["transA"] = p.trans_a;
  j["transB"] = p.trans_b;
  j["isBias"] = p.is_bias;
  j["schedule"] = p.schedule == Schedule::kMdl ? "mdl" : "norm";
  return j.dump() + "\n";
}

TilingVerdict Validate(const Problem& p, const TCubeTiling& t, const ChipProfile& chip) {
  TilingVerdict r;
  r.problem = ValidateProblem(p, chip);
  if (!r.problem.legal()) return r;  // no tiling can serve it: the tiling rules are not judged
  Verdict& v = r.hard;
  const auto field = [&](Field f) { return int64_t{t[f]}; };
  const auto add = [&](Verdict& to, const Rule& rule, Field f, const std::string& msg) {
    to.Add(rule, std::string(FieldNames()[static_cast<std::size_t>(f)]),
           static_cast<uint64_t>(static_cast<uint32_t>(t[f])), msg);
  };
  const int64_t sM = field(kSingleCoreM), sN = field(kSingleCoreN), sK = field(kSingleCoreK);
  const int64_t bM = field(kBaseM), bN = field(kBaseN), bK = field(kBaseK);
  const int64_t dA = field(kDepthA1), dB = field(kDepthB1);
  const int64_t stM = field(kStepM), stN = field(kStepN), stKa = field(kStepKa),
                stKb = field(kStepKb);
  // H1.
  if (field(kUsedCoreNum) < 1 || field(kUsedCoreNum) > chip.ai_cores) {
    add(v, kCores, kUsedCoreNum,
        "usedCoreNum " + std::to_string(field(kUsedCoreNum)) + " outside 1.." +
            std::to_string(chip.ai_cores));
  }
  // H2: the rules below divide by these, so stop at the first non-positive one.
  for (Field f : {kSingleCoreM, kSingleCoreN, kSingleCoreK, kBaseM, kBaseN, kBaseK, kDepthA1,
                  kDepthB1, kStepM, kStepN, kStepKa, kStepKb}) {
    if (field(f) <= 0) {
      add(v, kPositive, f,
          std::string(FieldNames()[static_cast<std::size_t>(f)]) + " = " +
              std::to_string(field(f)));
      return r;
    }
  }
  // H12.
  for (Field f : {kIterateOrder, kIsBias}) {
    if (field(f) != 0 && field(f) != 1)
      add(v, kEnums, f, std::string(FieldNames()[static_cast<std::size_t>(f)]) + " not 0/1");
  }
  for (Field f : {kDbL0A, kDbL0B, kDbL0C}) {
    if (field(f) != 1 && field(f) != 2)
      add(v, kEnums, f, std::string(FieldNames()[static_cast<std::size_t>(f)]) + " not 1/2");
  }
  // Shapes.
  if (field(kM) != p.m || field(kN) != p.n || field(kKa) != p.k || field(kKb) != p.k) {
    add(v, kShape, kM,
        "M/N/Ka/Kb = " + std::to_string(field(kM)) + "/" + std::to_string(field(kN)) + "/" +
            std::to_string(field(kKa)) + "/" + std::to_string(field(kKb)) + " for a " +
            std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) +
            " problem");
  }
  if (sM > p.m)
    add(v, kSingle, kSingleCoreM,
        "singleCoreM " + std::to_string(sM) + " > M " + std::to_string(p.m) +
            ": a kernel that does not clip its tail reads A rows and writes C rows past M");
  if (sN > p.n)
    add(v, kSingle, kSingleCoreN,
        "singleCoreN " + std::to_string(sN) + " > N " + std::to_string(p.n) +
            ": a kernel that does not clip its tail reads B columns and writes C columns past N");
  if (sK != p.k)
    add(v, kSingle, kSingleCoreK,
        "singleCoreK " + std::to_string(sK) + " differs from K " + std::to_string(p.k));
  if (field(kIsBias) != (p.is_bias ? 1 : 0))
    add(v, kBiasFlag, kIsBias, "isBias does not match the problem");
  // H3/H4: the L0 ping-pong is on only when both dbL0A and dbL0B are 2 (kernel).
  const int64_t fL0 = field(kDbL0A) == 2 && field(kDbL0B) == 2 ? 2 : 1;
  if (SatMul({bM, bK, SizeTimes2(p.a), fL0}) > 2 * chip.l0a)
    add(v, kL0A, kBaseM, "A tile needs more than L0A " + std::to_string(chip.l0a));
  if (SatMul({bN, bK, SizeTimes2(p.b), fL0}) > 2 * chip.l0b)
    add(v, kL0B, kBaseN, "B tile needs more than L0B " + std::to_string(chip.l0b));
  if (SatMul({bM, bN, 4, std::max<int64_t>(1, field(kDbL0C))}) > chip.l0c)
    add(v, kL0C, kBaseN, "C tile needs more than L0C " + std::to_string(chip.l0c));
  // H5.
  if (p.is_bias && chip.bias_table > 0 && bN * SizeTimes2(p.bias) > 2 * chip.bias_table) {
    add(v, kBias, kBaseN, "bias row of " + std::to_string(bN) + " elements exceeds the bias table");
  }
  // H6.
  const int64_t k_align = (!p.trans_a && p.trans_b) ? C0(p.a) : 16;
  if (bM % 16 || bN % 16 || bK % k_align)
    add(v, kBaseAlign, kBaseK,
        "baseM/baseN must be multiples of 16, baseK of " + std::to_string(k_align));
  // H7.
  const int64_t l1_2x =
      SatAdd(SatAdd(SatMul({dA, bM, bK, SizeTimes2(p.a)}), SatMul({dB, bN, bK, SizeTimes2(p.b)})),
             p.is_bias ? bN * SizeTimes2(p.bias) : 0);
  // Two budgets (K6): the platform's L1, and below it what the kernel leaves free of its reserved
  // top bytes. Which one broke, and by how much, is what a tiler's author needs.
  const int64_t l1_bytes = l1_2x / 2 + l1_2x % 2;  // saturated l1_2x: no overflow
  const int64_t platform = chip.l1_platform, kernel = std::min(chip.l1, chip.l1_platform);
  if (l1_bytes > platform) {
    add(v, kL1, kDepthA1,
        "L1 blocks need " + std::to_string(l1_bytes) + " B, " +
            std::to_string(l1_bytes - platform) + " B over the platform's L1 of " +
            std::to_string(platform) + " B");
  } else if (l1_bytes > kernel) {
    add(v, kL1Kernel, kDepthA1,
        "L1 blocks need " + std::to_string(l1_bytes) + " B: within the platform's " +
            std::to_string(platform) + " B but " + std::to_string(l1_bytes - kernel) +
            " B into the top " + std::to_string(platform - kernel) +
            " B the kernel reserves (TOTAL_L1_SIZE = " + std::to_string(kernel) + " B)");
  }
  // H8.
  const auto depth_ok = [](int64_t depth, int64_t steps) {
    return depth == steps || depth == SatMul({2, steps});
  };
  if (!depth_ok(dA, SatMul({stM, stKa})) || !depth_ok(dB, SatMul({stN, stKb})))
    add(v, kDepth, kDepthA1, "depth is not step product x 1 or 2");
  // H9-H11 (MDL).
  if (p.schedule == Schedule::kMdl) {
    if (dA % (stM * stKa) || dA / (stM * stKa) > 2 || dB % (stN * stKb) || dB / (stN * stKb) > 2) {
      add(v, kMdlDepth, kDepthA1, "MDL depth not a 1x or 2x multiple of the step product");
    }
    const int64_t k_iter = CeilDiv(sK, bK);
    if ((k_iter > stKa && stM != 1) || (k_iter > stKb && stN != 1))
      add(v, kMdlKFull, kStepM, "K not fully in L1 needs step 1");
    const int64_t ka = CeilDiv(sK, bK * stKa), kb = CeilDiv(sK, bK * stKb);
    if (ka % kb != 0 && kb % ka != 0) {
      add(v, kMdlKIter, kStepKa,
          "kaIter " + std::to_string(ka) + " and kbIter " + std::to_string(kb) + " do not divide");
    } else if (auto fault = KLoopFault(p, t)) {  // one root cause, one rule: only once H11 holds
      add(v, kMdlKLoop, kStepKa, *fault);
    }
  }
  // H13.
  // H13 (the problem's own M, N, K alignment is problem.nz_alignment, checked above).
  if (p.a_format == Format::kNZ && sM % 16)
    add(v, kNz, kSingleCoreM,
        "NZ A with singleCoreM " + std::to_string(sM) + ", not a multiple of the 16-row fractal");
  if (p.b_format == Format::kNZ && sN % 16)
    add(v, kNz, kSingleCoreN,
        "NZ B with singleCoreN " + std::to_string(sN) + ", not a multiple of the 16-row fractal");
  for (const auto& [nz, c0] : {std::pair{p.a_format == Format::kNZ, C0(p.a)},
                               std::pair{p.b_format == Format::kNZ, C0(p.b)}}) {
    if (nz && sK % c0) {
      add(v, kNz, kSingleCoreK,
          "NZ operand with singleCoreK " + std::to_string(sK) + ", not a multiple of C0 " +
              std::to_string(c0));
      break;
    }
  }
  // H14.
  if (stM > dA || stN > dB || field(kShareL1Size) > chip.l1_platform ||
      field(kShareL0CSize) > chip.l0c || field(kShareUbSize) > chip.ub) {
    add(v, kStepDepth, kStepM, "step above depth or share size above its buffer");
  }
  // H16 (310P's output rule on N is problem.310p_output).
  // The kernel needs 2x unconditionally, 4x only when UB is not reused (a warning: the tiling
  // does not say which the matmul does).
  const bool trans_arch = chip.npu_arch == 1001 || chip.npu_arch == 2002;
  if (trans_arch && (field(kTransLength) <= 0 || 2 * field(kTransLength) > chip.ub)) {
    add(v, kTransLengthRule, kTransLength,
        "transLength " + std::to_string(field(kTransLength)) +
            ": must be positive and 2x it <= UB " + std::to_string(chip.ub));
  }
  // H17.
  if (field(kShareMode) == 1 &&
      (SatMul({bM, bK, SizeTimes2(p.a)}) > chip.l0a ||
       SatMul({bN, bK, SizeTimes2(p.b)}) > chip.l0b || SatMul({bM, bN, 4}) > chip.l0c / 2)) {
    add(v, kShareModeRule, kShareMode, "shareMode 1 with an L0 tile above half its buffer");
  }
  // H18.
  if (bM > 4095 || bN > 4095 || bK > 4095)
    add(v, kMmad, kBaseK, "a base size above the Mmad limit 4095");
  // Coverage by cores.
  const int64_t blocks = CeilDiv(p.m, sM) * CeilDiv(p.n, sN);
  if (field(kUsedCoreNum) < blocks)
    add(v, kCoverage, kUsedCoreNum,
        std::to_string(blocks) + " C blocks, " + std::to_string(field(kUsedCoreNum)) + " cores");
  // Warnings.
  Verdict& w = r.warnings;
  if (field(kUsedCoreNum) > blocks)
    add(w, kWExtraCores, kUsedCoreNum,
        std::to_string(field(kUsedCoreNum) - blocks) + " cores without a C block");
  if (bK % C0(p.a)) add(w, kWBaseK, kBaseK, "baseK not a multiple of " + std::to_string(C0(p.a)));
  if (stKa % stKb && stKb % stKa)
    add(w, kWStepK, kStepKa, "stepKa and stepKb are not multiples of each other");
  if (trans_arch && 2 * field(kTransLength) <= chip.ub && 4 * field(kTransLength) > chip.ub)
    add(w, kWTransLength, kTransLength,
        "transLength " + std::to_string(field(kTransLength)) + ": 4x it > UB " +
            std::to_string(chip.ub) + " (fine only when the matmul reuses UB)");
  if (field(kDbL0C) != 1) add(w, kWDbL0C, kDbL0C, "dbL0C = " + std::to_string(field(kDbL0C)));
  return r;
}

}  // namespace tcfuzz::oracle::ascend
