#include "suites/engine/mutant_run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "harness/emulator/mutant.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/mutant_report.h"
#include "suites/engine/report.h"
#include "suites/engine/report_folder.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {
namespace {

std::string Trim(std::string s) {
  const auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t\r");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(Trim(part));
  return out;
}

// A mutant written as a plug-in of the backend ABI (include/tcfuzz/backend.h): its points field.
constexpr std::string_view kPluginPrefix = "plugin:";

struct Cell {
  std::string suite;
  bool killed = false;
  bool flagged = false;  // no failure, but model_unconfirmed cases: seen, reported apart
  uint64_t cases = 0, failed = 0, unconfirmed = 0;
  std::optional<uint64_t> first_kill;  // the lowest failing (or, flagged, unconfirmed) index
  std::string reproducer;              // its file, relative to the campaign's report
  // Its reproducer replayed alone: FAIL with the mutant, PASS without (empty: not tried).
  std::optional<bool> replays;
  double seconds = 0;
  std::string error;
};

// `tcfuzz replay --device ... FILE`'s exit status: 0 PASS, 1 FAIL, else it could not replay.
int Replay(const MutantRunOptions& o, const std::vector<std::string>& device,
           const std::string& file) {
  std::vector<std::string> argv = o.worker;
  argv.push_back("replay");
  argv.insert(argv.end(), device.begin(), device.end());
  argv.push_back(file);
  CommandOptions copt;
  copt.timeout = std::chrono::minutes(2);
  const CommandResult r = RunArgv(argv, "", copt);
  return r.started && !r.timed_out ? r.exit_code : -1;
}

// One campaign of `cases` of `suite` with mutant `m` planted, its report in `dir`.
Cell RunCell(const MutantRunOptions& o, const CatalogueMutant& m, const std::string& suite,
             uint64_t cases, const std::string& dir) {
  Cell c;
  c.suite = suite;
  // A plug-in mutant runs as that backend; the others as the emulator with their points planted.
  std::vector<std::string> device = {"--device", "emulated", "--mutant", m.points};
  if (m.points.starts_with(kPluginPrefix)) device = {"--device", m.points};
  std::vector<std::string> argv = o.worker;
  argv.push_back("run");
  argv.insert(argv.end(), device.begin(), device.end());
  argv.insert(argv.end(),
              {"--suite", suite, "--seed", std::to_string(o.seed), "--cases", std::to_string(cases),
               "--no-progress", "--reruns", "0", "--report", dir});  // a kill needs no second run
  CommandOptions copt;
  copt.timeout = std::chrono::minutes(10);
  const auto t0 = std::chrono::steady_clock::now();
  const CommandResult r = RunArgv(argv, "", copt);
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The child's report through the one summary.json reader (merge and --resume use it too).
  const auto report = ReadSummary(dir + "/summary.json");
  const bool has_suite = report.ok() && !report.value().suites.empty();
  if (!r.started || (r.exit_code != 0 && r.exit_code != 1) || !has_suite) {
    c.error = "the campaign did not finish: " + r.Describe(copt.timeout);
    if (r.started && (r.exit_code == 0 || r.exit_code == 1) && !report.ok())
      c.error += "; " + report.error();
  } else {
    const SuiteReport& s = report.value().suites.front();
    c.cases = s.cases;
    c.failed = s.failed;
    c.killed = r.exit_code == 1 && c.failed > 0;
    const auto unconfirmed = s.outcomes.find("model_unconfirmed");
    c.unconfirmed = unconfirmed == s.outcomes.end() ? 0 : unconfirmed->second;
    c.flagged = !c.killed && c.unconfirmed > 0;
    const std::vector<FailureRecord>& found = c.flagged ? s.unconfirmed : s.failures;
    const auto first = std::min_element(
        found.begin(), found.end(),
        [](const FailureRecord& a, const FailureRecord& b) { return a.index < b.index; });
    if (first != found.end()) {
      c.first_kill = first->index;
      c.reproducer = first->reproducer_path;
    }
  }
  // The first detection's reproducer, alone: it must fail with the mutant planted and pass on the
  // plain emulator, or the kill does not stand for the defect.
  if (c.first_kill && !c.reproducer.empty() && c.reproducer.find("..") == std::string::npos) {
    const std::string file = dir + "/" + c.reproducer;
    c.replays = Replay(o, device, file) == 1 && Replay(o, {"--device", "emulated"}, file) == 0;
  }
  return c;
}

}  // namespace

