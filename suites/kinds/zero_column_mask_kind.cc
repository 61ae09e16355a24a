// The zero_column_mask kind: the tcgen05 zero-column mask descriptor with the shape it is read
// under and what it expects (oracle/tcgen05/zero_column_mask_text.h).
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/zero_column_mask_checks.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/host_reproducers.h"

namespace tcfuzz::suites {
namespace {

using oracle::tcgen05::ZcmCaseFile;

oracle::Result<Replayed> Replay(const oracle::TextDoc& doc) {
  auto f = oracle::tcgen05::ZcmCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<Replayed>::Fail(f.error());
  return oracle::Result<Replayed>::Ok({CheckZcmFile(f.value()), {}});
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  auto f = oracle::tcgen05::ZcmCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  (void)oracle::tcgen05::Validate(f.value().c);
  (void)oracle::tcgen05::Expand(f.value().c.desc, f.value().c.shape.m, f.value().c.shape.n);
  return oracle::Result<std::string>::Ok(oracle::tcgen05::ZcmCaseToText(f.value().c, f.value().expect));
}

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  return ZcmReproducer(gen::DrawZcm(s, roll == 0 ? gen::Intent::kLegal : roll == 1 ? gen::Intent::kBreakOne : gen::Intent::kRawBits));
}

}  // namespace

const CaseKind& ZeroColumnMaskKind() {
  static const CaseKind kind{oracle::tcgen05::kZcmKind, "tcgen05 zero-column mask descriptor, its shape and expectation",
                             Replay, Reprint, Draw, nullptr, nullptr, nullptr};
  return kind;
}

}  // namespace tcfuzz::suites
