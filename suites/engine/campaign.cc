#include "suites/engine/campaign.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iterator>
#include <map>
#include <thread>

#include "generators/core/random_source.h"
#include "harness/backend.h"
#include "harness/host_threads.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/report.h"
#include "suites/engine/report_folder.h"
#include "suites/engine/run_expectations.h"
#include "suites/engine/stop_signals.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A failing case into the suite's report, in index order: the failure (an expected one as
// such) and its reproducer. Its family's case is counted already.
void TallyFailure(const HostSuite& suite, const CampaignOptions& o, const std::string& work,
                  const std::string& shown_dir, uint64_t index, CaseResult c,
                  uint64_t failed_before, RunExpectations& expectations, const RunPlace& host,
                  SuiteReport& r, std::ostream& log) {
  const uint64_t case_seed = gen::CaseSeed(o.seed, suite.name(), index);
  FamilyStats& fam = r.families[c.family];
  {
    FailureRecord f;
    f.family = c.family;
    f.index = index;
    f.case_seed = case_seed;
    f.case_name = c.family + "#" + std::to_string(index);
    f.check = c.failures.front().check;
    f.signature = r.suite + "." + f.family + "." + f.check;
    f.message = c.failures.front().message;
    if (const ExpectationLine* e = expectations.Match(host, r.suite, f.family, f.signature)) {
      f.expectation_line = e->line;
      f.message =
          "expected (line " + std::to_string(e->line) + ": " + e->reason + "): " + f.message;
      ++r.expected;
      ++fam.expected;
      log << (o.progress ? "\n" : "") << "XFAIL " << r.suite << "." << f.case_name << " " << f.check
          << ": " << oracle::OneLine(f.message) << "\n";
      if (r.expected_failures.size() < kMaxListedFailures)
        r.expected_failures.push_back(std::move(f));
      return;
    }
    if (failed_before + r.failed < o.max_reproducers) {
      const std::string rel = "reproducers/" + r.suite + "-" + std::to_string(index) +
                              (suite.shell_reproducers() ? ".sh" : ".txt");
      std::string text = c.reproducer;
      // A shell reproducer keeps its origin as comments: sh runs every other line.
      const std::string key = suite.shell_reproducers() ? "# " : "";
      text += key + "origin.suite = " + r.suite + "\n";
      text += key + "origin.seed = " + std::to_string(o.seed) + "\n";
      text += key + "origin.index = " + std::to_string(index) + "\n";
      for (const CheckFailure& cf : c.failures) {
        text += "# finding: " + cf.check + ": " + cf.message + "\n";
      }
      text += key + "finding.check = " + f.check + "\n";
      text += suite.shell_reproducers()
                  ? "# rerun, from the report folder: sh " + rel + "\n"
                  : "# replay, from the report folder: " + ToolCommand() + " replay " + rel + "\n";
      auto written = WriteFileAtomic(work + "/" + rel, text);
      if (written.ok()) {
        f.reproducer_path = rel;
      } else {
        log << "tcfuzz: warning: " << oracle::OneLine(written.error(), 1000) << "\n";
      }
    }
    ++r.failed;
    ++fam.failed;
    ++r.signatures[f.signature];
    log << (o.progress ? "\n" : "") << "FAIL " << r.suite << "." << f.case_name << " " << f.check
        << ": " << oracle::OneLine(f.message)
        << (f.reproducer_path.empty() ? "" : "  (" + shown_dir + "/" + f.reproducer_path + ")")
        << "\n";
    if (r.failures.size() < kMaxListedFailures) r.failures.push_back(std::move(f));
  }
}

// What one thread of a batch counted: cases per family and per coverage tag (tags are static),
// and what the family's cases tell apart.
struct Counts {
  std::map<std::string, uint64_t> families;
  std::map<std::string_view, uint64_t> coverage;
  Discrimination discrimination;
};

