// The dense_mma kind: one dense mma.sync case of the shapes sparse MMA reuses, with the D a device
// returned when there is one (oracle/mma/dense_case_text.h).
#include "generators/core/mma_values.h"
#include "oracle/mma/dense_case_text.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/dense_mma_device.h"
#include "suites/kinds/emit_cu.h"
#include "suites/kinds/judged_device.h"

namespace tcfuzz::suites {
namespace {

std::string Text(const oracle::mma::DenseTile& t, const std::vector<uint32_t>* observed) {
  oracle::TextWriter w(oracle::mma::kDenseKind);
  oracle::mma::AppendDenseCase(w, t, observed);
  return w.str();
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  const auto f = oracle::mma::DenseCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  (void)oracle::mma::DenseReference(f.value().tile, oracle::num::ExactParams(f.value().tile.cd));
  return oracle::Result<std::string>::Ok(
      Text(f.value().tile, f.value().observed ? &*f.value().observed : nullptr));
}

std::string Draw(gen::Source& s) { return Text(gen::DrawDense(s).tile, nullptr); }

int RunOnDevice(const std::string& file, const oracle::TextDoc& doc, std::ostream& out) {
  const auto f = oracle::mma::DenseCaseFromDoc(doc);
  return f.ok() ? RunDenseCaseWorker(f.value().tile, out)
                : CaseFileError(file + ": " + f.error(), out);
}

DescribedCase DescribeDense(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed,
                            oracle::num::Gpu gpu) {
  const gen::GeneratedDense g = DrawDenseMmaCase(seed, index);
  oracle::TextWriter w(oracle::mma::kDenseKind);
  oracle::mma::AppendDenseCase(w, g.tile, observed.size() == 128 ? &observed : nullptr);
  DescribedCase d{DenseFamily(g.tile),
                  DenseProbeExplanation(g, observed),
                  std::string(gen::Name(g.mode)),
                  w.str(),
                  {},
                  oracle::mma::ReadingsOf(*g.tile.form)};
  if (observed.size() == 128) {
    const auto params = DenseParams(g.tile, gpu);
    const std::vector<uint32_t> want =
        oracle::mma::DenseReference(g.tile, params.value_or(oracle::num::DotParams{}));
    AddArithmetic(d.rests_on, params, gen::IsExact(g.mode), want, observed,
                  gpu == oracle::num::Gpu::kSm90);
    d.expected = want;
    d.cols = 8;
    d.d_format = std::string(oracle::num::Name(g.tile.cd));
  }
  return d;
}

const DeviceSuite kDeviceSuites[] = {
    {.name = kDenseMmaSuite,
     .text_kind = oracle::mma::kDenseKind,
     .description = "dense mma.sync for the shapes sparse MMA reuses, every type pair and "
                    "accumulator, bit for bit against "
                    "the oracle",
     .worker_batch = uint64_t{1} << 16,
     .watchdog_per_case = std::chrono::microseconds(50),
     .describe = DescribeDense,
     .run_worker = RunDenseMmaWorker},
    // Drawn and judged on the device: one warp and about 5 ns of GPU per case; a worker takes up
    // to 1,024 launches so start-up stays a small share.
    {.name = kDenseMmaJudgedSuite,
     .text_kind = oracle::mma::kDenseKind,
     .description = "m16n8k16 f16/bf16 -> f32 mma.sync in float value modes (every exponent "
                    "range, Inf and NaN), drawn and judged on the device by the bit-exact model, "
                    "one in 4096 and every failure judged again by the oracle on the host",
     .worker_batch = uint64_t{1} << 26,
     .watchdog_per_case = std::chrono::microseconds(2),
     .describe = DescribeDenseJudged,
     .run_worker = RunDenseJudgedWorker,
     .unsupported = DenseJudgedUnsupported},
};

}  // namespace

const CaseKind& DenseMmaKind() {
  static const CaseKind kind{
      oracle::mma::kDenseKind,
      "dense mma.sync case of the shapes sparse MMA reuses, with the D a device returned",
      ReplayDenseCase,
      Reprint,
      Draw,
      RunOnDevice,
      EmitDenseCu,
      nullptr,
      nullptr,
      kDeviceSuites};
  return kind;
}

}  // namespace tcfuzz::suites
