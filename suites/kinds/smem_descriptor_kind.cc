// The smem_descriptor kind: a wgmma or tcgen05 shared-memory descriptor with the operand view it
// is read under and what it expects (oracle/smem/smem_case_text.h).
#include "oracle/smem/smem_case_text.h"
#include "suites/checks/smem_descriptor_checks.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/host_reproducers.h"

namespace tcfuzz::suites {
namespace {

oracle::Result<Replayed> Replay(const oracle::TextDoc& doc) {
  auto f = oracle::smem::SmemCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<Replayed>::Fail(f.error());
  return oracle::Result<Replayed>::Ok({CheckSmemFile(f.value()), {}});
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  auto f = oracle::smem::SmemCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  (void)oracle::smem::Validate(f.value().c);
  (void)oracle::smem::Map(f.value().c);
  oracle::TextWriter w(oracle::smem::kSmemKind);
  oracle::smem::AppendSmemCase(w, f.value().c, f.value().expect_rules);
  return oracle::Result<std::string>::Ok(w.str());
}

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  return SmemReproducer(gen::DrawSmem(s, roll == 0 ? gen::Intent::kLegal : roll == 1 ? gen::Intent::kBreakOne : gen::Intent::kRawBits));
}

}  // namespace

const CaseKind& SmemDescriptorKind() {
  static const CaseKind kind{oracle::smem::kSmemKind,
                             "wgmma / tcgen05 shared-memory descriptor, the operand view it is read under, its expectation",
                             Replay, Reprint, Draw, nullptr, nullptr, nullptr};
  return kind;
}

}  // namespace tcfuzz::suites
