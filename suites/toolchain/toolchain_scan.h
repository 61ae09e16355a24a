// The toolchain scan: every enumerated instruction form (generators/toolchain) on every target,
// assembled by nvJitLink in process or by the ptxas binary, each verdict held against the
// legality model (oracle/ptx) and the known deviations of the running toolkit
// (expectations.h). Assembling runs in worker processes (`tcfuzz toolchain worker`), so an
// assembler that crashes or hangs costs one item, which is re-run alone and reported as such.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "oracle/core/result.h"
#include "suites/toolchain/expectations.h"

namespace tcfuzz::suites {

enum class Observed { kAccept, kReject, kCrash, kTimeout };
std::string_view Name(Observed o);

struct ScanRow {
  std::string form;    // PtxForm::Key()
  std::string family;  // "wgmma.mma_async.sp"
  std::string ptx;     // the instruction line as assembled
  std::string target;
  bool expected_accept = false;
  std::string rules;     // the model's violated rule ids, "none" when legal
  std::string mutation;  // what the neighbour changed, "" for a form of the tables
  Observed observed = Observed::kReject;
  std::string diagnostic;
  int expectation = -1;  // the matching expectations line (index), -1 if none
  bool known_deviation() const { return expectation >= 0; }
  // Neither what the model said nor a known deviation (a crash or hang always is).
  bool unexpected() const;
};

struct ScanOptions {
  std::vector<std::string> targets;     // empty: every target of oracle::ptx::AllTargets()
  std::string forms;                    // fnmatch(3) pattern over form keys; "": every form
  std::string assembler = "nvjitlink";  // or "ptxas"
  std::string ptxas;  // the ptxas binary (assembler "ptxas"); empty: found on the usual paths
  std::string expectations_file;         // empty: none
  std::vector<std::string> worker_argv;  // the worker command; empty: assemble in this process
  int jobs = 2;
  std::chrono::milliseconds item_timeout{30000};
  // Test only: the worker crashes (SIGSEGV) or hangs at this item, standing in for an assembler
  // that does; -1: never.
  long plant_crash = -1, plant_hang = -1;
};

// Why a scan could not start; kAssemblerMissing lets CI without a toolkit skip rather than fail.
enum class ScanError { kBadInput, kAssemblerMissing };

struct ScanReport {
  std::string assembler;  // "nvJitLink 13.0" / "ptxas 13.0"
  std::string toolkit;    // "13.0": the key into the expectations file
  std::vector<ScanRow> rows;
  std::vector<Expectation> stale;  // lines of this toolkit that matched nothing
  int unexpected = 0;
};

// Checks the options (targets known, assembler present, expectations readable): a one-line error,
// and in `why` which kind it was.
oracle::Result<ScanReport> RunScan(const ScanOptions& options, ScanError* why = nullptr);

// The worker: assembles items [first, first + count) of the scan of `targets` and prints one line
// per item as it finishes ("<index>\t<A|R>\t<diagnostic, one line>").
int RunScanWorker(const ScanOptions& options, size_t first, size_t count, std::ostream& out);

// The worker of a campaign's toolchain suite (toolchain_suite.h), kept running between items:
// one item index of the whole scan (every form on every target) per line of `in`, its verdict
// line as RunScanWorker prints it; a line that is not an item's index is answered "error ...".
// Input it cannot read (a line past LineReader's bound, stdin a folder) is one line on `err` and
// the code 2: never a silent end, never a gigabyte read.
int RunScanLineWorker(const ScanOptions& options, std::istream& in, std::ostream& out,
                      std::ostream& err);

// One item of the whole scan, as every scan and worker numbers them (item i: target i / forms,
// form i % forms): its form at its target, and what the model says of it.
struct ScanItem {
  std::string key;     // PtxForm::Key()
  std::string family;  // "wgmma.mma_async.sp"
  std::string ptx;     // the instruction line
  std::string_view target;
  bool legal = false;
  std::string rules;  // the violated rule ids, "none" when legal
};
std::size_t WholeScanItems();
ScanItem WholeScanItem(std::size_t i);
// Every family name of the forms, each once.
std::vector<std::string> WholeScanFamilies();
// A verdict line of a worker back: false when it is not one for `index`.
bool ParseVerdictLine(std::string_view line, std::size_t index, Observed& observed,
                      std::string& diagnostic);
// "nvJitLink 13.0" and the toolkit key ("13.0"), or why the assembler is missing.
oracle::Result<std::pair<std::string, std::string>> IdentifyAssembler(const ScanOptions& options);

// The report as a table (families x targets, then every unexpected row and stale expectation)
// or as the JSON array of rows.
void PrintScanTable(const ScanReport& report, std::ostream& out);
void PrintScanJson(const ScanReport& report, std::ostream& out);

// The ptxas binary on the usual paths, "" when none.
std::string FindPtxas();

}  // namespace tcfuzz::suites
