#include <string>

#include "generators/core/random_source.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/core/counter_hash.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/sparse/sparse_form.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

using oracle::num::Format;

harness::DenseJudgedTable DenseJudgedTableOf() {
  const oracle::mma::DenseForm& f = *oracle::mma::FindDenseForm("m16n8k16", Format::kF16);
  harness::DenseJudgedTable t;
  for (int lane = 0; lane < 32; ++lane) {
    for (int x = 0; x < 8; ++x) {
      const oracle::mma::Coord a = oracle::mma::MapDenseA(f, lane, x / 2, x % 2);
      t.a_row[lane][x] = static_cast<uint8_t>(a.row);
      t.a_col[lane][x] = static_cast<uint8_t>(a.col);
    }
    for (int x = 0; x < 4; ++x) {
      const oracle::mma::Coord b = oracle::mma::MapDenseB(f, lane, x / 2, x % 2);
      t.b_row[lane][x] = static_cast<uint8_t>(b.row);
      t.b_col[lane][x] = static_cast<uint8_t>(b.col);
      const oracle::sparse::Coord cd = oracle::sparse::MapCD(lane, x);
      t.cd_row[lane][x] = static_cast<uint8_t>(cd.row);
      t.cd_col[lane][x] = static_cast<uint8_t>(cd.col);
    }
  }
  return t;
}

gen::DeviceDrawnDense DrawDenseJudgedCase(uint64_t seed, uint64_t index) {
  return gen::DrawDeviceDrawnDense(gen::CaseSeed(seed, kDenseMmaJudgedSuite, index));
}

std::string DenseJudgedUnsupported(const harness::DeviceInfo& d) {
  if (d.cc_major < 8) return "mma.sync m16n8k16 needs sm_80";
  return JudgedKernelUnsupported<harness::DenseJudgedLaunch>(d, oracle::num::Instr::kMma);
}

harness::DenseJudgedLaunch DenseJudgedLaunchFor(const harness::DenseJudgedTable& table,
                                                oracle::num::Gpu gpu) {
  harness::DenseJudgedLaunch l;
  l.table = &table;
  const auto params = FastMmaParams(gpu);  // present: the support predicate said so
  l.f16 = params->first;
  l.bf16 = params->second;
  return l;
}

int RunDenseJudgedWorker(const WorkerArgs& a, std::ostream& out) {
  const harness::DenseJudgedTable table = DenseJudgedTableOf();
  JudgedSuiteHalf half;
  half.unsupported = DenseJudgedUnsupported;
  half.launch = JudgedLaunches<harness::DenseJudgedLaunch>(
      [&table](oracle::num::Gpu gpu) { return DenseJudgedLaunchFor(table, gpu); });
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                   oracle::num::Gpu gpu) {
    const oracle::mma::DenseTile t = DrawDenseJudgedCase(a.seed, index).dense.tile;
    // The general model: the host's judge shares no arithmetic code with the device's.
    const std::vector<uint32_t> want =
        oracle::mma::DenseReference(t, *DenseParams(t, gpu), /*general_only=*/true);
    return JudgeKept(index, want, harness::UnpackD(Format::kF32, d_regs, 0), device_failed);
  };
  half.sample_every = kJudgedSampleEvery;
  SetFamilies(
      half,
      {DenseFamily(gen::DeviceDrawnDenseShape(0)), DenseFamily(gen::DeviceDrawnDenseShape(1))},
      a.seed, kDenseMmaJudgedSuite, oracle::mma::drawn::Bf16);
  return RunJudgedWorker(a, out, half);
}

DescribedCase DescribeDenseJudged(uint64_t seed, uint64_t index,
                                  const std::vector<uint32_t>& observed, oracle::num::Gpu gpu) {
  const gen::DeviceDrawnDense g = DrawDenseJudgedCase(seed, index);
  const oracle::mma::DenseTile& t = g.dense.tile;
  oracle::TextWriter w(oracle::mma::kDenseKind);
  oracle::mma::AppendDenseCase(w, t, observed.size() == 128 ? &observed : nullptr);
  DescribedCase d{DenseFamily(t), {}, std::string(gen::Name(g.mode)),
                  w.str(),        {}, oracle::mma::ReadingsOf(*t.form)};
  const auto params = DenseParams(t, gpu);
  if (observed.size() == 128 && params) {
    d.expected = oracle::mma::DenseReference(t, *params);
    d.cols = 8;
    d.d_format = std::string(oracle::num::Name(t.cd));
    AddArithmetic(d.rests_on, params, false, d.expected, observed, gpu == oracle::num::Gpu::kSm90);
  } else if (params) {
    d.rests_on.push_back(params->row);
  }
  return d;
}

}  // namespace tcfuzz::suites
