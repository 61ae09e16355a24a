// `tcfuzz oracle readings --ingest FILE`: a discovery result file (suites/discover/discover_kit.h,
// the concatenated case files a kit's run.sh writes) judged against the oracle. Per numerics
// question: the candidate rows (numerics_probes.h) that give every D the device returned, and
// whether the oracle's row for the device's target is among them. Per deciding tile: whether the
// device gave the D of tcfuzz's reading (for S7 also the other reading's).
#pragma once

#include <string>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::suites::discover {

struct IngestReport {
  std::string device;  // "NVIDIA H100 80GB HBM3, CC 9.0, driver 13000" (the cases' origin.device)
  std::string target;  // "sm_90"
  int cases = 0;
  std::vector<std::string> lines;  // one verdict per question or tile
  int contradicted = 0;            // rows or readings of the oracle the device's results contradict
  std::string doc_row;             // a docs/doc-vs-hardware.md "Hardware runs" row for the file
};

// Error: one line (not a result file, a case that does not parse, cases from several devices).
oracle::Result<IngestReport> Ingest(const std::string& text, const std::string& name);

}  // namespace tcfuzz::suites::discover