// One host suite from `start` (a resumed run's first index) to its end, its time budget or a
// stop request; the report says which.
SuiteReport RunSuite(HostSuite& suite, const CampaignOptions& o, const std::string& work,
                     const std::string& shown_dir, uint64_t start, uint64_t failed_before,
                     double seconds_before, RunExpectations& expectations, std::ostream& log) {
  const RunPlace host;  // no device: lines naming one do not hold here
  SuiteReport r;
  r.suite = std::string(suite.name());
  r.declared_families = suite.families();
  const Clock::time_point t0 = Clock::now();
  std::optional<uint64_t> cases =
      o.cases || o.seconds ? o.cases : std::optional<uint64_t>(suite.default_cases());
  // Past its distinct cases a suite would repeat itself (a whole toolchain scan is enough).
  cases = std::min(cases.value_or(~uint64_t{0}), suite.case_space());
  if (cases == ~uint64_t{0}) cases.reset();
  SuiteProgress progress(o, r.suite, cases ? ShardShare(0, *cases, o) : 0);
  const unsigned threads = o.host_threads ? o.host_threads : harness::DefaultHostThreads();
  // Batches run on every thread, then are tallied in index order, so the report is the same
  // whatever the thread count; the clock and the stop flag are read between grains. A batch
  // starts at 1,024 cases and doubles (to 65,536) while one takes under 20 ms, so a suite of
  // cheap cases does not pay a batch's start and end every millisecond.
  uint64_t batch_size = 1024;
  uint64_t index = start;
  for (;;) {
    if (cases && index >= *cases) break;
    if (StopRequested()) {
      r.complete = false;
      break;
    }
    if (o.seconds && seconds_before + Since(t0) >= *o.seconds) break;
    const uint64_t room = cases ? (*cases - index + o.shard_count - 1) / o.shard_count : batch_size;
    const Clock::time_point batch_start = Clock::now();
    const std::size_t size = static_cast<std::size_t>(std::min(batch_size, room));
    // Each thread takes the batch's next kGrain cases until none are left (a case's cost varies
    // tenfold with its form: fixed slices left one thread idle at the end of every batch) and
    // counts its families and coverage; it keeps its failures, rare, which are tallied after in
    // index order. A passing case is freed by the thread that made it (freeing another thread's
    // allocations serialized the threads).
    constexpr std::size_t kGrain = 8;
    const unsigned parts = static_cast<unsigned>(std::min<uint64_t>(threads, size));
    std::vector<Counts> counts(parts);
    std::vector<std::vector<std::pair<std::size_t, CaseResult>>> failed(parts);
    std::atomic<std::size_t> next{0};
    // A stop request or the budget's end is heeded between grains, not only between batches: a
    // case may take a tiler's or an assembler's whole deadline. A grain taken is run whole, so
    // the cases run stay a prefix of the batch.
    const auto stop_now = [&] {
      return StopRequested() || (o.seconds && seconds_before + Since(t0) >= *o.seconds);
    };
    {
      std::vector<std::jthread> pool;
      const auto run_cases = [&](unsigned p) {
        for (std::size_t from; !stop_now() && (from = next.fetch_add(kGrain)) < size;) {
          for (std::size_t j = from; j < std::min(size, from + kGrain); ++j) {
            const uint64_t i = index + j * o.shard_count;
            CaseResult c = suite.RunCase(i, gen::CaseSeed(o.seed, suite.name(), i));
            ++counts[p].families[c.family];
            for (std::string_view tag : c.tags) ++counts[p].coverage[tag];
            if (!c.probes.empty()) Count(counts[p].discrimination[c.family], c.probes);
            if (!c.failures.empty()) failed[p].emplace_back(j, std::move(c));
          }
        }
      };
      for (unsigned p = 1; p < parts; ++p) pool.emplace_back(run_cases, p);
      run_cases(0);  // this thread too: one fewer to start per batch
    }
    for (const Counts& c : counts) {
      for (const auto& [family, n] : c.families) r.families[family].cases += n;
      for (const auto& [tag, n] : c.coverage) r.coverage[std::string(tag)] += n;
      AddDiscrimination(r.discrimination, c.discrimination);
    }
    std::vector<std::pair<std::size_t, CaseResult>> in_order;
    for (auto& f : failed) std::move(f.begin(), f.end(), std::back_inserter(in_order));
    std::sort(in_order.begin(), in_order.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [j, c] : in_order) {
      TallyFailure(suite, o, work, shown_dir, index + j * o.shard_count, std::move(c),
                   failed_before, expectations, host, r, log);
    }
    const std::size_t ran = std::min(size, next.load());
    r.cases += ran;
    index += ran * o.shard_count;
    progress.Update(r.cases, r.failed);
    if (batch_size < 65536 && Since(batch_start) < 0.02) batch_size *= 2;
  }
  r.resume_from = index;
  r.seconds = Since(t0);
  progress.Final(r.cases, r.failed);
  return r;
}

