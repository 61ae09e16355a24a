// The warp-per-case judged suites on a host backend (harness/judged_host.h): sparse-mma-exact,
// sparse-mma-judged and dense-mma-judged. A case is the 32 lanes' registers their lane code draws,
// in a call of the ABI's warp_mma with every case of its instruction; each lane's four D
// registers are judged against its lane code's expected D, as the kernel's Judge step does.
#include <cstdint>
#include <memory>
#include <span>

#include "harness/judged_host.h"
#include "harness/judged_suites.h"
#include "harness/mma_dense.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

constexpr uint64_t kWarpChunk = 4096;  // cases drawn at once: 8 MiB of registers and D
constexpr std::size_t kLaneWords = 32 * 4;

// Lane `lane` of slot `slot`: `count` registers of `from` into `to`, laid out as the ABI's call
// (slot-major, then lane, then register).
void StoreLane(std::vector<uint32_t>& to, std::size_t slot, int lane, int count,
               const uint32_t* from) {
  const std::size_t at =
      (slot * 32 + static_cast<std::size_t>(lane)) * static_cast<std::size_t>(count);
  for (int x = 0; x < count; ++x) to[at + static_cast<std::size_t>(x)] = from[x];
}

// The sparse suites: case cs runs the instruction of table Pick(cs, kVariant).
struct SparseCall {
  MmaSpSpec spec;
  PackedMmaSp p;
};

uint32_t SparseGroup(std::span<const SparseExactTable> tables, uint64_t cs) {
  return oracle::sparse::drawn::Pick(cs, oracle::sparse::drawn::kVariant, 0, 0,
                                     static_cast<uint32_t>(tables.size()));
}

SparseCall MakeSparseCall(const SparseExactTable& t, std::size_t cases) {
  const SparseExactInstruction& in = t.instruction;
  SparseCall c;
  const Format type = in.bf16 ? Format::kBF16 : Format::kF16;
  c.spec.form = oracle::sparse::FindForm(in.k32 ? "m16n8k32" : "m16n8k16", type);
  c.spec.variant = in.ordered ? oracle::sparse::Variant::kOrdered : oracle::sparse::Variant::kSp;
  c.spec.selector = in.selector;
  c.spec.a_type = c.spec.b_type = type;
  c.spec.cd = Format::kF32;
  const std::size_t lanes = cases * 32;
  const std::size_t regs = static_cast<std::size_t>(t.per_lane / 2);
  c.p.a.assign(lanes * regs, 0);
  c.p.b.assign(lanes * regs, 0);
  c.p.c.assign(lanes * 4, 0);
  c.p.e.assign(lanes, 0);
  return c;
}

void StoreSparseLane(SparseCall& c, const SparseExactTable& t, std::size_t slot, int lane,
                     const SparseExactLane& r) {
  const int regs = t.per_lane / 2;
  StoreLane(c.p.a, slot, lane, regs, r.a);
  StoreLane(c.p.b, slot, lane, regs, r.b);
  StoreLane(c.p.c, slot, lane, 4, r.c);
  StoreLane(c.p.e, slot, lane, 1, &r.e);
}

// What every warp-per-case judge shares: a call of whole warps, four D registers a lane.
template <class CallT>
struct WarpJudge {
  using Call = CallT;
  static constexpr uint64_t kChunk = kWarpChunk;
  template <class Launch>
  static std::size_t Words(const Launch&, uint32_t) {
    return kLaneWords;
  }
  static oracle::Result<std::vector<uint32_t>> Execute(const Call& c) {
    return HostD(RunWarpMmaOnHost(WarpMmaCallOf(c.spec, c.p)));
  }
};

// The two sparse suites differ only in how a case's lanes draw and judge.
template <class Launch>
struct SparseJudge : WarpJudge<SparseCall> {
  static uint32_t Group(const Launch& l, uint64_t cs) { return SparseGroup(l.tables, cs); }
  static SparseCall MakeCall(const Launch& l, uint32_t group, std::size_t cases) {
    return MakeSparseCall(l.tables[group], cases);
  }
};

