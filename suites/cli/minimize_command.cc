#include "suites/cli/minimize_command.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/case_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/subprocess.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/case_kind.h"

namespace tcfuzz::suites {

namespace {

oracle::Result<MinimizeJob> MakeJob(const std::string& file, int budget) {
  using R = oracle::Result<MinimizeJob>;
  const auto doc = ReadCaseDoc(file);
  if (!doc.ok()) return R::Fail(doc.error());
  const auto kind = KindOf(file, doc.value());
  if (!kind.ok()) return R::Fail(kind.error());
  if (kind.value()->minimize == nullptr) {
    return R::Fail(file + ": minimize takes " +
                   KindNames([](const CaseKind& k) { return k.minimize != nullptr; }) +
                   " reproducers, not kind '" + std::string(kind.value()->name) + "'");
  }
  return kind.value()->minimize(file, doc.value(), budget);
}

// A fresh private folder, removed on every way out. The temporary folder is $TMPDIR when it
// names one (else /tmp); a bad one is a one-line error (and nullptr), never an exception.
struct Scratch {
  explicit Scratch(std::string pattern)
      : path(std::move(pattern)), made(::mkdtemp(path.data()) != nullptr) {}
  Scratch(const Scratch&) = delete;  // a copy's destructor would remove the folder
  Scratch& operator=(const Scratch&) = delete;
  std::string path;
  bool made;
  ~Scratch() {
    std::error_code ec;
    if (made) std::filesystem::remove_all(path, ec);
  }
};

std::unique_ptr<Scratch> MakeScratch(const std::string& stem, std::ostream& log) {
  std::error_code tmp_error;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(tmp_error);
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmp_error) {
    log << oracle::ErrorLine(std::string("no temporary folder: TMPDIR=") + (tmpdir ? tmpdir : "") +
                             ": " + tmp_error.message());
    return nullptr;
  }
  auto scratch = std::make_unique<Scratch>((tmp / (stem + "-XXXXXX")).string());
  if (!scratch->made) {
    log << oracle::ErrorLine(std::string("cannot make a scratch folder in ") + tmp.string() + ": " +
                             std::strerror(errno));
    return nullptr;
  }
  return scratch;
}

}  // namespace

Evaluation EvaluateInWorker(const std::vector<std::string>& worker, const std::string& scratch_dir,
                            const std::string& text, std::string* error) {
  Evaluation e;
  const std::string path = scratch_dir + "/candidate.txt";
  if (!WriteFileAtomic(path, text).ok()) {
    *error = "cannot write " + path;
    return e;
  }
  std::vector<std::string> argv = worker;
  argv.insert(argv.end(), {"worker", "--case-file", path});
  CommandOptions o;
  o.timeout = std::chrono::milliseconds(60000);
  const CommandResult r = RunArgv(argv, "", o);
  const WorkerOutput w = ParseWorkerOutput(r.out);
  for (const CaseLineFields& c : w.cases) {
    if (c.outcome == CaseOutcome::kPass || c.outcome == CaseOutcome::kMismatch) {
      const auto d = ParseObserved(c.detail, 0);
      if (!d.empty()) e.observed = d;
    }
    if (c.outcome == CaseOutcome::kMismatch)
      e.failure = FailureSignature{"mismatch", c.detail.substr(0, c.detail.find(' '))};
    if (c.outcome == CaseOutcome::kHarnessError) *error = c.detail;
    if (c.outcome == CaseOutcome::kUndefinedBySpec)
      *error = "the case breaks a spec rule, so no answer is wrong: " +
               c.detail.substr(0, c.detail.find(':'));
  }
  if (!w.unsupported.empty()) *error = w.unsupported.front().second;
  if (r.timed_out) e.failure = FailureSignature{"timeout", ""};
  if (!w.fault.empty()) {
    // The CUDA error's name (CUDA_ERROR_...), not the call that reported it.
    const std::size_t at = w.fault.find("CUDA_ERROR_");
    e.failure = FailureSignature{
        "device_fault",
        at == std::string::npos ? w.fault : w.fault.substr(at, w.fault.find(' ', at) - at)};
  }
  if (!r.started || r.exit_code == 127) {
    *error = "the worker did not start: " + r.Describe(o.timeout);
  } else if (!r.timed_out && w.fault.empty() && !(r.exit_code == 0 && w.done)) {
    // A failure of its own kind, never "the device agrees".
    e.failure = FailureSignature{"harness_error",
                                 "the worker ended without an answer: " + r.Describe(o.timeout)};
  }
  return e;
}