// Writes the report files into the work folder and switches it in; false (after a one-line
// error) when that fails.
bool WriteReport(const CampaignReport& report, ReportFolder& folder, std::ostream& log) {
  for (const auto& [file, content] : {std::pair{std::string("summary.json"), SummaryJson(report)},
                                      std::pair{std::string("junit.xml"), JUnitXml(report)},
                                      std::pair{std::string("index.html"), IndexHtml(report)}}) {
    auto written = WriteFileAtomic(folder.work() + "/" + file, content);
    if (!written.ok()) {
      log << oracle::ErrorLine(written.error());
      return false;
    }
  }
  auto committed = folder.Commit();
  if (!committed.ok()) {
    log << oracle::ErrorLine(committed.error());
    return false;
  }
  return true;
}

const SuiteReport* Find(const CampaignReport* r, const std::string& suite) {
  if (r == nullptr) return nullptr;
  for (const SuiteReport& s : r->suites) {
    if (s.suite == suite) return &s;
  }
  return nullptr;
}

// The options a suite runs with. Under a whole-run budget it gets the time left over the
// `suites_left` that will still run (itself included), on top of what it had before an
// interruption; a per-suite --suite-time caps that share.
CampaignOptions SuiteShare(const CampaignOptions& o, std::size_t suites_left,
                           const std::optional<Clock::time_point>& run_deadline,
                           double seconds_before) {
  CampaignOptions so = o;
  if (!run_deadline) return so;
  const double share =
      std::max(0.0, std::chrono::duration<double>(*run_deadline - Clock::now()).count()) /
      static_cast<double>(std::max<std::size_t>(1, suites_left));
  so.seconds = std::min(seconds_before + share, o.seconds.value_or(1e12));
  so.run_deadline = run_deadline;
  return so;
}