struct DenseCall {
  MmaDenseSpec spec;
  PackedMmaDense p;
};

}  // namespace

template <>
struct HostJudge<SparseExactLaunch> : SparseJudge<SparseExactLaunch> {
  static void Draw(const SparseExactLaunch& l, uint64_t cs, Call& c, std::size_t slot,
                   uint32_t* expected) {
    const SparseExactTable& t = l.tables[Group(l, cs)];
    const SparseExactValues v = DrawCase(t, cs);
    for (int lane = 0; lane < 32; ++lane) {
      StoreSparseLane(c, t, slot, lane, BuildLane(t, v, cs, lane));
      for (int x = 0; x < 4; ++x) {
        expected[lane * 4 + x] = oracle::sparse::drawn::F32BitsOfInt(
            ExpectedD(t, v, t.cd_row[lane][x], t.cd_col[lane][x]));
      }
    }
  }
};

template <>
struct HostJudge<SparseJudgedLaunch> : SparseJudge<SparseJudgedLaunch> {
  static void Draw(const SparseJudgedLaunch& l, uint64_t cs, Call& c, std::size_t slot,
                   uint32_t* expected) {
    const SparseExactTable& t = l.tables[Group(l, cs)];
    // Every lane draws its share before any lane judges, as the warp does around __syncwarp.
    const auto v = std::make_unique<SparseJudgedValues>();
    for (int lane = 0; lane < 32; ++lane)
      StoreSparseLane(c, t, slot, lane, DrawJudgedLane(t, cs, lane, *v));
    for (int lane = 0; lane < 32; ++lane) {
      for (int x = 0; x < 4; ++x) {
        expected[lane * 4 + x] = ExpectedJudgedD(t, *v, t.cd_row[lane][x], t.cd_col[lane][x],
                                                 t.instruction.bf16 ? l.bf16 : l.f16);
      }
    }
  }
};

template <>
struct HostJudge<DenseJudgedLaunch> : WarpJudge<DenseCall> {
  // The group is the case's type: 1 for bf16.
  static uint32_t Group(const DenseJudgedLaunch&, uint64_t cs) {
    return oracle::mma::drawn::Bf16(cs);
  }
  static Call MakeCall(const DenseJudgedLaunch&, uint32_t bf16, std::size_t cases) {
    Call c;
    const Format type = bf16 ? Format::kBF16 : Format::kF16;
    c.spec.form = oracle::mma::FindDenseForm("m16n8k16", type);
    c.spec.a_type = c.spec.b_type = type;
    c.spec.cd = Format::kF32;
    c.p.a.assign(cases * 32 * 4, 0);
    c.p.b.assign(cases * 32 * 2, 0);
    c.p.c.assign(cases * 32 * 4, 0);
    return c;
  }
  static void Draw(const DenseJudgedLaunch& l, uint64_t cs, Call& c, std::size_t slot,
                   uint32_t* expected) {
    const DenseJudgedTable& t = *l.table;
    const auto v = std::make_unique<DenseJudgedValues>();
    for (int lane = 0; lane < 32; ++lane) {
      const DenseJudgedLane r = DrawLane(t, cs, lane, *v);
      StoreLane(c.p.a, slot, lane, 4, r.a);
      StoreLane(c.p.b, slot, lane, 2, r.b);
      StoreLane(c.p.c, slot, lane, 4, r.c);
    }
    const uint32_t bf16 = oracle::mma::drawn::Bf16(cs);
    for (int lane = 0; lane < 32; ++lane) {
      for (int x = 0; x < 4; ++x) {
        expected[lane * 4 + x] =
            ExpectedD(*v, bf16, t.cd_row[lane][x], t.cd_col[lane][x], bf16 ? l.bf16 : l.f16);
      }
    }
  }
};

template oracle::Result<JudgedResult> RunJudgedOnHost(const SparseExactLaunch&);
template oracle::Result<JudgedResult> RunJudgedOnHost(const SparseJudgedLaunch&);
template oracle::Result<JudgedResult> RunJudgedOnHost(const DenseJudgedLaunch&);

}  // namespace tcfuzz::harness
