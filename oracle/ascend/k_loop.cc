#include "oracle/ascend/k_loop.h"

#include <algorithm>

#include "oracle/ascend/tiling_math.h"

namespace tcfuzz::oracle::ascend {
namespace {

// KLoopMDLBase's loop parameters, in baseK units unless named *_cols (K columns).
struct Mdl {
  int64_t sK, bK, sa, sb, c0;
  int64_t k_iter, min_step, fa, fb, outer_a, outer_b, out_iter, tail_k, tail_a_cols, tail_b_cols;
};

Mdl MakeMdl(const Problem& p, const TCubeTiling& t) {
  Mdl m{};
  m.sK = t[kSingleCoreK], m.bK = t[kBaseK], m.sa = t[kStepKa], m.sb = t[kStepKb], m.c0 = C0(p.a);
  m.k_iter = CeilDiv(m.sK, m.bK);
  m.min_step = std::min(m.sa, m.sb);
  m.fa = m.sa / m.min_step, m.fb = m.sb / m.min_step;  // integer division, as the kernel does (K8)
  m.outer_a = CeilDiv(m.sK, SatMul({m.bK, m.sa})), m.outer_b = CeilDiv(m.sK, SatMul({m.bK, m.sb}));
  m.out_iter = std::max(m.outer_a, m.outer_b);
  m.tail_k = m.sK % m.bK == 0 ? m.bK : m.sK % m.bK;
  const auto tail = [&](int64_t step) {
    const int64_t chunk = SatMul({m.bK, step});
    return m.sK % chunk == 0 ? chunk : m.sK % chunk;
  };
  m.tail_a_cols = tail(m.sa), m.tail_b_cols = tail(m.sb);
  return m;
}

// Length in K columns of chunk c of an operand with `outer` chunks of `step` baseK steps.
int64_t ChunkCols(const Mdl& m, int64_t c, int64_t outer, int64_t tail_cols, int64_t step) {
  return c + 1 >= outer ? tail_cols : SatMul({step, m.bK});
}

// Outer iteration o: append its inner steps to `steps` and return the first fault.
std::optional<std::string> MdlOuter(const Mdl& m, int64_t o, std::vector<KStep>* steps) {
  const int64_t start = SatMul({o, m.min_step});  // innerStartIdx_
  // The inner loop's length comes from the chunks that truly hold `start`...
  const int64_t tile = std::min(ChunkCols(m, start / m.sa, m.outer_a, m.tail_a_cols, m.sa),
                                ChunkCols(m, start / m.sb, m.outer_b, m.tail_b_cols, m.sb));
  const int64_t base = o + 1 == m.k_iter ? m.tail_k : m.bK;
  const int64_t block = CeilDiv(base, m.c0) * m.c0;  // steps are cut in whole C0 blocks
  int64_t inner = tile / block, inner_tail = tile - inner * block;
  if (inner_tail == 0) {
    inner_tail = block;
  } else {
    ++inner;
  }
  // ...but the copy loaded chunk o / factor of each operand (GetOuterKaIdx / GetOuterKbIdx).
  const int64_t ca = o / m.fa, cb = o / m.fb;
  const int64_t a0 = SatMul({ca, m.sa, m.bK}),
                a1 = SatAdd(a0, ChunkCols(m, ca, m.outer_a, m.tail_a_cols, m.sa));
  const int64_t b0 = SatMul({cb, m.sb, m.bK}),
                b1 = SatAdd(b0, ChunkCols(m, cb, m.outer_b, m.tail_b_cols, m.sb));
  const int64_t want0 = SatMul({start, m.bK}),
                want1 = std::min(SatMul({SatAdd(start, m.min_step), m.bK}), m.sK);
  int64_t at = want0;
  const auto where = [o] { return "MDL K loop, outer iteration " + std::to_string(o) + ": "; };
  for (int64_t j = 0; j < inner; ++j) {
    // Without a step list, the middle steps can be skipped: if the second step follows the first,
    // every middle step does (len = base = baseK), and only the ends meet the chunk edges.
    if (!steps && j == 2 && inner > 4) {
      j = inner - 2;
      at = SatMul({SatAdd(start, j), m.bK});
    }
    const int64_t k0 = SatMul({SatAdd(start, j), m.bK}), len = j + 1 == inner ? inner_tail : base;
    const int64_t k1 = SatAdd(k0, len);
    if (k0 != at) {
      return where() + "K columns [" + std::to_string(std::min(at, k0)) + ", " +
             std::to_string(std::max(at, k0)) + ") " +
             (k0 > at ? "are never multiplied" : "are multiplied twice");
    }
    if (k1 > m.sK)
      return where() + "reads K columns up to " + std::to_string(k1) + " past singleCoreK " +
             std::to_string(m.sK);
    if (k0 < a0 || k1 > a1) {
      return where() + "needs A's K columns [" + std::to_string(k0) + ", " + std::to_string(k1) +
             ") but its L1 holds chunk " + std::to_string(ca) + " = [" + std::to_string(a0) + ", " +
             std::to_string(a1) + ") (K8)";
    }
    if (k0 < b0 || k1 > b1) {
      return where() + "needs B's K columns [" + std::to_string(k0) + ", " + std::to_string(k1) +
             ") but its L1 holds chunk " + std::to_string(cb) + " = [" + std::to_string(b0) + ", " +
             std::to_string(b1) + ") (K8)";
    }
    if (steps) steps->push_back({k0, len});
    at = k1;
  }
  if (at != want1) {
    return where() + "K columns [" + std::to_string(std::min(at, want1)) + ", " +
           std::to_string(std::max(at, want1)) + ") " +
           (at < want1 ? "are never multiplied" : "are multiplied twice");
  }
  return std::nullopt;
}

// Outer iterations worth walking: the first ones, the ones around the first chunk switch of the
// larger step (where non-multiple steps first read the wrong chunk), and the last ones (tails).
// The iterations in between repeat the first ones. Calls visit(o) in ascending order, each once,
// until it returns a fault.
template <typename Visit>
std::optional<std::string> WalkOuters(const Mdl& m, Visit visit) {
  constexpr int64_t kWindow = 4096;
  const int64_t f = std::max(m.fa, m.fb);
  const std::pair<int64_t, int64_t> ranges[] = {
      {0, kWindow}, {f - 2, f + 2}, {m.out_iter - kWindow, m.out_iter}};
  int64_t next = 0;  // the first iteration not yet visited
  for (const auto& [lo, hi] : ranges) {
    for (int64_t o = std::max(lo, next); o < std::min(hi, m.out_iter); ++o) {
      if (auto fault = visit(o)) return fault;
      next = o + 1;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> KLoopFault(const Problem& p, const TCubeTiling& t) {
  if (p.schedule != Schedule::kMdl || t[kSingleCoreK] <= 0 || t[kBaseK] <= 0 || t[kStepKa] <= 0 ||
      t[kStepKb] <= 0) {
    return std::nullopt;  // Norm: baseK steps, tail last, always exact
  }
  const Mdl m = MakeMdl(p, t);
  return WalkOuters(m, [&m](int64_t o) { return MdlOuter(m, o, nullptr); });
}

std::vector<KStep> KLoopSteps(const Problem& p, const TCubeTiling& t, int64_t max_steps) {
  const int64_t sK = t[kSingleCoreK], bK = t[kBaseK];
  if (sK <= 0 || bK <= 0 || t[kStepKa] <= 0 || t[kStepKb] <= 0 || CeilDiv(sK, bK) > max_steps)
    return {};
  std::vector<KStep> steps;
  if (p.schedule != Schedule::kMdl) {
    for (int64_t k0 = 0; k0 < sK; k0 += bK) steps.push_back({k0, std::min(bK, sK - k0)});
    return steps;
  }
  const Mdl m = MakeMdl(p, t);
  for (int64_t o = 0; o < m.out_iter; ++o) {
    if (MdlOuter(m, o, &steps)) break;  // the steps up to the fault; KLoopFault reports it
  }
  return steps;
}

}  // namespace tcfuzz::oracle::ascend