// The campaign over `all`, continuing `prior` (an interrupted run's report) when given.
int Run(const CampaignOptions& o, std::vector<std::unique_ptr<HostSuite>> all,
        const CampaignReport* prior, std::ostream& log) {
  std::vector<std::string> planned;  // host suites first, then GPU suites
  std::vector<std::string> device_suites;
  const auto host = [&all](const std::string& name) -> HostSuite* {
    for (auto& s : all) {
      if (s->name() == name) return s.get();
    }
    return nullptr;
  };
  for (const std::string& name : o.suites) {
    if (IsDeviceSuite(name)) {
      device_suites.push_back(name);
    } else if (host(name) != nullptr) {
      planned.push_back(name);
    } else {
      std::string known;
      for (auto& s : all) known += (known.empty() ? "" : ", ") + std::string(s->name());
      for (const std::string& d : DeviceSuiteNames()) known += ", " + d;
      log << oracle::ErrorLine(std::string("unknown suite '") + name + "' (known: " + known + ")");
      return 2;
    }
  }
  if (o.suites.empty()) {
    for (auto& s : all) planned.emplace_back(s->name());
    if (!o.worker.empty()) device_suites = DefaultDeviceSuiteNames();
  }
  StopSignals signals;  // from here on a stop request ends in a report
  // The report folder is made and checked before the first case, not after the last.
  // Printed through OneLine: a folder named with a newline must not split a status line.
  const std::string shown_dir = oracle::OneLine(o.report_dir);
  auto opened = ReportFolder::Open(o.report_dir, prior != nullptr);
  if (!opened.ok()) {
    log << oracle::ErrorLine(opened.error());
    return 2;
  }
  ReportFolder folder = std::move(opened).value();
  // The baseline, read before the first case too.
  RunExpectations expectations, skips;
  for (auto [file, into, is_skips] : {std::tuple{&o.expectations_file, &expectations, false},
                                      std::tuple{&o.skips_file, &skips, true}}) {
    if (file->empty()) continue;
    auto loaded = RunExpectations::Load(*file, is_skips);
    if (!loaded.ok()) {
      log << oracle::ErrorLine((is_skips ? "--skips: " : "--expectations: ") + loaded.error());
      return 2;
    }
    *into = std::move(loaded).value();
  }
  if (prior != nullptr) expectations.AddPrior(prior->expectation_lines);
  // The device, asked once, by a worker process: this process never initializes CUDA.
  DeviceProbe device;
  if (!device_suites.empty()) {
    if (o.gpu == "off") {
      device.reason = "--gpu off";
    } else if (o.worker.empty()) {
      device.reason = "no worker binary";
    } else {
      device = ProbeInWorker(o.worker);
    }
  }
  // --gpu require without a GPU: nothing runs, and the report says why (each GPU suite an error
  // in JUnit, each host suite skipped), so a CI job's test view shows the cause; exit 2.
  const bool required_missing = !device_suites.empty() && o.gpu == "require" && !device.available;
  if (required_missing) log << oracle::ErrorLine(std::string("--gpu require: ") + device.reason);

  const auto t0 = Clock::now();
  CampaignReport report;
  report.tool = std::string(oracle::ToolVersion());
  report.provenance = ThisRun();
  report.provenance.backend_args = harness::BackendArgs();
  if (device.available) {
    const auto backend = harness::ProcessBackend();
    report.provenance.backend = std::string(
        harness::KindName(backend.ok() ? backend.value().kind : harness::BackendKind::kCuda));
    const std::string cc = device.name + ", CC " + std::to_string(device.cc_major) + "." +
                           std::to_string(device.cc_minor);
    report.provenance.devices.push_back(
        report.provenance.backend != "cuda"
            ? cc
            : cc + ", driver " + std::to_string(device.driver_version) + ", runtime " +
                  std::to_string(device.runtime_version));
  }
  if (prior != nullptr) {  // a resumed run: when its first part started, every host and device
    report.provenance = MergedProvenance({prior->provenance, report.provenance});
    report.provenance.seconds = prior->provenance.seconds;  // this part's time is added below
  }
  report.command_line = prior ? prior->command_line : o.command_line;
  static_cast<RunSettings&>(report) = o;
  report.planned_suites = planned;
  report.planned_suites.insert(report.planned_suites.end(), device_suites.begin(),
                               device_suites.end());
  log << "tcfuzz run: seed " << o.seed << " (" << o.seed_source << "), shard " << o.shard_index
      << "/" << o.shard_count << (o.shard_source.empty() ? "" : " (" + o.shard_source + ")")
      << (o.cases ? ", " + std::to_string(*o.cases) + " cases per suite" : "")
      << (o.seconds ? ", " + std::to_string(*o.seconds) + " s per suite" : "")
      << (o.run_seconds ? ", " + std::to_string(*o.run_seconds) + " s in all" : "")
      << (!o.cases && !o.seconds && !o.run_seconds ? ", each suite's default case count" : "")
      << ", report in " << shown_dir << "/" << (prior ? " (resumed)" : "") << std::endl;
  uint64_t failed = 0;
  // This part's budget: a resumed run's remaining suites share the whole budget again.
  std::optional<Clock::time_point> run_deadline;
  if (o.run_seconds)
    run_deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(*o.run_seconds));
  // Host suites of another subject say here whether they can run (a toolkit, a tiler). One that
  // ran before an interruption and cannot run here would lose its first part's cases: refused.
  std::map<std::string, std::string> unavailable;
  for (const std::string& name : planned) {
    const SuiteReport* b = Find(prior, name);
    if (b != nullptr && b->complete) continue;
    unavailable[name] = host(name)->Prepare(o);
    if (b != nullptr && b->skipped.empty() && !unavailable[name].empty()) {
      log << oracle::ErrorLine("--resume: suite " + name +
                               " ran before and cannot run here: " + unavailable[name]);
      return 2;
    }
  }
  // Whether a suite still has cases to run: not finished before an interruption, not kept off
  // its device by --skips, and for a GPU suite, a device to run on. Only those share the time.
  const auto will_run = [&](const std::string& name) {
    const SuiteReport* b = Find(prior, name);
    if ((b != nullptr && b->complete) || required_missing) return false;
    const bool dev = IsDeviceSuite(name);
    if (dev && !DeviceSuiteRuns(name, device)) return false;
    if (!dev && !unavailable[name].empty()) return false;
    return skips.Skip(dev ? PlaceOf(device) : RunPlace{}, name) == nullptr;
  };
  for (const std::string& name : report.planned_suites) {
    const SuiteReport* before = Find(prior, name);
    if (before != nullptr && before->complete) {
      report.suites.push_back(*before);  // finished before the interruption
      failed += before->failed;
      continue;
    }
    if (StopRequested()) break;  // not started: a resumed run starts it afresh
    const bool is_device = IsDeviceSuite(name);
    if (required_missing) {
      SuiteReport r;
      r.suite = name;
      r.device = is_device;
      if (!is_device) r.declared_families = host(name)->families();
      (is_device ? r.error : r.skipped) =
          is_device ? "--gpu require: " + device.reason : "not run: --gpu require found no GPU";
      report.suites.push_back(std::move(r));
      continue;
    }
    if (!is_device && !unavailable[name].empty()) {
      SuiteReport r;
      r.suite = name;
      r.declared_families = host(name)->families();
      r.skipped = unavailable[name];
      log << name << ": skipped (" << oracle::OneLine(r.skipped) << ")\n";
      report.suites.push_back(std::move(r));
      continue;
    }
    const RunPlace place = is_device ? PlaceOf(device) : RunPlace{};
    if (const ExpectationLine* skip = skips.Skip(place, name)) {
      SuiteReport r;
      r.suite = name;
      r.device = is_device;
      if (!is_device) r.declared_families = host(name)->families();
      r.skipped =
          "--skips " + o.skips_file + " line " + std::to_string(skip->line) + ": " + skip->reason;
      log << name << ": skipped (" << r.skipped << ")\n";
      report.suites.push_back(std::move(r));
      continue;
    }
    const uint64_t start = before ? before->resume_from : is_device ? 0 : o.shard_index;
    const double seconds_before = before ? before->seconds : 0;
    const auto at = std::find(report.planned_suites.begin(), report.planned_suites.end(), name);
    const auto left =
        static_cast<std::size_t>(std::count_if(at, report.planned_suites.end(), will_run));
    const CampaignOptions so = SuiteShare(o, left, run_deadline, seconds_before);
    SuiteReport r = is_device
                        ? RunDeviceSuite(name, so, device, folder.work(), shown_dir, start,
                                         before ? before->failed + before->unconfirmed.size() : 0,
                                         seconds_before, expectations, log)
                        : RunSuite(*host(name), so, folder.work(), shown_dir, start,
                                   before ? before->failed : 0, seconds_before, expectations, log);
    if (r.skipped.empty()) expectations.Ran(place, name);
    if (before != nullptr) {
      SuiteReport sum = *before;
      AddSuiteReport(sum, r);
      r = std::move(sum);
    }
    failed += r.failed;
    if (!is_device)
      log << r.suite << ": " << r.cases << " cases, " << r.failed << " failed, "
          << static_cast<uint64_t>(r.seconds > 0 ? static_cast<double>(r.cases) / r.seconds : 0)
          << " cases/s" << (r.complete ? "" : " (interrupted)") << "\n";
    report.suites.push_back(std::move(r));
  }
  report.interrupted = StopRequested();
  report.expectation_lines = expectations.Uses();
  uint64_t stale = 0, expected = 0;
  for (const ExpectationUse& u : report.expectation_lines) {
    if (!u.stale()) continue;
    ++stale;
    log << "STALE expectation line " << u.line << " (" << u.text << "  # " << u.reason
        << "): it could have matched and matched nothing\n";
  }
  uint64_t flaky = 0;
  for (const SuiteReport& s : report.suites) {
    expected += s.expected;
    flaky += s.outcomes.count("flaky") ? s.outcomes.at("flaky") : 0;
    // Cases that would pass a wrong result: said here, named in full in the report.
    const std::vector<std::string> low = LowDiscrimination(s.discrimination);
    for (std::size_t i = 0; i < low.size() && i < 3; ++i)
      log << "LOW DISCRIMINATION " << s.suite << ": " << low[i] << "\n";
    if (low.size() > 3) log << "  (" << low.size() - 3 << " more in the report)\n";
  }
  report.provenance.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  if (!WriteReport(report, folder, log)) return 2;
  log << "report: " << shown_dir << "/index.html, " << shown_dir << "/summary.json, " << shown_dir
      << "/junit.xml" << (failed ? ", reproducers in " + shown_dir + "/reproducers/" : "") << "\n";
  if (report.interrupted) {
    log << "INTERRUPTED (signal " << StopSignal() << "): " << failed
        << " failing cases so far; finish it with: tcfuzz run --resume " << shown_dir
        << BackendWords() << "\n";
    return 128 + StopSignal();
  }
  if (required_missing) {
    log << "FAILED: --gpu require: " << device.reason << " (nothing ran; seed " << o.seed << ")\n";
    return 2;
  }
  const bool bad = failed > 0 || (o.strict && (stale > 0 || flaky > 0));
  log << (bad ? "FAILED: " : "OK: ") << failed << " failing cases"
      << (expected ? ", " + std::to_string(expected) + " expected failures" : "")
      << (stale ? ", " + std::to_string(stale) + " stale expectation lines" : "")
      << (flaky ? ", " + std::to_string(flaky) + " flaky" : "") << " (seed " << o.seed << ")\n";
  return bad ? 1 : 0;
}

}  // namespace

