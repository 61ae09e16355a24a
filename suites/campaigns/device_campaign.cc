#include "suites/campaigns/device_campaign.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "generators/core/random_source.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/runner/atomic_file.h"
#include "suites/runner/batch_engine.h"
#include "suites/runner/subprocess.h"
#include "suites/runner/worker_protocol.h"

namespace tcfuzz::suites {

oracle::Result<SparseCaseRead> ReadSparseCase(const std::string& path) {
  using R = oracle::Result<SparseCaseRead>;
  auto text = ReadFile(path);
  if (!text.ok()) return R::Fail(text.error());  // names the path already
  auto doc = oracle::TextDoc::Parse(text.value());
  if (!doc.ok()) return R::Fail(path + ": " + doc.error());
  const auto kind = doc.value().String("kind");
  if (!kind.ok() || kind.value() != oracle::sparse::kSparseKind) {
    return R::Fail(path + ": not a " + std::string(oracle::sparse::kSparseKind) + " case file");
  }
  auto c = oracle::sparse::SparseCaseFromDoc(doc.value());
  if (!c.ok()) return R::Fail(path + ": " + c.error());
  return R::Ok(SparseCaseRead{std::move(doc.value()), std::move(c.value())});
}

gen::GeneratedSparse DrawSparseMmaCase(uint64_t seed, uint64_t index) {
  gen::RandomSource s(gen::CaseSeed(seed, kSparseMmaDeviceSuite, index));
  return gen::DrawSparse(s, gen::Intent::kLegal);
}

DeviceProbe ProbeInWorker(const std::vector<std::string>& worker) {
  DeviceProbe p;
  std::vector<std::string> argv = worker;
  argv.insert(argv.end(), {"worker", "--probe"});
  CommandOptions co;
  co.timeout = std::chrono::milliseconds(60000);
  const CommandResult r = RunArgv(argv, "", co);
  std::istringstream in(r.out);
  std::string word;
  in >> word;
  if (r.ok() && word == "device") {
    in >> p.cc_major >> p.cc_minor >> p.driver_version >> p.runtime_version;
    std::getline(in >> std::ws, p.name);
    p.available = true;
  } else if (r.ok() && word == "none") {
    std::getline(in >> std::ws, p.reason);
  } else {
    p.reason = "the device probe failed: " + r.Describe(co.timeout) + (r.err.empty() ? "" : ": " + r.err.substr(0, r.err.find('\n')));
  }
  return p;
}

bool IsDeviceSuite(const std::string& name) { return name == kSparseMmaDeviceSuite; }
std::vector<std::string> DeviceSuiteNames() { return {kSparseMmaDeviceSuite}; }


std::string GpuRowName(int cc_major, int cc_minor) {
  if (cc_major >= 10) return "sm_100";
  if (cc_major == 9) return "sm_90";
  return cc_minor >= 9 ? "sm_89" : "sm_80";
}

namespace {

// For a probe case (A holds 1 + its column mod 8, B is one-hot per column), which A element the
// device read for the first differing element of D, next to the one the oracle reads.
std::string ProbeExplanation(const gen::GeneratedSparse& g, const std::vector<uint32_t>& observed) {
  if (g.mode != gen::ValueMode::kProbe || observed.size() != 128) return {};
  const std::vector<uint32_t> want =
      oracle::sparse::Reference(g.tile, oracle::num::DotParams{});  // probe sums are exact in any row
  const auto first = FirstDifference(want, observed);
  if (!first) return {};
  const std::size_t e = *first;
  const int row = static_cast<int>(e / 8), col = static_cast<int>(e % 8);
  int hot = -1;
  for (int k = 0; k < g.op.form->k; ++k) {
    if (g.tile.b[static_cast<std::size_t>(k * 8 + col)] != 0) hot = k;
  }
  const auto value = [&](uint32_t bits) {
    if (g.tile.cd == oracle::num::Format::kS32) return static_cast<double>(static_cast<int32_t>(bits));
    return oracle::num::ToDouble(g.tile.cd, bits);
  };
  const double c = value(g.tile.c[e]);
  const auto read = [&](double v) {
    const double a = v - c;
    if (a == 0) return std::string("no A element (0)");
    if (!(a >= 1 && a <= 8) || a != std::floor(a)) return "the value " + std::to_string(a) + " (not a probe value)";
    return "an A element of column = " + std::to_string(static_cast<int>(a) - 1) + " (mod " +
           (g.tile.cd == oracle::num::Format::kS32 ? "7" : "8") + ")";
  };
  return "probe: D[" + std::to_string(row) + "][" + std::to_string(col) + "] meets B's one hot row " +
         std::to_string(hot) + "; the oracle reads " + read(value(want[e])) + ", the device read " + read(value(observed[e]));
}

}  // namespace

SuiteReport RunDeviceSuite(const std::string& suite, const CampaignOptions& o, const DeviceProbe& device,
                           std::ostream& log, std::size_t& reproducers_written) {
  SuiteReport r;
  r.suite = suite;
  if (!device.available) {
    r.skipped = "no GPU: " + device.reason;
    log << suite << ": skipped (" << r.skipped << ")\n";
    return r;
  }
  EngineOptions e;
  e.worker = o.worker;
  e.worker.push_back("worker");
  e.extra_args = o.worker_extra;
  if (o.shard_count > 1) {
    e.extra_args.insert(e.extra_args.end(), {"--shard", std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count)});
  }
  e.batch = o.device_batch;
  e.watchdog_base = std::chrono::milliseconds(o.device_watchdog_ms);
  if (o.device_cases_per_launch > 0) {
    e.extra_args.insert(e.extra_args.end(), {"--cases-per-launch", std::to_string(o.device_cases_per_launch)});
    // Small launches pay a launch (and a module load) per few cases: about 1 ms a case at one.
    if (o.device_cases_per_launch < 1024) e.watchdog_per_case = std::chrono::microseconds(5000);
  }
  e.journal_path = o.report_dir + "/journal-" + suite + ".txt";
  const uint64_t cases = o.cases ? *o.cases : o.seconds ? uint64_t{1} << 40 : 200'000;
  // At least 1 ms (0 would mean no deadline) and at most a year (no overflow).
  if (o.seconds) e.deadline = std::chrono::milliseconds(static_cast<int64_t>(std::clamp(*o.seconds * 1000, 1.0, 3.2e10)));
  if (!WriteFileAtomic(e.journal_path, "").ok()) log << "tcfuzz: warning: cannot create " << e.journal_path << "\n";
  const auto t0 = std::chrono::steady_clock::now();
  const auto failed_so_far = [](const EngineResult& so_far) {
    uint64_t bad = 0;
    for (const auto& [outcome, n] : so_far.counts) bad += outcome == CaseOutcome::kPass || outcome == CaseOutcome::kNotSupported ? 0 : n;
    return bad;
  };
  const auto since = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (o.progress) {
    e.on_progress = [&](const EngineResult& so_far) { PrintProgress(suite, so_far.cases, failed_so_far(so_far), since(), false); };
  }
  const EngineResult er = RunEngine(e, suite, o.seed, 0, cases);
  if (o.progress) PrintProgress(suite, er.cases, failed_so_far(er), since(), true);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!er.error.empty()) log << "tcfuzz: error: " << suite << ": " << er.error << "\n";
  // Shards: the engine counted only this shard's cases (the worker skips the others).
  r.cases = er.cases;
  for (const auto& [outcome, n] : er.counts) {
    FamilyStats& f = r.families[std::string(Name(outcome))];
    f.cases = n;
    const bool failing = outcome != CaseOutcome::kPass && outcome != CaseOutcome::kNotSupported;
    f.failed = failing ? n : 0;
    r.failed += f.failed;
  }
  for (const auto& [why, n] : er.not_supported) r.coverage["not supported: " + why] = n;
  for (const CaseRecord& c : er.records) {
    FailureRecord f;
    const gen::GeneratedSparse g = DrawSparseMmaCase(o.seed, c.index);
    f.family = g.op.form->Name();
    f.index = c.index;
    f.case_seed = gen::CaseSeed(o.seed, suite, c.index);
    f.case_name = suite + "." + f.family + "#" + std::to_string(c.index);
    f.check = std::string(Name(c.outcome));
    f.message = c.detail.substr(0, c.detail.find(" observed="));
    const std::vector<uint32_t> observed = ParseObserved(c.detail);
    if (const std::string probe = ProbeExplanation(g, observed); !probe.empty()) f.message += "; " + probe;
    if (reproducers_written < o.max_reproducers) {
      oracle::TextWriter w(oracle::sparse::kSparseKind);
      oracle::sparse::AppendSparseCase(w, g.op, g.tile, observed.empty() ? nullptr : &observed);
      w.Add("origin.suite", suite);
      w.Add("origin.seed", std::to_string(o.seed));
      w.Add("origin.index", std::to_string(c.index));
      w.Add("origin.outcome", f.check);
      w.Add("origin.detail", f.message);
      w.Add("origin.device", device.name + ", CC " + std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor) +
                                 ", CUDA driver API " + std::to_string(device.driver_version) + ", runtime " +
                                 std::to_string(device.runtime_version));
      w.Add("origin.gpu", GpuRowName(device.cc_major, device.cc_minor));
      w.Add("origin.mode", gen::Name(g.mode));
      const std::string path = o.report_dir + "/reproducers/" + suite + "-" + std::to_string(c.index) + ".txt";
      std::string text = w.str() + "# replay: tcfuzz replay " + path + "\n";
      text += "# rerun on a GPU: tcfuzz run --suite " + suite + " --seed " + std::to_string(o.seed) + " --cases " +
              std::to_string(c.index + 1) + "\n";
      if (WriteFileAtomic(path, text).ok()) {
        f.reproducer_path = path;
        ++reproducers_written;
      }
    }
    log << "FAIL " << f.case_name << " " << f.check << ": " << f.message
        << (f.reproducer_path.empty() ? "" : "  (" + f.reproducer_path + ")") << "\n";
    r.failures.push_back(std::move(f));
  }
  log << suite << ": " << er.workers << " worker processes";
  for (const auto& [outcome, n] : er.counts) log << ", " << n << " " << Name(outcome);
  log << "\n";
  return r;
}

}  // namespace tcfuzz::suites
