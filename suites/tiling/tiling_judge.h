// Judging a tiler's answer, and shrinking a problem while the same judgement holds.
//
// Every fault of an answer is its own finding: each violated hard rule (`tiling.*`, once per
// rule), each fault the simulation finds (`tiling.sim.*`), a tiler that crashed, hung or
// babbled (`tiler.*`). A problem outside the contract (`problem.*`) is judged apart: a refusal
// is correct, an answer is a warning, and its tiling is not judged.
#pragma once

#include <string>
#include <vector>

#include "oracle/ascend/chip_profile.h"
#include "oracle/ascend/tiling_rules.h"
#include "suites/tiling/tiler.h"

namespace tcfuzz::suites {

struct Finding {
  std::string rule;      // tiling.*, tiling.sim.*, problem.*, tiler.*
  std::string reason;    // what must stay the same while minimizing: the field at fault, the
                         // operand and layout read out of range, the problem rule
  std::string message;   // with the numbers: which bytes, which budget, by how much
  bool warning = false;  // an answer to a problem outside the contract
};

// Every finding of one answer, at most one per rule; empty for a clean answer or a refusal.
std::vector<Finding> Judge(const oracle::ascend::Problem& p,
                           const oracle::ascend::ChipProfile& chip, const TilerAnswer& a);
// The same for a tiling whose verdict the caller already has (the fuzz loop also counts its
// warnings: one validation per answer).
std::vector<Finding> JudgeTiling(const oracle::ascend::Problem& p,
                                 const oracle::ascend::TCubeTiling& t,
                                 const oracle::ascend::TilingVerdict& v);

// What a finding means for kernels, in a sentence or two: which kernel modes it affects (tails
// clipped as the samples' SetTail does or not, vector-core-driven kernels), the accesses out of
// range under each, and for L1 which budget the tiler planned against. tiler_l1: the L1 size
// the tiler was told (0: the platform's).
std::string Consequence(const oracle::ascend::Problem& p, const oracle::ascend::ChipProfile& chip,
                        const oracle::ascend::TCubeTiling& t, const Finding& f, int64_t tiler_l1);

// Shrinks `p` (each of M, N, K towards 1, then bias, transposes, formats, schedule and types
// towards the simplest) while the tiler's answer still has `f`'s rule for the same reason and
// the problem stays in its contract class (inside, or outside by the same rules); at most
// `budget` tiler calls.
oracle::ascend::Problem MinimizeProblem(const oracle::ascend::Problem& p,
                                        const oracle::ascend::ChipProfile& chip,
                                        const std::string& chip_arg, const Tiler& tiler,
                                        const Finding& f, int budget);

// Whether a judged tiling is past the symbolic simulation's budget (validated only).
bool TooLargeToSimulate(const oracle::ascend::Problem& p, const oracle::ascend::TCubeTiling& t);

}  // namespace tcfuzz::suites