uint64_t ShardShare(uint64_t first, uint64_t cases, const CampaignOptions& o) {
  const auto upto = [&](uint64_t n) {  // indices below n with i % N == I
    return n > o.shard_index ? (n - o.shard_index + o.shard_count - 1) / o.shard_count : 0;
  };
  return cases > first ? upto(cases) - upto(first) : 0;
}

SuiteProgress::SuiteProgress(const CampaignOptions& o, std::string suite, uint64_t total)
    : o_(o), t0_(Clock::now()), last_(t0_) {
  state_.suite = std::move(suite);
  state_.total = total;
  state_.budget = o.seconds;
}

void SuiteProgress::Update(uint64_t done, uint64_t failed) {
  if (!o_.progress && o_.progress_every <= 0) return;
  if (Since(last_) < (o_.progress ? 0.25 : o_.progress_every)) return;
  last_ = Clock::now();
  state_.done = done;
  state_.failed = failed;
  state_.seconds = Since(t0_);
  if (o_.run_deadline)
    state_.run_left =
        std::max(0.0, std::chrono::duration<double>(*o_.run_deadline - last_).count());
  PrintProgress(state_, o_.progress, false);
}

void SuiteProgress::Final(uint64_t done, uint64_t failed) {
  if (!o_.progress) return;  // the plain log has its own line per suite
  state_.done = done;
  state_.failed = failed;
  state_.seconds = Since(t0_);
  PrintProgress(state_, true, true);
}

