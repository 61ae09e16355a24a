#include "suites/cli/repro_cu.h"

#include <iostream>

#include "oracle/core/text_format.h"
#include "oracle/numerics/dot_product.h"
#include "suites/cli/cli_common.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/case_file.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::suites {

int ReproEmitCu(const std::string& file, const std::string& out_path, const std::string& gpu_row) {
  const auto read = ReadCaseDoc(file);
  if (!read.ok()) cli::Die(read.error());
  const oracle::TextDoc& doc = read.value();
  const auto kind = KindOf(file, doc);
  if (!kind.ok()) cli::Die(kind.error());
  if (kind.value()->emit_cu == nullptr) {
    cli::Die(file + ": repro takes " +
             KindNames([](const CaseKind& k) { return k.emit_cu != nullptr; }) +
             " case files, not kind '" + std::string(kind.value()->name) + "'");
  }
  const bool from_file = doc.Has("origin.gpu");
  const std::string row_name = from_file ? doc.String("origin.gpu").value() : gpu_row;
  if (!oracle::num::ParseGpu(row_name)) {
    cli::Die((from_file ? file + ": origin.gpu" : std::string("--gpu-row")) + ": '" + row_name +
             "' is not one of sm_70 sm_80 sm_89 sm_90 sm_100");
  }
  const auto cu = kind.value()->emit_cu(file, doc, row_name);
  if (!cu.ok()) cli::Die(cu.error());
  auto written = WriteFileAtomic(out_path, cu.value().text);
  if (!written.ok()) cli::Die(written.error());
  std::cout << "wrote " << oracle::OneLine(out_path) << " (" << cu.value().instruction.substr(0, 70)
            << "...)\n";
  return 0;
}

}  // namespace tcfuzz::suites