int RunMinimize(const std::string& file, const std::string& out_path, int budget,
                const std::vector<std::string>& worker, std::ostream& log) {
  const auto job = MakeJob(file, budget);
  if (!job.ok()) {
    log << oracle::ErrorLine(job.error());
    return 2;
  }
  const std::unique_ptr<Scratch> scratch = MakeScratch("tcfuzz-minimize", log);
  if (!scratch) return 2;
  std::string error;
  const auto eval = [&](const std::string& text) {
    return EvaluateInWorker(worker, scratch->path, text, &error);
  };
  const Evaluation first = eval(job.value().start_text);
  if (!error.empty()) {
    log << oracle::ErrorLine(std::string("minimize runs the case on a GPU: ") + error);
    return 2;
  }
  if (first.failure && first.failure->outcome == "harness_error") {
    log << oracle::ErrorLine(std::string("minimize: ") + first.failure->where);
    return 2;
  }
  if (!first.failure) {
    log << oracle::OneLine(file)
        << ": the device agrees with the oracle on this case: nothing to minimize\n";
    return 1;
  }
  const FailureSignature sig = *first.failure;
  // The numerics row the worker compared with is the device's: recorded so `tcfuzz replay`
  // judges the minimized case the same way.
  const DeviceProbe d = ProbeInWorker(worker);
  const auto [text, account] =
      job.value().minimize(sig, first.observed, eval,
                           {{"origin.minimized_from", file},
                            {"origin.outcome", sig.outcome},
                            {"origin.detail", sig.where},
                            {"origin.gpu", GpuRowName(d.cc_major, d.cc_minor)}});
  if (!error.empty()) {  // a later candidate could not be run: stop rather than guess
    log << oracle::ErrorLine(std::string("minimize: ") + error);
    return 2;
  }
  if (auto w = WriteFileAtomic(out_path, text); !w.ok()) {
    log << oracle::ErrorLine(w.error());
    return 2;
  }
  log << "minimized " << oracle::OneLine(file) << " (" << sig.outcome << " at "
      << oracle::OneLine(sig.where) << "): " << account << "; written to "
      << oracle::OneLine(out_path) << "\n";
  return 0;
}

int ReplayOnBackend(const std::vector<std::string>& files, const std::vector<std::string>& worker,
                    std::ostream& out, std::ostream& log) {
  const std::unique_ptr<Scratch> scratch = MakeScratch("tcfuzz-replay", log);
  if (!scratch) return 2;
  const DeviceProbe device = ProbeInWorker(worker);
  if (!device.available) {
    log << oracle::ErrorLine("replay --device: no device: " + device.reason);
    return 2;
  }
  int failed = 0;
  for (const std::string& path : files) {
    const auto text = ReadFile(path);
    const auto doc =
        text.ok() ? ReadCaseDoc(path) : oracle::Result<oracle::TextDoc>::Fail(text.error());
    const auto kind =
        doc.ok() ? KindOf(path, doc.value()) : oracle::Result<const CaseKind*>::Fail(doc.error());
    if (!kind.ok()) {
      log << oracle::ErrorLine(kind.error());
      return 2;
    }
    if (kind.value()->run_on_device == nullptr) {
      log << oracle::ErrorLine(
          path + ": replay --device executes " +
          KindNames([](const CaseKind& k) { return k.run_on_device != nullptr; }) +
          " cases, not kind '" + std::string(kind.value()->name) + "'");
      return 2;
    }
    std::string error;
    const Evaluation e = EvaluateInWorker(worker, scratch->path, text.value(), &error);
    if (!error.empty()) {
      log << oracle::ErrorLine(path + ": " + error);
      return 2;
    }
    if (e.failure) {
      ++failed;
      out << "FAIL " << oracle::OneLine(path) << " " << e.failure->outcome << ": "
          << oracle::OneLine(e.failure->where) << " (executed on " << oracle::OneLine(device.name)
          << ")\n";
    } else {
      out << "PASS " << oracle::OneLine(path) << " (executed on " << oracle::OneLine(device.name)
          << ")\n";
    }
  }
  return failed ? 1 : 0;
}

}  // namespace tcfuzz::suites
