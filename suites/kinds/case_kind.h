// Every case kind tcfuzz reads and writes (the `kind` of a text-form file), what it does with a
// file of one, and the campaign suites that draw it, declared once: the table in
// suites/kinds/case_kinds.cc. `tcfuzz replay`, `repro --emit-cu`, `minimize`, `run`, `worker`
// (both --suite and --case-file) and the case-text fuzzer look kinds and suites up here; adding a
// kind or a suite is its own files plus one line of that table (or one row of its kind's suites).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/core/source.h"
#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "suites/checks/check_failure.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/emit_cu.h"
#include "suites/reduce/signature.h"

namespace tcfuzz::suites {

// Provenance lines (origin.*) a minimized case is written with.
using Origin = std::vector<std::pair<std::string, std::string>>;

// One kind's half of `tcfuzz minimize`: the text of the start case, and the minimization, which
// returns the minimized case's text (with its origin lines) and a one-line account.
struct MinimizeJob {
  std::string start_text;
  std::function<std::pair<std::string, std::string>(
      const FailureSignature&, const std::optional<std::vector<uint32_t>>& observed,
      const std::function<Evaluation(const std::string&)>& evaluate, const Origin&)>
      minimize;
};

struct CaseKind {
  std::string_view name;  // the `kind` line
  std::string_view what;  // one line for `tcfuzz kinds`
  // Judges the file's case without a GPU; an error (one line) when it holds no case of this kind.
  oracle::Result<Replayed> (*replay)(const oracle::TextDoc& doc);
  // The case read and written back in its text form: the text fuzzer's fixed point (an error for
  // a file that holds no case). The fuzzer calls replay too, so a kind computes the oracle's answer
  // here only where its replay can stop before it (dense_mma and sparse_mma, in exact arithmetic,
  // where a file has no D, GPU or model); wgmma_tile's replay computes it for every tile.
  oracle::Result<std::string> (*reprint)(const oracle::TextDoc& doc);
  // A generated case as a reproducer holds it (with what it expects), so that it replays alone.
  std::string (*draw)(gen::Source& source);
  // GPU kinds; null where the kind has no device half.
  int (*run_on_device)(const std::string& file, const oracle::TextDoc& doc,
                       std::ostream& out);  // `worker --case-file`
  // `repro --emit-cu`: the CUDA file (suites/kinds/emit_cu.h), or a one-line error.
  oracle::Result<EmittedCu> (*emit_cu)(const std::string& file, const oracle::TextDoc& doc,
                                       const std::string& gpu_row);
  oracle::Result<MinimizeJob> (*minimize)(const std::string& file, const oracle::TextDoc& doc,
                                          int budget);
  // The kind's host campaign suite (`tcfuzz run --suite NAME`); null: none.
  std::unique_ptr<HostSuite> (*host_suite)();
  // Its GPU suites, both halves (parent: describe; worker: run_worker); empty: none.
  std::span<const DeviceSuite> device_suites;
};

// Every kind, in the order `tcfuzz kinds` lists them.
std::span<const CaseKind> CaseKinds();
const CaseKind* FindCaseKind(std::string_view name);

// "sparse_mma, dense_mma or wgmma_tile": the kinds `has` holds for, for error messages.
std::string KindNames(bool (*has)(const CaseKind&));

// The file's kind from the registry, or a one-line error naming the file and the kinds known.
oracle::Result<const CaseKind*> KindOf(const std::string& path, const oracle::TextDoc& doc);

// `tcfuzz worker --case-file PATH`: the file's case once on the device (worker protocol lines).
int RunCaseFileWorker(const std::string& path, std::ostream& out);

}  // namespace tcfuzz::suites
