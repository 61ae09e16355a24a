// The matmul problem a tiling answers, and validate(problem, tiling, chip): every hard rule of
// ../shared/reference/ascend-tcubetiling.md §3 that the problem description can express (H1-H14,
// H16-H18 and the shape rules; the problem's own limits are problem_contract.h), with `<=` where
// the code and kernel asserts use it (K1), in 64-bit arithmetic; producer-specific soft rules come
// back separately as warnings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oracle/ascend/chip_profile.h"
#include "oracle/ascend/tcube_tiling.h"
#include "oracle/core/result.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"

namespace tcfuzz::oracle::ascend {

enum class DType { kFloat16, kBFloat16, kFloat32, kInt8, kInt32, kInt4 };
enum class Format { kND, kNZ };
enum class Schedule { kNorm, kMdl };

std::string_view Name(DType t);
std::optional<DType> ParseDType(std::string_view s);  // float16 bfloat16 float32 int8 int32 int4
int64_t SizeTimes2(DType t);  // bytes per element x 2 (int4 = 1, so half a byte stays exact)
int64_t C0(DType t);          // 32 bytes / element size: 16, 16, 8, 32, 8, 64

struct Problem {
  int64_t m = 0, n = 0, k = 0;
  DType a = DType::kFloat16, b = DType::kFloat16, c = DType::kFloat32, bias = DType::kFloat32;
  Format a_format = Format::kND, b_format = Format::kND;
  bool trans_a = false, trans_b = false, is_bias = false;
  Schedule schedule = Schedule::kNorm;
};

// The problem file: keys M N K aType bType cType biasType aFormat bFormat transA transB isBias
// schedule; unknown or missing keys and bad values are one-line errors.
Result<Problem> ProblemFromJson(std::string_view json);
std::string ProblemToJson(const Problem& p);

Span<const Rule* const> TilingRules();
Span<const Rule* const> TilingWarnings();

struct TilingVerdict {
  Verdict problem;   // problem.* (problem_contract.h): outside the contract, nothing else is judged
  Verdict hard;      // a violation here is a wrong tiling
  Verdict warnings;  // what GetTiling never emits but the kernel tolerates
  bool in_contract() const { return problem.legal(); }
  bool legal() const { return in_contract() && hard.legal(); }
};

// The problem's contract first; on a problem inside it, every hard rule and warning.
TilingVerdict Validate(const Problem& p, const TCubeTiling& t, const ChipProfile& chip);

}  // namespace tcfuzz::oracle::ascend