void PrintProgress(const ProgressState& p, bool live, bool final_line) {
  const double rate = p.seconds > 0 ? static_cast<double>(p.done) / p.seconds : 0.0;
  char done[96];
  if (p.total > 0) {
    std::snprintf(done, sizeof done, "%llu/%llu cases (%.0f%%)",
                  static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
                  100.0 * static_cast<double>(p.done) / static_cast<double>(p.total));
  } else {
    std::snprintf(done, sizeof done, "%llu cases", static_cast<unsigned long long>(p.done));
  }
  double eta = -1;
  if (p.total > 0 && rate > 0)
    eta = static_cast<double>(p.total - std::min(p.done, p.total)) / rate;
  if (p.total == 0 && p.budget) eta = std::max(0.0, *p.budget - p.seconds);
  if (p.run_left) eta = *p.run_left;  // a whole-run budget: the run's end, not the suite's
  char eta_text[48] = "";
  if (!final_line && eta >= 0) std::snprintf(eta_text, sizeof eta_text, ", ETA %.0f s", eta);
  std::fprintf(stderr, "%s[%s] %s, %llu failed, %.0f cases/s, %.1f s%s%s", live ? "\r" : "",
               p.suite.c_str(), done, static_cast<unsigned long long>(p.failed), rate, p.seconds,
               eta_text, live && !final_line ? "   " : "\n");
  std::fflush(stderr);
}

