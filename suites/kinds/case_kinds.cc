// The one table of case kinds (suites/kinds/case_kind.h): a kind is registered here, once.
#include <array>
#include <span>

#include "suites/engine/case_file.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::suites {

// Each kind's own file (suites/kinds/<kind>_kind.cc).
const CaseKind& ZeroColumnMaskKind();
const CaseKind& SmemDescriptorKind();
const CaseKind& SparseMmaKind();
const CaseKind& DenseMmaKind();
const CaseKind& WgmmaTileKind();

std::span<const CaseKind> CaseKinds() {
  static const std::array<CaseKind, 5> kinds = {ZeroColumnMaskKind(), SmemDescriptorKind(),
                                                SparseMmaKind(), DenseMmaKind(), WgmmaTileKind()};
  return kinds;
}

const CaseKind* FindCaseKind(std::string_view name) {
  for (const CaseKind& k : CaseKinds()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string KindNames(bool (*has)(const CaseKind&)) {
  std::vector<std::string_view> names;
  for (const CaseKind& k : CaseKinds()) {
    if (has(k)) names.push_back(k.name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  }
  return out;
}

oracle::Result<const CaseKind*> KindOf(const std::string& path, const oracle::TextDoc& doc) {
  const std::string kind = doc.String("kind").value();
  if (const CaseKind* k = FindCaseKind(kind)) return oracle::Result<const CaseKind*>::Ok(k);
  return oracle::Result<const CaseKind*>::Fail(
      path + ": no kind '" + kind + "' (known: " + KindNames([](const CaseKind&) { return true; }) +
      ")");
}

std::vector<std::unique_ptr<HostSuite>> MakeHostSuites() {
  std::vector<std::unique_ptr<HostSuite>> suites;
  for (const CaseKind& k : CaseKinds()) {
    if (k.host_suite != nullptr) suites.push_back(k.host_suite());
  }
  return suites;
}

int RunCaseFileWorker(const std::string& path, std::ostream& out) {
  const auto doc = ReadCaseDoc(path);
  if (!doc.ok()) return CaseFileError(doc.error(), out);
  const auto kind = KindOf(path, doc.value());
  if (!kind.ok()) return CaseFileError(kind.error(), out);
  if (kind.value()->run_on_device == nullptr) {
    return CaseFileError(
        path + ": kind '" + std::string(kind.value()->name) + "' has no device half", out);
  }
  return kind.value()->run_on_device(path, doc.value(), out);
}

}  // namespace tcfuzz::suites
