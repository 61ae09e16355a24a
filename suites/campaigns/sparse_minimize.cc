#include "suites/campaigns/sparse_minimize.h"

#include <stdlib.h>

#include <filesystem>

#include "oracle/numerics/formats.h"
#include "suites/campaigns/device_campaign.h"
#include "suites/runner/atomic_file.h"
#include "suites/runner/subprocess.h"
#include "suites/runner/worker_protocol.h"

namespace tcfuzz::suites {

using namespace oracle::sparse;

std::optional<FailureSignature> MismatchSignature(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& got) {
  const auto e = FirstDifference(expected, got);
  if (!e) return std::nullopt;
  return FailureSignature{"mismatch", "D[" + std::to_string(*e / 8) + "][" + std::to_string(*e % 8) + "]"};
}

namespace {

// A value of the case: which operand and where.
struct Slot {
  char operand;  // 'a', 'b', 'c'
  std::size_t index;
};

uint64_t Get(const SparseCaseFile& k, Slot s) {
  return s.operand == 'a' ? k.tile.a[s.index] : s.operand == 'b' ? k.tile.b[s.index] : k.tile.c[s.index];
}

void Set(SparseCaseFile& k, Slot s, uint64_t v) {
  if (s.operand == 'a') k.tile.a[s.index] = v;
  if (s.operand == 'b') k.tile.b[s.index] = v;
  if (s.operand == 'c') k.tile.c[s.index] = static_cast<uint32_t>(v);
}

oracle::num::Format TypeOf(const SparseCaseFile& k, char operand) {
  return operand == 'a' ? k.tile.a_type : operand == 'b' ? k.tile.b_type : k.tile.cd;
}

std::vector<Slot> NonZero(const SparseCaseFile& k) {
  std::vector<Slot> out;
  for (std::size_t i = 0; i < k.tile.a.size(); ++i) {
    if (k.tile.a[i]) out.push_back({'a', i});
  }
  for (std::size_t i = 0; i < k.tile.b.size(); ++i) {
    if (k.tile.b[i]) out.push_back({'b', i});
  }
  for (std::size_t i = 0; i < k.tile.c.size(); ++i) {
    if (k.tile.c[i]) out.push_back({'c', i});
  }
  return out;
}

}  // namespace

MinimizeResult MinimizeSparse(const SparseCaseFile& start, const FailureSignature& signature,
                              const SparseEvaluator& evaluate, int budget) {
  MinimizeResult r{start, 0, 0};
  // Keeps a candidate when it fails the same way (and records what the device returned).
  const auto attempt = [&](SparseCaseFile candidate) {
    if (r.tries >= budget) return false;
    ++r.tries;
    const Evaluation e = evaluate(candidate);
    if (!e.failure || !(*e.failure == signature)) return false;
    candidate.observed = e.observed;
    r.minimized = std::move(candidate);
    ++r.accepted;
    return true;
  };
  // 1. Zero values: a whole operand, then halves of what is left, down to single values.
  for (std::size_t parts = 1;; parts *= 2) {
    const std::vector<Slot> live = NonZero(r.minimized);
    if (live.empty() || r.tries >= budget) break;
    const std::size_t n = std::min(parts, live.size());
    for (std::size_t p = 0; p < n; ++p) {
      SparseCaseFile c = r.minimized;
      for (std::size_t i = live.size() * p / n; i < live.size() * (p + 1) / n; ++i) Set(c, live[i], 0);
      attempt(std::move(c));
    }
    if (n == live.size()) break;
  }
  // 2. Canonical metadata: every (row, chunk) towards the ascending pair (0,1), nibble 0x4.
  const SparseForm& f = *r.minimized.op.form;
  for (int row = 0; row < 16 && r.tries < budget; ++row) {
    for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
      if (NibbleOf(r.minimized.op, row, chunk) == 0x4) continue;
      SparseCaseFile c = r.minimized;
      SetNibble(c.op, row, chunk, 0x4);
      c.tile.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)] = 0x4;
      if (!Validate(c.op).legal()) continue;
      attempt(std::move(c));
    }
  }
  // 3. Magnitudes: each remaining value by one (or minus one, keeping its sign).
  for (const Slot s : NonZero(r.minimized)) {
    if (r.tries >= budget) break;
    const oracle::num::Format t = TypeOf(r.minimized, s.operand);
    const uint64_t bits = Get(r.minimized, s);
    uint64_t one = 1;
    if (oracle::num::IsFloat(t)) {
      one = oracle::num::FromDouble(t, oracle::num::Decode(t, bits).neg ? -1.0 : 1.0);
    } else if (oracle::num::DecodeInt(t, bits) < 0) {
      const int w = oracle::num::StorageBits(t);
      one = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;  // -1
    }
    if (Get(r.minimized, s) == one) continue;
    SparseCaseFile c = r.minimized;
    Set(c, s, one);
    attempt(std::move(c));
  }
  return r;
}