int RunCampaign(const CampaignOptions& o, std::ostream& log) {
  return RunCampaign(o, MakeHostSuites(), log);
}

int RunCampaign(const CampaignOptions& o, std::vector<std::unique_ptr<HostSuite>> all,
                std::ostream& log) {
  return Run(o, std::move(all), nullptr, log);
}

int ResumeCampaign(const std::string& dir, const CampaignOptions& base, std::ostream& log) {
  return ResumeCampaign(dir, base, MakeHostSuites(), log);
}

int ResumeCampaign(const std::string& dir, const CampaignOptions& base,
                   std::vector<std::unique_ptr<HostSuite>> all, std::ostream& log) {
  auto prior = ReadSummary(dir + "/summary.json");
  if (!prior.ok()) {
    log << oracle::ErrorLine(std::string("--resume: ") + prior.error());
    return 2;
  }
  const CampaignReport& p = prior.value();
  if (p.merged_shards > 0) {
    log << oracle::ErrorLine(std::string("--resume: ") + dir +
                             " is a merged report; resume its shards");
    return 2;
  }
  // Another tcfuzz may draw other cases for the same indices and report in another shape (before
  // 0.3.0 a GPU suite's families were its result classes): its run is not one run with ours.
  if (p.tool != oracle::ToolVersion()) {
    log << oracle::ErrorLine("--resume: " + dir + " was written by " + oracle::Quoted(p.tool) +
                             ", not " + std::string(oracle::ToolVersion()));
    return 2;
  }
  if (!p.interrupted) {
    uint64_t failed = 0;
    for (const SuiteReport& s : p.suites) failed += s.failed;
    log << dir << ": the run finished; nothing to resume (" << failed << " failing cases)\n";
    return failed ? 1 : 0;
  }
  // The backend it ran its GPU suites on, chosen again: a resume that names none goes on with the
  // recorded one; one that names another is refused (its cases would not be one run's).
  if (p.provenance.backend_args) {
    const std::vector<std::string>& was = *p.provenance.backend_args;
    const std::vector<std::string> now = harness::BackendArgs();
    const auto words = [](const std::vector<std::string>& args) {
      std::string s;
      for (const std::string& a : args) s += (s.empty() ? "" : " ") + a;
      return s.empty() ? std::string("--device cuda") : s;
    };
    if (now.empty() && !was.empty()) {
      if (const auto chosen = harness::SelectBackendArgs(was); !chosen.ok()) {
        log << oracle::ErrorLine("--resume: " + dir + " ran on " + words(was) + ": " +
                                 chosen.error());
        return 2;
      }
    } else if (now != was) {
      log << oracle::ErrorLine("--resume: " + dir + " ran its GPU suites with " + words(was) +
                               ", not " + words(now));
      return 2;
    }
  }
  CampaignOptions o = base;
  static_cast<RunSettings&>(o) = p;  // everything the interrupted run recorded
  o.suites = p.planned_suites;
  o.report_dir = dir;
  return Run(o, std::move(all), &p, log);
}

}  // namespace tcfuzz::suites