oracle::Result<std::vector<CatalogueMutant>> ParseCatalogue(const std::string& text) {
  using R = oracle::Result<std::vector<CatalogueMutant>>;
  std::vector<CatalogueMutant> out;
  std::set<std::string> names;
  std::stringstream in(text);
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::string at = "catalogue line " + std::to_string(line_no) + ": ";
    if (Trim(line).empty() || Trim(line)[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '|');
    if (f.size() != 4 || f[0].empty() || f[3].empty())
      return R::Fail(at + "expected 'name | suites | point=value,... | precedent'");
    CatalogueMutant m{f[0], Split(f[1], ','), f[2], f[3], line_no};
    if (!names.insert(m.name).second) return R::Fail(at + "'" + m.name + "' named twice");
    // The suites whose instructions the emulator executes: anywhere else every case would be
    // not_supported and the mutant would "survive" without having run.
    if (m.suites.empty() || (m.suites.size() == 1 && m.suites[0].empty()))
      return R::Fail(at + "no suite to run it against");
    for (const std::string& s : m.suites) {
      if (FindDeviceSuite(s) == nullptr) {
        std::string known;
        for (const std::string& d : DeviceSuiteNames()) known += (known.empty() ? "" : ", ") + d;
        return R::Fail(at + "'" + oracle::OneLine(s, 80) + "' is no GPU suite (" + known + ")");
      }
    }
    if (m.points.starts_with(kPluginPrefix)) {
      if (m.points.size() == kPluginPrefix.size()) return R::Fail(at + "plugin: names no file");
    } else if (const auto p = harness::emulator::ParseMutant(m.points); !p.ok()) {
      return R::Fail(at + p.error());
    }
    out.push_back(std::move(m));
  }
  if (out.empty()) return R::Fail("the catalogue holds no mutant");
  return R::Ok(std::move(out));
}

