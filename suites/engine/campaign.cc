#include "suites/engine/campaign.h"

#include <chrono>
#include <cstdio>

#include "generators/core/random_source.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/report.h"

namespace tcfuzz::suites {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

SuiteReport RunSuite(HostSuite& suite, const CampaignOptions& o, std::ostream& log,
                     std::size_t& reproducers_written) {
  SuiteReport r;
  r.suite = std::string(suite.name());
  const Clock::time_point t0 = Clock::now();
  Clock::time_point last_progress = t0;
  const std::optional<uint64_t> cases =
      o.cases || o.seconds ? o.cases : std::optional<uint64_t>(suite.default_cases());
  for (uint64_t index = o.shard_index;; index += o.shard_count) {
    if (cases && index >= *cases) break;
    // The clock is read every 1024 cases: cheap, and a time budget needs no finer grain.
    if (o.seconds && (r.cases & 1023) == 0 && Since(t0) >= *o.seconds) break;
    const uint64_t case_seed = gen::CaseSeed(o.seed, suite.name(), index);
    CaseResult c = suite.RunCase(index, case_seed);
    ++r.cases;
    FamilyStats& fam = r.families[c.family];
    ++fam.cases;
    for (std::string_view tag : c.tags) ++r.coverage[std::string(tag)];
    if (!c.failures.empty()) {
      ++r.failed;
      ++fam.failed;
      FailureRecord f;
      f.family = c.family;
      f.index = index;
      f.case_seed = case_seed;
      f.case_name = c.family + "#" + std::to_string(index);
      f.check = c.failures.front().check;
      f.message = c.failures.front().message;
      if (reproducers_written < o.max_reproducers) {
        const std::string path =
            o.report_dir + "/reproducers/" + r.suite + "-" + std::to_string(index) + ".txt";
        std::string text = c.reproducer;
        text += "origin.suite = " + r.suite + "\n";
        text += "origin.seed = " + std::to_string(o.seed) + "\n";
        text += "origin.index = " + std::to_string(index) + "\n";
        for (const CheckFailure& cf : c.failures) {
          text += "# finding: " + cf.check + ": " + cf.message + "\n";
        }
        text += "finding.check = " + f.check + "\n";
        text += "# replay: tcfuzz replay " + path + "\n";
        auto written = WriteFileAtomic(path, text);
        if (written.ok()) {
          f.reproducer_path = path;
          ++reproducers_written;
        } else {
          log << "tcfuzz: warning: " << written.error() << "\n";
        }
      }
      log << (o.progress ? "\n" : "") << "FAIL " << f.case_name << " " << f.check << ": "
          << f.message << (f.reproducer_path.empty() ? "" : "  (" + f.reproducer_path + ")")
          << "\n";
      r.failures.push_back(std::move(f));
    }
    if (o.progress && (r.cases & 4095) == 0 &&
        std::chrono::duration<double>(Clock::now() - last_progress).count() > 0.25) {
      last_progress = Clock::now();
      PrintProgress(r.suite, r.cases, r.failed, Since(t0), false);
    }
  }
  r.seconds = Since(t0);
  if (o.progress) PrintProgress(r.suite, r.cases, r.failed, r.seconds, true);
  return r;
}

}  // namespace

void PrintProgress(const std::string& suite, uint64_t cases, uint64_t failed, double seconds,
                   bool final_line) {
  std::fprintf(stderr, "\r[%s] %llu cases, %llu failed, %.0f cases/s, %.1f s%s", suite.c_str(),
               static_cast<unsigned long long>(cases), static_cast<unsigned long long>(failed),
               seconds > 0 ? static_cast<double>(cases) / seconds : 0.0, seconds,
               final_line ? "\n" : "   ");
  std::fflush(stderr);
}

int RunCampaign(const CampaignOptions& o, std::ostream& log) {
  return RunCampaign(o, MakeHostSuites(), log);
}

int RunCampaign(const CampaignOptions& o, std::vector<std::unique_ptr<HostSuite>> all,
                std::ostream& log) {
  std::vector<HostSuite*> chosen;
  std::vector<std::string> device_suites;
  for (const std::string& name : o.suites) {
    HostSuite* found = nullptr;
    for (auto& s : all) {
      if (s->name() == name) found = s.get();
    }
    if (IsDeviceSuite(name)) {
      device_suites.push_back(name);
      continue;
    }
    if (found == nullptr) {
      std::string known;
      for (auto& s : all) known += (known.empty() ? "" : ", ") + std::string(s->name());
      for (const std::string& d : DeviceSuiteNames()) known += ", " + d;
      log << "tcfuzz: error: unknown suite '" << name << "' (known: " << known << ")\n";
      return 2;
    }
    chosen.push_back(found);
  }
  if (o.suites.empty()) {
    for (auto& s : all) chosen.push_back(s.get());
    if (!o.worker.empty()) device_suites = DefaultDeviceSuiteNames();
  }
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
    if (o.gpu == "require" && !device.available) {
      log << "tcfuzz: error: --gpu require: " << device.reason << "\n";
      return 2;
    }
  }

  CampaignReport report;
  report.tool = std::string(oracle::ToolVersion());
  report.command_line = o.command_line;
  report.seed = o.seed;
  report.shard_index = o.shard_index;
  report.shard_count = o.shard_count;
  log << "tcfuzz run: seed " << o.seed << ", shard " << o.shard_index << "/" << o.shard_count
      << (o.cases ? ", " + std::to_string(*o.cases) + " cases per suite" : "")
      << (o.seconds ? ", " + std::to_string(*o.seconds) + " s per suite" : "")
      << (!o.cases && !o.seconds ? ", each suite's default case count" : "") << ", report in "
      << o.report_dir << "/\n";
  std::size_t reproducers = 0;
  uint64_t failed = 0;
  for (HostSuite* s : chosen) {
    report.suites.push_back(RunSuite(*s, o, log, reproducers));
    const SuiteReport& r = report.suites.back();
    failed += r.failed;
    log << r.suite << ": " << r.cases << " cases, " << r.failed << " failed, "
        << static_cast<uint64_t>(r.seconds > 0 ? static_cast<double>(r.cases) / r.seconds : 0)
        << " cases/s\n";
  }
  for (const std::string& name : device_suites) {
    report.suites.push_back(RunDeviceSuite(name, o, device, log, reproducers));
    failed += report.suites.back().failed;
  }
  for (const auto& [file, content] : {std::pair{std::string("summary.json"), SummaryJson(report)},
                                      std::pair{std::string("junit.xml"), JUnitXml(report)}}) {
    auto written = WriteFileAtomic(o.report_dir + "/" + file, content);
    if (!written.ok()) {
      log << "tcfuzz: error: " << written.error() << "\n";
      return 2;
    }
  }
  log << "report: " << o.report_dir << "/summary.json, " << o.report_dir << "/junit.xml"
      << (failed ? ", reproducers in " + o.report_dir + "/reproducers/" : "") << "\n";
  log << (failed ? "FAILED: " : "OK: ") << failed << " failing cases (seed " << o.seed << ")\n";
  return failed ? 1 : 0;
}

}  // namespace tcfuzz::suites
