// What a device's tensor-core arithmetic is, decided from its own results: a grid of candidate
// parameter rows (F, L, e_zero, rounding, the sign of a zero D, C fused or fp8 through f16 MMAs)
// and dot-product probes chosen so that every two candidates the probes can tell apart give a
// different D on at least one of them. `tcfuzz discover` runs the probes on a GPU; `oracle
// readings --ingest` keeps the candidates its results leave (docs/discover.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/numerics/dot_product.h"

namespace tcfuzz::suites::discover {

// One instruction's arithmetic for one type pair: the question a set of probes answers.
struct NumericsQuestion {
  oracle::num::Instr instr;
  oracle::num::Format ab;    // A and B
  oracle::num::Format cd;    // C and D
  int k;                     // products in one dot product (the instruction's K)
  std::string Name() const;  // "mma e4m3 -> f32"
};

// mma.sync (sm_80 on; fp8 sm_89 on) and wgmma (sm_90a): every float type pair with f32 and,
// where the instruction takes it, f16 D.
std::vector<NumericsQuestion> NumericsQuestions();

struct CandidateRow {
  std::string name;  // "F25 L16 e_zero -133 rz_f32 -0:no via-f16"
  oracle::num::DotParams params;
};
// The grid: F in {12, 13, 14, 22, ..., 26}, L in {4, 8, 16, 32} (at most K), e_zero in {-131, -132,
// -133}, the roundings the accumulator takes, -0 or not, and for fp8 the f16-MMA path or native.
// Every row of the oracle's table for the question is one of them (a test holds it).
std::vector<CandidateRow> CandidateRows(const NumericsQuestion& q);

// One dot product: K values of A and of B (bit patterns in q.ab) and C (in q.cd).
struct Probe {
  std::vector<uint64_t> a, b;
  uint32_t c = 0;
};

// The deciding probes, deterministic for a question: drawn from a pool of structured vectors
// (terms many binades apart, cancellations, zero products beside huge factors, negative zeros,
// C below the alignment) and kept greedily while one splits two candidates no earlier one did.
std::vector<Probe> DecidingProbes(const NumericsQuestion& q);

// D of a probe under a candidate.
uint32_t ProbeD(const NumericsQuestion& q, const Probe& p, const oracle::num::DotParams& params);

}  // namespace tcfuzz::suites::discover
