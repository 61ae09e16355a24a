#include "suites/engine/device_campaign.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <sstream>

#include "generators/core/random_source.h"
#include "harness/backend.h"
#include "oracle/core/backing.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/targets.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/batch_engine.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/stop_signals.h"
#include "suites/engine/subprocess.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

gen::GeneratedSparse DrawSparseMmaCase(uint64_t seed, uint64_t index) {
  gen::RandomSource s(gen::CaseSeed(seed, kSparseMmaDeviceSuite, index));
  return gen::DrawSparse(s, gen::Intent::kLegal);
}

std::span<const gen::DrawnVariant> ExactSuiteVariants(std::string_view suite) {
  static const std::vector<gen::DrawnVariant> f16k32 = gen::DrawnVariantsOf("m16n8k32.f16");
  if (suite == kSparseMmaExactSuite) return gen::DrawnVariants();
  if (suite == kSparseMmaExactF16K32Suite) return f16k32;
  return {};
}

gen::GeneratedSparse DrawSparseExactCase(std::string_view suite, uint64_t seed, uint64_t index) {
  return gen::DrawDeviceDrawn(gen::CaseSeed(seed, suite, index), ExactSuiteVariants(suite));
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
    p.reason = "the device probe failed: " + r.Describe(co.timeout) +
               (r.err.empty() ? "" : ": " + r.err.substr(0, r.err.find('\n')));
  }
  return p;
}

bool IsDeviceSuite(const std::string& name) { return FindDeviceSuite(name) != nullptr; }

std::string BackendWords() {
  std::string words;
  for (const std::string& w : harness::BackendArgs()) {
    const bool plain = w.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789_-=,./:") == std::string::npos;
    words += " " + (plain ? w : ShellQuote(w));
  }
  return words;
}
std::vector<std::string> DeviceSuiteNames() {
  std::vector<std::string> names;
  for (const DeviceSuite& s : DeviceSuites()) names.emplace_back(s.name);
  return names;
}

std::vector<std::string> DefaultDeviceSuiteNames() {
  std::vector<std::string> names;
  for (const DeviceSuite& s : DeviceSuites()) {
    if (s.in_default_campaign) names.emplace_back(s.name);
  }
  return names;
}

std::string UnconfirmedReadings(std::span<const std::string_view> ids, std::string_view target) {
  std::string out;
  for (std::string_view id : ids) {
    const oracle::Backing b = oracle::BackingOf(id, target);
    if (b == oracle::Backing::kHardware) continue;
    out += (out.empty() ? "" : ", ") + std::string(id) + " (" + std::string(oracle::Name(b)) + ")";
  }
  return out;
}

std::optional<oracle::num::Gpu> RecordedGpuRow(const oracle::TextDoc& doc) {
  if (doc.Has("origin.gpu")) return oracle::num::ParseGpu(doc.String("origin.gpu").value());
  if (!doc.Has("origin.device")) return std::nullopt;
  const std::string device = doc.String("origin.device").value();
  int major = 0, minor = 0;
  const std::size_t at = device.find(", CC ");
  if (at == std::string::npos || std::sscanf(device.c_str() + at + 5, "%d.%d", &major, &minor) != 2)
    return std::nullopt;
  return oracle::num::ParseGpu(GpuRowName(major, minor));
}

RunPlace PlaceOf(const DeviceProbe& d) {
  if (!d.available) return {};
  const auto version = [](int v) {  // 13000 -> "13.0"
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  return {d.name, std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor),
          version(d.driver_version), version(d.runtime_version)};
}

std::string GpuRowName(int cc_major, int cc_minor) {
  // The target's row (oracle/numerics/targets.h); a target without one is judged with its
  // generation's nearest row, whose backing there is a hypothesis (model_unconfirmed).
  if (const auto t = oracle::num::TargetOfCc(cc_major, cc_minor); t.ok() && t.value().row)
    return std::string(oracle::num::Name(*t.value().row));
  if (cc_major >= 10) return "sm_100";
  if (cc_major == 9) return "sm_90";
  return cc_minor >= 9 ? "sm_89" : "sm_80";
}