namespace {

std::string CaseText(const SparseCaseFile& k, const std::vector<std::pair<std::string, std::string>>& origin) {
  oracle::TextWriter w(kSparseKind);
  AppendSparseCase(w, k.op, k.tile, k.observed ? &*k.observed : nullptr);
  for (const auto& [key, value] : origin) w.Add(key, value);
  return w.str();
}

}  // namespace

SparseEvaluator WorkerEvaluator(const std::vector<std::string>& worker, const std::string& scratch_dir, std::string* error) {
  return [=](const SparseCaseFile& k) {
    Evaluation e;
    const std::string path = scratch_dir + "/candidate.txt";
    if (!WriteFileAtomic(path, CaseText(k, {})).ok()) {
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
        const auto d = ParseObserved(c.detail);
        if (!d.empty()) e.observed = d;
      }
      if (c.outcome == CaseOutcome::kMismatch) e.failure = FailureSignature{"mismatch", c.detail.substr(0, c.detail.find(' '))};
      if (c.outcome == CaseOutcome::kHarnessError) *error = c.detail;
    }
    if (!w.unsupported.empty()) *error = w.unsupported.front().second;
    const std::string& fault = w.fault;
    const bool done = w.done;
    if (r.timed_out) e.failure = FailureSignature{"timeout", ""};
    if (!fault.empty()) {
      // The CUDA error's name (CUDA_ERROR_...), not the call that reported it.
      const std::size_t at = fault.find("CUDA_ERROR_");
      e.failure = FailureSignature{"device_fault", at == std::string::npos ? fault : fault.substr(at, fault.find(' ', at) - at)};
    }
    if (!r.started || r.exit_code == 127) {
      *error = "the worker did not start: " + r.Describe(o.timeout);
    } else if (!r.timed_out && fault.empty() && !(r.exit_code == 0 && done)) {
      // A failure of its own kind, never "the device agrees".
      e.failure = FailureSignature{"harness_error", "the worker ended without an answer: " + r.Describe(o.timeout)};
    }
    return e;
  };
}

int RunMinimize(const std::string& file, const std::string& out_path, int budget, const std::vector<std::string>& worker,
                std::ostream& log) {
  const auto read = ReadSparseCase(file);
  if (!read.ok()) {
    log << "tcfuzz: error: " << read.error() << "\n";
    return 2;
  }
  const oracle::TextDoc& doc = read.value().doc;
  const SparseCaseFile& original = read.value().c;
  std::string error;
  // Candidates go to a fresh private folder, removed on every way out.
  struct Scratch {
    std::string path = (std::filesystem::temp_directory_path() / "tcfuzz-minimize-XXXXXX").string();
    bool made = ::mkdtemp(path.data()) != nullptr;
    ~Scratch() {
      std::error_code ec;
      if (made) std::filesystem::remove_all(path, ec);
    }
  } scratch;
  if (!scratch.made) {
    log << "tcfuzz: error: cannot make a scratch folder in " << std::filesystem::temp_directory_path().string() << "\n";
    return 2;
  }
  const SparseEvaluator eval = WorkerEvaluator(worker, scratch.path, &error);
  SparseCaseFile start = original;
  const Evaluation first = eval(start);
  start.observed = first.observed;  // what this device returns, not what the file recorded
  if (!error.empty()) {
    log << "tcfuzz: error: minimize runs the case on a GPU: " << error << "\n";
    return 2;
  }
  if (first.failure && first.failure->outcome == "harness_error") {
    log << "tcfuzz: error: minimize: " << first.failure->where << "\n";
    return 2;
  }
  if (!first.failure) {
    log << file << ": the device agrees with the oracle on this case: nothing to minimize\n";
    return 1;
  }
  const FailureSignature sig = *first.failure;
  const MinimizeResult r = MinimizeSparse(start, sig, eval, budget);
  if (!error.empty()) {  // a later candidate could not be run: stop rather than guess
    log << "tcfuzz: error: minimize: " << error << "\n";
    return 2;
  }
  // The numerics row the worker compared with is the device's: keep the file's record of it, or
  // ask the device, so `tcfuzz replay` judges the minimized case the same way.
  std::string gpu = doc.Has("origin.gpu") ? doc.String("origin.gpu").value() : "";
  if (gpu.empty()) {
    const DeviceProbe d = ProbeInWorker(worker);
    gpu = GpuRowName(d.cc_major, d.cc_minor);
  }
  const std::string out = CaseText(r.minimized, {{"origin.minimized_from", file},
                                                 {"origin.outcome", sig.outcome},
                                                 {"origin.detail", sig.where},
                                                 {"origin.gpu", gpu}});
  if (auto w = WriteFileAtomic(out_path, out); !w.ok()) {
    log << "tcfuzz: error: " << w.error() << "\n";
    return 2;
  }
  log << "minimized " << file << " (" << sig.outcome << " at " << sig.where << "): " << r.accepted << " steps kept of " << r.tries
      << " tried; " << NonZero(original).size() << " -> " << NonZero(r.minimized).size() << " non-zero values; written to "
      << out_path << "\n";
  return 0;
}

}  // namespace tcfuzz::suites