int RunMutants(const MutantRunOptions& o, std::ostream& out, std::ostream& log) {
  const auto text = ReadFile(o.catalogue_path);
  if (!text.ok()) {
    log << oracle::ErrorLine(text.error());
    return 2;
  }
  auto parsed = ParseCatalogue(text.value());
  if (!parsed.ok()) {
    log << oracle::ErrorLine(o.catalogue_path + ": " + parsed.error());
    return 2;
  }
  std::vector<CatalogueMutant> mutants = std::move(parsed).value();
  if (!o.only.empty()) {
    const std::vector<std::string> wanted = Split(o.only, ',');
    for (const std::string& w : wanted) {
      if (std::none_of(mutants.begin(), mutants.end(),
                       [&](const CatalogueMutant& m) { return m.name == w; })) {
        log << oracle::ErrorLine("--only: no mutant '" + w + "' in " + o.catalogue_path);
        return 2;
      }
    }
    std::erase_if(mutants, [&](const CatalogueMutant& m) {
      return std::find(wanted.begin(), wanted.end(), m.name) == wanted.end();
    });
  }
  // Held like a campaign's report folder: a second writer is refused, not silently outrun, and
  // the matrix with its runs appears at once when it is done (issue 33).
  auto opened = ReportFolder::Open(o.report_dir, false);
  if (!opened.ok()) {
    log << oracle::ErrorLine(opened.error());
    return 2;
  }
  ReportFolder folder = std::move(opened).value();
  const std::string work = folder.work();
  std::error_code ec;
  std::filesystem::create_directories(work + "/runs", ec);
  if (ec) {
    log << oracle::ErrorLine("cannot make " + work + "/runs: " + ec.message());
    return 2;
  }
  out << "tcfuzz mutants: " << mutants.size() << " mutants from " << o.catalogue_path << ", seed "
      << o.seed << ", " << o.cases << " cases per suite\n";
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int survived = 0, flagged = 0, errors = 0;
  int unreplayed = 0;  // detections whose reproducer did not fail alone with the mutant only
  std::vector<uint64_t> kills;
  for (const CatalogueMutant& m : mutants) {
    std::vector<Cell> cells;
    for (const std::string& suite : m.suites) {
      // A short campaign first: almost every kill comes within a few cases. Only a mutant it
      // did not see at all gets the whole budget.
      const std::string dir = work + "/runs/" + m.name + "." + suite;
      Cell c = RunCell(o, m, suite, std::min(o.first_cases, o.cases), dir);
      if (c.error.empty() && !c.killed && !c.flagged && o.first_cases < o.cases) {
        std::error_code gone;
        std::filesystem::remove_all(dir, gone);
        const double before = c.seconds;
        c = RunCell(o, m, suite, o.cases, dir);
        c.seconds += before;
      }
      if (!c.error.empty()) ++errors;
      cells.push_back(c);
    }
    // Killed: some suite failed. Flagged: none failed, but a suite reported model_unconfirmed
    // cases, the verdict tcfuzz gives where its expectation rests on a reading no hardware has
    // shown on the target (tcgen05 until a Blackwell runs): the defect is seen and reported, yet
    // tcfuzz cannot call it a device bug. Counted apart, never as a kill.
    const bool killed =
        std::any_of(cells.begin(), cells.end(), [](const Cell& c) { return c.killed; });
    const bool flag =
        !killed && std::any_of(cells.begin(), cells.end(), [](const Cell& c) { return c.flagged; });
    std::optional<uint64_t> first;
    for (const Cell& c : cells) {
      if (c.first_kill && (c.killed || flag))
        first = std::min(first.value_or(~uint64_t{0}), *c.first_kill);
    }
    if ((killed || flag) && first) kills.push_back(*first + 1);
    if (flag) ++flagged;
    if (!killed && !flag) ++survived;
    out << (killed ? "killed   " : flag ? "flagged  " : "SURVIVED ") << m.name;
    for (const Cell& c : cells) {
      out << "  " << c.suite << ": "
          << (!c.error.empty() ? "error"
              : c.killed       ? "killed at case " + std::to_string(c.first_kill.value_or(0))
              : c.flagged ? "model_unconfirmed at case " + std::to_string(c.first_kill.value_or(0))
                          : "survived " + std::to_string(c.cases) + " cases")
          << (c.replays && !*c.replays ? ", its reproducer does NOT replay alone" : "") << " ("
          << static_cast<int>(c.seconds * 10) / 10.0 << " s)";
      if (c.replays && !*c.replays) ++unreplayed;
    }
    out << "\n";
    nlohmann::ordered_json row = {{"mutant", m.name},
                                  {"points", m.points},
                                  {"precedent", m.precedent},
                                  {"killed", killed},
                                  {"flagged", flag}};
    row["suites"] = nlohmann::ordered_json::array();
    for (const Cell& c : cells) {
      nlohmann::ordered_json cell = {{"suite", c.suite},
                                     {"killed", c.killed},
                                     {"cases", c.cases},
                                     {"failed", c.failed},
                                     {"model_unconfirmed", c.unconfirmed},
                                     {"seconds", c.seconds}};
      if (c.first_kill) cell["first_kill_index"] = *c.first_kill;
      if (!c.reproducer.empty())
        cell["reproducer"] = "runs/" + m.name + "." + c.suite + "/" + c.reproducer;
      if (c.replays) cell["reproducer_replays"] = *c.replays;
      if (!c.error.empty()) cell["error"] = c.error;
      row["suites"].push_back(cell);
    }
    rows.push_back(row);
  }
  std::sort(kills.begin(), kills.end());
  const uint64_t median = kills.empty() ? 0 : kills[kills.size() / 2];
  const uint64_t worst = kills.empty() ? 0 : kills.back();
  const std::size_t n = mutants.size();
  const std::size_t killed = n - static_cast<std::size_t>(survived + flagged);
  out << "score: " << killed << " of " << n << " mutants killed"
      << (flagged ? ", " + std::to_string(flagged) +
                        " flagged (seen only as model_unconfirmed: no hardware backs the reading)"
                  : "")
      << "; cases to the first detection: median " << median << ", most " << worst
      << (errors ? "; " + std::to_string(errors) + " campaigns did not finish" : "")
      << (unreplayed ? "; " + std::to_string(unreplayed) + " reproducers did not replay alone"
                     : "; every first detection's reproducer replays alone (FAIL with its "
                       "mutant, PASS without)")
      << "\n";
  nlohmann::ordered_json doc = {{"catalogue", o.catalogue_path},
                                {"seed", o.seed},
                                {"cases_per_suite", o.cases},
                                {"mutants", n},
                                {"killed", killed},
                                {"flagged", flagged},
                                {"survived", survived},
                                {"reproducers_not_replaying", unreplayed},
                                {"median_cases_to_kill", median},
                                {"most_cases_to_kill", worst},
                                {"matrix", rows}};
  // The report folder's shape: summary.json, then the two views made from it.
  for (const auto& [file, content] :
       {std::pair<std::string, std::string>{"summary.json", doc.dump(2) + "\n"},
        {"junit.xml", MutantJUnitXml(doc)},
        {"index.html", MutantIndexHtml(doc)}}) {
    if (auto w = WriteFileAtomic(work + "/" + file, content); !w.ok()) {
      log << oracle::ErrorLine(w.error());
      return 2;
    }
  }
  if (auto committed = folder.Commit(); !committed.ok()) {
    log << oracle::ErrorLine(committed.error());
    return 2;
  }
  out << "matrix: " << oracle::OneLine(o.report_dir) << "/index.html, summary.json, junit.xml\n";
  if (errors) return 2;
  return survived || unreplayed ? 1 : 0;
}

}  // namespace tcfuzz::suites