namespace {

// The device the suite runs on, or nullopt when it does not run there. A host backend presents
// as each target of its list (harness::TargetFor picks the one a worker runs as), so the suite
// runs as the first that runs it, and its verdicts (numerics row, which hardware evidence holds)
// are that target's: tcgen05 on "sm_90a,sm_100a" is judged as on sm_100, not on the sm_90 the
// campaign probed first.
std::optional<DeviceProbe> SuiteDevice(const DeviceSuite& def, const DeviceProbe& device) {
  if (!def.runs_on || def.runs_on(device.cc_major, device.cc_minor)) return device;
  const auto c = harness::ProcessBackend();
  if (!c.ok() || c.value().kind == harness::BackendKind::kCuda) return std::nullopt;
  for (const auto& [major, minor] : harness::TargetCcs(c.value())) {
    if (!def.runs_on(major, minor)) continue;
    DeviceProbe as = device;
    as.cc_major = major;
    as.cc_minor = minor;
    return as;
  }
  return std::nullopt;
}

}  // namespace

bool DeviceSuiteRuns(const std::string& name, const DeviceProbe& probed) {
  const DeviceSuite* def = FindDeviceSuite(name);
  return def != nullptr && probed.available && SuiteDevice(*def, probed).has_value();
}

SuiteReport RunDeviceSuite(const std::string& suite, const CampaignOptions& o,
                           const DeviceProbe& probed, const std::string& work,
                           const std::string& shown_dir, uint64_t start,
                           uint64_t reproducers_before, double seconds_before,
                           RunExpectations& expectations, std::ostream& log) {
  SuiteReport r;
  r.suite = suite;
  r.device = true;
  r.resume_from = start;
  const DeviceSuite* def = FindDeviceSuite(suite);
  if (def == nullptr) {
    r.skipped = "not a GPU suite";
    return r;
  }
  if (!probed.available) {
    r.skipped = "no GPU: " + probed.reason;
    log << suite << ": skipped (" << r.skipped << ")\n";
    return r;
  }
  const std::optional<DeviceProbe> runs_on = SuiteDevice(*def, probed);
  if (!runs_on) {
    r.skipped = "needs " + std::string(def->runs_on_what) + "; this is " + probed.name + ", CC " +
                std::to_string(probed.cc_major) + "." + std::to_string(probed.cc_minor);
    log << suite << ": skipped (" << r.skipped << ")\n";
    return r;
  }
  const DeviceProbe& device = *runs_on;
  const RunPlace place = PlaceOf(device);
  EngineOptions e;
  e.worker = o.worker;
  e.worker.push_back("worker");
  e.extra_args = o.worker_extra;
  if (o.shard_count > 1) {
    e.extra_args.insert(e.extra_args.end(), {"--shard", std::to_string(o.shard_index) + "/" +
                                                            std::to_string(o.shard_count)});
  }
  // A worker takes the suite's batch, but at most 1,024 launches' worth (and never fewer than
  // 65,536 cases): a one-case-per-launch baseline must not hand one worker millions of launches.
  const uint64_t per_launch = o.device_cases_per_launch
                                  ? o.device_cases_per_launch
                                  : uint64_t{1} << 16;  // the worker's default
  e.batch = o.device_batch ? o.device_batch
                           : std::min(def->worker_batch,
                                      std::max(uint64_t{1} << 16, uint64_t{1024} * per_launch));
  e.watchdog_base = std::chrono::milliseconds(o.device_watchdog_ms);
  e.watchdog_per_case = def->watchdog_per_case;
  if (o.device_cases_per_launch > 0) {
    e.extra_args.insert(e.extra_args.end(),
                        {"--cases-per-launch", std::to_string(o.device_cases_per_launch)});
    // Small launches pay a launch (and a module load) per few cases: about 1 ms a case at one.
    if (o.device_cases_per_launch < 1024)
      e.watchdog_per_case = std::max(e.watchdog_per_case, std::chrono::microseconds(5000));
  }
  // A host backend runs a case in microseconds (a warp) to milliseconds (a tile), not a GPU's
  // nanoseconds: a worker takes at most 8,192 cases, each allowed 20 ms (a tcgen05 tile on one
  // core under AddressSanitizer takes about 10), so a worker that stops answering is found in
  // minutes, not after a GPU-sized batch.
  if (const auto backend = harness::ProcessBackend();
      backend.ok() && backend.value().kind != harness::BackendKind::kCuda) {
    if (!o.device_batch) e.batch = std::min<uint64_t>(e.batch, 8192);
    e.watchdog_per_case = std::max(e.watchdog_per_case, std::chrono::microseconds(20000));
  }
  e.journal_path = work + "/journal-" + suite + ".txt";  // appended to by a resumed run
  e.stop = StopRequested;
  e.reruns = o.reruns;
  const uint64_t cases = std::max(start, o.cases     ? *o.cases
                                         : o.seconds ? uint64_t{1} << 40
                                                     : 200'000);
  // At least 1 ms (0 would mean no deadline) and at most a year (no overflow).
  if (o.seconds)
    e.deadline = std::chrono::milliseconds(
        static_cast<int64_t>(std::clamp((*o.seconds - seconds_before) * 1000, 1.0, 3.2e10)));
  // Undefined-by-spec observations an interrupted run already kept.
  std::size_t observations = 0;
  {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(work + "/undefined", ec), end; !ec && it != end;
         it.increment(ec)) {
      // "<suite>-<index>.txt" exactly: sparse-mma's files are not sparse-mma-exact's.
      const std::string name = it->path().filename().string();
      const std::string digits = name.substr(std::min(name.size(), suite.size() + 1));
      observations += name.starts_with(suite + "-") && name.ends_with(".txt") &&
                              digits.size() > 4 &&
                              digits.find_first_not_of("0123456789") == digits.size() - 4
                          ? 1
                          : 0;
    }
  }
  uint64_t reproducers_written = reproducers_before;
  const auto t0 = std::chrono::steady_clock::now();
  const auto failed_so_far = [](const EngineResult& so_far) {
    uint64_t bad = 0;
    for (const auto& [outcome, n] : so_far.counts) bad += IsFailure(outcome) ? n : 0;
    return bad;
  };
  const auto since = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  SuiteProgress progress(o, suite, o.cases ? ShardShare(start, cases, o) : 0);
  e.on_progress = [&](const EngineResult& so_far) {
    progress.Update(so_far.cases, failed_so_far(so_far));
  };
  const EngineResult er = RunEngine(e, suite, o.seed, start, cases - start);
  progress.Final(er.cases, failed_so_far(er));
  r.seconds = since();
  r.resume_from = er.next;
  r.complete = !(StopRequested() && er.next < cases);
  if (!er.error.empty()) log << oracle::ErrorLine(std::string(suite) + ": " + er.error);
  // Shards: the engine counted only this shard's cases (the worker skips the others).
  r.cases = er.cases;
  for (const auto& [outcome, n] : er.counts) {
    if (n == 0) continue;
    r.outcomes[std::string(Name(outcome))] = n;
    r.failed += IsFailure(outcome) ? n : 0;
  }
  // Families are the forms and layouts the workers counted; a case they could not count (found
  // alone after its range's worker died) is counted from the parent's rebuild below.
  for (const auto& [family, n] : er.families) r.families[family].cases += n;
  for (const auto& [family, n] : er.unsupported_families) r.families[family].not_supported += n;
  for (const auto& [why, n] : er.not_supported) r.coverage["not supported: " + why] = n;
  r.discrimination = er.discrimination;
  const std::string environment = device.name + ", CC " + std::to_string(device.cc_major) + "." +
                                  std::to_string(device.cc_minor) + ", CUDA driver API " +
                                  std::to_string(device.driver_version) + ", runtime " +
                                  std::to_string(device.runtime_version);
  const oracle::num::Gpu gpu = oracle::num::ParseGpu(GpuRowName(device.cc_major, device.cc_minor))
                                   .value_or(oracle::num::Gpu::kSm90);
  // Hardware evidence holds on the target it was seen on: this device's own sm_XY.
  const std::string target = "sm_" + std::to_string(device.cc_major * 10 + device.cc_minor);
  const auto move_count = [&r](std::string_view from, std::string_view to) {
    const auto it = r.outcomes.find(std::string(from));
    if (it != r.outcomes.end() && --it->second == 0) r.outcomes.erase(it);
    if (const auto was = ParseOutcome(from); was && IsFailure(*was)) --r.failed;
    ++r.outcomes[std::string(to)];
  };
  for (const CaseRecord& c : er.records) {
    const std::vector<uint32_t> observed = ParseObserved(c.detail, 0);
    const DescribedCase dc = def->describe(o.seed, c.index, observed, gpu);
    FamilyStats& family = r.families[dc.family];
    if (!c.in_families) ++family.cases;
    std::string message = c.detail.substr(0, c.detail.find(" observed="));
    // A case the spec leaves undefined: counted per rule and outcome, its file kept under
    // undefined/ as a record of what this device did; never a failure, even a fault or a hang
    // (isolated like any other by then).
    CaseOutcome outcome = c.outcome;
    if (!dc.broken_rules.empty() && IsFailure(outcome)) {
      move_count(Name(outcome), Name(CaseOutcome::kUndefinedBySpec));
      message = dc.broken_rules + ": " + std::string(Name(outcome)) + ", " + message;
      outcome = CaseOutcome::kUndefinedBySpec;
    }
    // A wrong D whose expectation rests on a reading no hardware has shown on this target: our
    // model is unproven here, which is not the same finding as "the device is wrong".
    if (outcome == CaseOutcome::kMismatch) {
      if (const std::string why = UnconfirmedReadings(dc.rests_on, target); !why.empty()) {
        move_count(Name(outcome), Name(CaseOutcome::kModelUnconfirmed));
        message = "rests on " + why + ": " + message;
        outcome = CaseOutcome::kModelUnconfirmed;
      }
    }
    // A result that changed when the case ran again: reported, not judged a failure.
    if (outcome == CaseOutcome::kFlaky) {
      FailureRecord f;
      f.family = dc.family;
      f.index = c.index;
      f.case_seed = gen::CaseSeed(o.seed, suite, c.index);
      f.case_name = f.family + "#" + std::to_string(c.index);
      f.check = "flaky";
      f.signature = suite + "." + f.family + ".flaky";
      f.message = message;
      log << "FLAKY " << suite << "." << f.case_name << ": " << oracle::OneLine(f.message) << "\n";
      if (r.flaky.size() < kMaxListedFailures) r.flaky.push_back(std::move(f));
      continue;
    }
    // A failure the CI baseline names: expected_fail, listed apart, no reproducer.
    if (IsFailure(outcome)) {
      const std::string check(Name(outcome));
      const std::string signature = suite + "." + dc.family + "." + check;
      if (const ExpectationLine* line = expectations.Match(place, suite, dc.family, signature)) {
        move_count(check, "expected_fail");
        ++family.expected, ++r.expected;
        FailureRecord f;
        f.family = dc.family;
        f.index = c.index;
        f.case_seed = gen::CaseSeed(o.seed, suite, c.index);
        f.case_name = f.family + "#" + std::to_string(c.index);
        f.check = check;
        f.signature = signature;
        f.expectation_line = line->line;
        f.message =
            "expected (line " + std::to_string(line->line) + ": " + line->reason + "): " + message;
        log << "XFAIL " << suite << "." << f.case_name << " " << check << ": "
            << oracle::OneLine(f.message) << "\n";
        if (r.expected_failures.size() < kMaxListedFailures)
          r.expected_failures.push_back(std::move(f));
        continue;
      }
    }
    const bool unconfirmed = outcome == CaseOutcome::kModelUnconfirmed;
    const bool undefined = outcome == CaseOutcome::kUndefinedBySpec;
    if (undefined) ++r.coverage["undefined by spec: " + message.substr(0, message.find(':'))];
    std::string path;
    if (undefined ? observations < o.max_reproducers : reproducers_written < o.max_reproducers) {
      std::string text = dc.text;
      const auto origin = [&text](const std::string& key, const std::string& value) {
        text += key + " = " + value + "\n";
      };
      origin("origin.suite", suite);
      origin("origin.seed", std::to_string(o.seed));
      origin("origin.index", std::to_string(c.index));
      origin("origin.outcome", std::string(Name(outcome)));
      origin("origin.detail", message + (dc.explanation.empty() ? "" : "; " + dc.explanation));
      origin("origin.device", environment);
      origin("origin.gpu", GpuRowName(device.cc_major, device.cc_minor));
      origin("origin.mode", dc.mode);
      path = std::string(undefined     ? "undefined/"
                         : unconfirmed ? "unconfirmed/"
                                       : "reproducers/") +
             suite + "-" + std::to_string(c.index) + ".txt";
      text += "# replay, from the report folder: " + ToolCommand() + " replay " + path + "\n";
      text += "# rerun on a GPU: " + ToolCommand() + " run --suite " + suite + " --seed " +
              std::to_string(o.seed) + " --cases " + std::to_string(c.index + 1) + BackendWords() +
              "\n";
      if (WriteFileAtomic(work + "/" + path, text).ok()) {
        ++(undefined ? observations : reproducers_written);
      } else {
        path.clear();
      }
    }
    if (undefined) continue;
    if (!unconfirmed) ++family.failed;
    FailureRecord f;
    f.family = dc.family;
    f.index = c.index;
    f.case_seed = gen::CaseSeed(o.seed, suite, c.index);
    f.case_name = f.family + "#" + std::to_string(c.index);
    f.check = std::string(Name(outcome));
    f.signature = suite + "." + f.family + "." + f.check;
    f.message = message + (dc.explanation.empty() ? "" : "; " + dc.explanation);
    f.reproducer_path = path;
    if (!observed.empty() && dc.expected.size() == observed.size() && dc.cols > 0 &&
        r.failures.size() + r.unconfirmed.size() < kTilePictures)
      f.tile = TileDiff{dc.cols, dc.d_format, dc.expected, observed};
    log << (unconfirmed ? "UNCONFIRMED " : "FAIL ") << suite << "." << f.case_name << " " << f.check
        << ": " << oracle::OneLine(f.message)
        << (f.reproducer_path.empty() ? "" : "  (" + shown_dir + "/" + f.reproducer_path + ")")
        << "\n";
    if (!unconfirmed) ++r.signatures[f.signature];
    auto& list = unconfirmed ? r.unconfirmed : r.failures;
    if (list.size() < kMaxListedFailures) list.push_back(std::move(f));
  }
  if (observations > 0)
    log << suite << ": " << observations << " undefined-by-spec cases recorded in " << shown_dir
        << "/undefined/\n";
  log << suite << ": " << er.workers << " worker processes";
  for (const auto& [outcome, n] : r.outcomes) log << ", " << n << " " << outcome;  // reclassed
  log << "; " << r.families.size() << " families (forms and layouts)\n";
  // A failing case's family the workers never counted would make the report say more of a family
  // failed than ran: a tcfuzz defect (the worker's Family and the describe disagree), said here.
  for (auto& [name, f] : r.families) {
    if (f.failed + f.expected <= f.cases) continue;
    log << oracle::ErrorLine(suite + ": tcfuzz defect: family " + oracle::Quoted(name) +
                             " has failing cases its workers did not count");
    f.cases = f.failed + f.expected;
  }
  // Where the workers' time went: what a faster campaign has to cut.
  double accounted = 0;
  for (const auto& [phase, s] : er.phase_seconds) accounted += s;
  r.worker_phases = er.phase_seconds;
  r.worker_phases["other"] = std::max(0.0, er.worker_seconds - accounted);
  const auto two = [](double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", s);
    return std::string(b);
  };
  log << suite << ": " << two(er.worker_seconds) << " s in workers:";
  for (const char* phase : {"draw", "jit", "device", "judge", "failed workers"}) {
    if (const auto it = r.worker_phases.find(phase); it != r.worker_phases.end())
      log << " " << phase << " " << two(it->second) << ",";
  }
  log << " other (start-up, CUDA init) " << two(r.worker_phases["other"]) << "\n";
  return r;
}

}  // namespace tcfuzz::suites
