#include "suites/checks/tcube_tiling_checks.h"

#include <string>

#include "oracle/ascend/tiling_math.h"
#include "oracle/ascend/tiling_sim.h"

namespace tcfuzz::suites {

using namespace oracle::ascend;

namespace {

// The symbolic simulation walks every C tile: cases past 4096 tiles are validated only, which
// keeps the fuzzer near 10^4 cases a second (the per-tile walk is the same code at any count;
// the oracle tests cover 2^17 tiles).
constexpr int64_t kMaxSimTiles = int64_t{1} << 12;
// The numeric simulation multiplies every element; it runs below this M*N*K.
constexpr int64_t kMaxNumericMacs = int64_t{1} << 16;

}  // namespace

CheckFailures CheckTiling(const gen::GeneratedTiling& g) {
  CheckFailures out;
  const TCubeTiling& t = g.tiling;
  if (auto back = FromImage(ToImage(t)); !back.ok() || !(back.value() == t)) {
    out.push_back({"tiling.image_round_trip", "the 200-byte image does not read back"});
  }
  if (auto back = FromJson(ToJson(t)); !back.ok() || !(back.value() == t)) {
    out.push_back({"tiling.json_round_trip", "the JSON form does not read back"});
  }
  if (auto back = ProblemFromJson(ProblemToJson(g.problem)); !back.ok()) {
    out.push_back(
        {"tiling.problem_round_trip", "the problem JSON does not read back: " + back.error()});
  }
  const TilingVerdict v = Validate(g.problem, t, *g.chip);
  if (g.intent == gen::Intent::kLegal && !g.tiler_refused && !v.hard.legal()) {
    out.push_back({"tiling.reference_tiler_legal",
                   "the reference tiler's answer on " + g.chip->name + " breaks " +
                       std::string(v.hard.violations()[0].rule->id) + ": " +
                       v.hard.violations()[0].message});
  }
  if (!v.legal() || v.warnings.Violates("tiling.warn.extra_cores")) return out;
  const int64_t tiles = CeilDiv(g.problem.m, t[kBaseM]) * CeilDiv(g.problem.n, t[kBaseN]);
  if (tiles > kMaxSimTiles) return out;
  const bool numeric = g.problem.m * g.problem.n * g.problem.k <= kMaxNumericMacs;
  const SimResult r = Simulate(g.problem, t, numeric);
  if (!r.clean)
    out.push_back({"tiling.legal_simulates_cleanly",
                   "legal tiling on " + g.chip->name + ": " + r.findings[0].message});
  return out;
}

}  // namespace tcfuzz::suites
