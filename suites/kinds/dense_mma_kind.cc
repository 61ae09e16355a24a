// The dense_mma kind: one dense mma.sync case of the shapes sparse MMA reuses, with the D a device
// returned when there is one (oracle/mma/dense_case_text.h).
#include "oracle/mma/dense_case_text.h"
#include "suites/cli/repro_cu.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/dense_mma_device.h"

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
  return oracle::Result<std::string>::Ok(Text(f.value().tile, f.value().observed ? &*f.value().observed : nullptr));
}

std::string Draw(gen::Source& s) { return Text(gen::DrawDense(s).tile, nullptr); }

int RunOnDevice(const std::string& file, const oracle::TextDoc& doc, std::ostream& out) {
  const auto f = oracle::mma::DenseCaseFromDoc(doc);
  return f.ok() ? RunDenseCaseWorker(f.value().tile, out) : CaseFileError(file + ": " + f.error(), out);
}

}  // namespace

const CaseKind& DenseMmaKind() {
  static const CaseKind kind{oracle::mma::kDenseKind,
                             "dense mma.sync case of the shapes sparse MMA reuses, with the D a device returned",
                             ReplayDenseCase,
                             Reprint,
                             Draw,
                             RunOnDevice,
                             EmitDenseCu,
                             nullptr};
  return kind;
}

}  // namespace tcfuzz::suites
