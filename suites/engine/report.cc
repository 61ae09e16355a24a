#include "suites/engine/report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/nvjitlink.h"
#include "oracle/core/json_reader.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/worker_protocol.h"
#include "tcfuzz_commit.h"  // build/include: the commit at build time (cmake/GitCommit.cmake)

namespace tcfuzz::suites {
namespace {

using Json = nlohmann::ordered_json;

// Failing cases a JUnit test case lists in its body (the rest are counted).
constexpr std::size_t kJUnitCasesListed = 20;

// A JSON object from a map's keys in one pass: ordered_json's operator[] searches the keys it
// has, so a hostile report's 100,000 families took minutes to write (issue 33).
template <class Map, class Value>
Json ObjectOf(const Map& map, const Value& value) {
  Json o = Json::object();
  auto& pairs = static_cast<Json::object_t::Container&>(o.get_ref<Json::object_t&>());
  pairs.reserve(map.size());
  for (const auto& [key, x] : map) pairs.emplace_back(key, value(x));  // keys unique: a map's
  return o;
}

// The length of the UTF-8 sequence at s[i] that encodes a character XML 1.0 allows, or 0.
std::size_t XmlCharLength(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return b >= 0x20 || b == '\t' || b == '\n' || b == '\r' ? 1 : 0;
  const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
  if (n == 0 || b > 0xF4 || i + n > s.size()) return 0;
  uint32_t cp = b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};  // no overlong forms
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE ||
      cp == 0xFFFF)
    return 0;
  return n;
}

}  // namespace

std::string MarkupEscape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = XmlCharLength(s, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(s[i]));
      out += hex;
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(s, i, n);
      i += n;
      continue;
    }
    switch (s[i]) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;  // kept in attributes too
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        out += s[i];
    }
    ++i;
  }
  return out;
}

namespace {

// Seconds as the Surefire time pattern wants them: digits, a point, digits; never an exponent.
std::string Seconds(double s) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", std::isfinite(s) ? std::clamp(s, 0.0, 1e12) : 0.0);
  return b;
}

Json RecordJson(const FailureRecord& f) {
  Json j = {{"signature", f.signature}, {"case", f.case_name},
            {"family", f.family},       {"index", f.index},
            {"case_seed", f.case_seed}, {"check", f.check},
            {"message", f.message},     {"reproducer", f.reproducer_path}};
  if (f.expectation_line > 0) j["expectation_line"] = f.expectation_line;
  if (f.tile) {
    j["tile"] = {{"cols", f.tile->cols},
                 {"format", f.tile->format},
                 {"expected", f.tile->expected},
                 {"observed", f.tile->observed}};
  }
  return j;
}

// The JUnit element of a failing family: "failure" where a case of it returned a wrong result,
// "error" where a GPU family's cases only faulted, hung or met a harness error. From the
// signatures ("suite.family.check"), which count every failing case, not only the listed ones.
std::string_view FailingElement(const SuiteReport& s, const std::string& family) {
  if (!s.device) return "failure";
  const std::string prefix = s.suite + "." + family + ".";
  bool other = false;  // a failing class of this family other than a wrong result
  for (auto it = s.signatures.lower_bound(prefix);
       it != s.signatures.end() && it->first.starts_with(prefix); ++it) {
    const auto& [signature, n] = *it;
    if (n == 0) continue;
    // The rest is a result class; where it is not, the signature is another family's whose name
    // starts with this one's.
    const std::optional<CaseOutcome> o = ParseOutcome(signature.substr(prefix.size()));
    if (o == CaseOutcome::kMismatch) return "failure";
    other = other || o.has_value();
  }
  return other ? "error" : "failure";
}

}  // namespace

void CapTilePictures(SuiteReport& s) {
  std::vector<FailureRecord*> with;
  for (auto* list : {&s.failures, &s.unconfirmed}) {
    for (FailureRecord& f : *list) {
      if (f.tile) with.push_back(&f);
    }
  }
  std::sort(with.begin(), with.end(),
            [](const FailureRecord* a, const FailureRecord* b) { return a->index < b->index; });
  for (std::size_t i = kTilePictures; i < with.size(); ++i) with[i]->tile.reset();
  for (FailureRecord& f : s.expected_failures) f.tile.reset();
  for (FailureRecord& f : s.flaky) f.tile.reset();
}

void SortAndCap(std::vector<FailureRecord>& records) {
  std::stable_sort(
      records.begin(), records.end(),
      [](const FailureRecord& a, const FailureRecord& b) { return a.index < b.index; });
  if (records.size() > kMaxListedFailures) records.resize(kMaxListedFailures);
}

void AddSuiteReport(SuiteReport& into, const SuiteReport& more) {
  into.cases += more.cases;
  into.failed += more.failed;
  into.seconds += more.seconds;
  std::set<std::string> declared(into.declared_families.begin(), into.declared_families.end());
  for (const std::string& f : more.declared_families) {
    if (declared.insert(f).second) into.declared_families.push_back(f);
  }
  for (const auto& [name, f] : more.families) {
    into.families[name].cases += f.cases;
    into.families[name].failed += f.failed;
    into.families[name].expected += f.expected;
    into.families[name].not_supported += f.not_supported;
  }
  for (const auto& [name, n] : more.outcomes) into.outcomes[name] += n;
  for (const auto& [tag, n] : more.coverage) into.coverage[tag] += n;
  AddDiscrimination(into.discrimination, more.discrimination);
  for (const auto& [sig, n] : more.signatures) into.signatures[sig] += n;
  into.failures.insert(into.failures.end(), more.failures.begin(), more.failures.end());
  SortAndCap(into.failures);
  into.unconfirmed.insert(into.unconfirmed.end(), more.unconfirmed.begin(), more.unconfirmed.end());
  SortAndCap(into.unconfirmed);
  into.flaky.insert(into.flaky.end(), more.flaky.begin(), more.flaky.end());
  SortAndCap(into.flaky);
  into.expected += more.expected;
  into.expected_failures.insert(into.expected_failures.end(), more.expected_failures.begin(),
                                more.expected_failures.end());
  SortAndCap(into.expected_failures);
  // Skipped only where every part was: a shard without a GPU does not hide one that ran.
  if (more.skipped.empty()) into.skipped.clear();
  if (into.error.empty()) into.error = more.error;  // any part that could not run says so
  CapTilePictures(into);
  for (const auto& [phase, s] : more.worker_phases) into.worker_phases[phase] += s;
  into.complete = more.complete;
  into.resume_from = more.resume_from;
}

Provenance ThisRun() {
  Provenance p;
#ifdef TCFUZZ_GIT_COMMIT
  p.commit = TCFUZZ_GIT_COMMIT;
#endif
#ifdef TCFUZZ_CUDA_TOOLKIT
  p.toolkit = TCFUZZ_CUDA_TOOLKIT;
#endif
  const auto nvjitlink = harness::NvJitLink::Load();
  p.assembler = nvjitlink.ok() ? "nvJitLink " + nvjitlink.value()->Version() : "none";
  p.backend = "none";
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) == 0) p.hosts.push_back(oracle::OneLine(host, 128));
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  char when[32] = {0};
  if (::gmtime_r(&now, &utc) != nullptr)
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  p.started = when;
  return p;
}

Provenance MergedProvenance(const std::vector<Provenance>& parts) {
  Provenance m;
  if (parts.empty()) return m;
  m.commit = parts.front().commit;
  m.toolkit = parts.front().toolkit;
  m.assembler = parts.front().assembler;
  m.backend_args = parts.front().backend_args;
  m.backend = "none";
  for (const Provenance& p : parts) {
    for (const auto& [from, into] :
         {std::pair{&p.hosts, &m.hosts}, std::pair{&p.devices, &m.devices}}) {
      for (const std::string& x : *from) {
        if (std::find(into->begin(), into->end(), x) == into->end()) into->push_back(x);
      }
    }
    if (!p.started.empty() && (m.started.empty() || p.started < m.started)) m.started = p.started;
    m.seconds += p.seconds;
    // Shards that ran their GPU suites on different backends merge as "mixed".
    if (p.backend != "none")
      m.backend = m.backend == "none" || m.backend == p.backend ? p.backend : "mixed";
  }
  return m;
}

std::string ReplayCommand(const std::string& reproducer_path) {
  return reproducer_path.ends_with(".sh") ? "rerun: sh " + reproducer_path
                                          : "replay: tcfuzz replay " + reproducer_path;
}

std::string ListOrNone(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& x : items) s += (s.empty() ? "" : "; ") + x;
  return s.empty() ? "none" : s;
}

std::string SummaryJson(const CampaignReport& report) {
  Json j;
  j["tool"] = report.tool;
  const Provenance& p = report.provenance;
  j["provenance"] = {{"commit", p.commit},   {"toolkit", p.toolkit}, {"backend", p.backend},
                     {"started", p.started}, {"seconds", p.seconds}, {"hosts", p.hosts},
                     {"devices", p.devices}};
  if (!p.assembler.empty()) j["provenance"]["assembler"] = p.assembler;
  if (p.backend_args) j["provenance"]["backend_args"] = *p.backend_args;
  j["command"] = report.command_line;
  j["seed"] = report.seed;
  j["seed_source"] = report.seed_source;
  j["shard"] = std::to_string(report.shard_index) + "/" + std::to_string(report.shard_count);
  j["shard_source"] = report.shard_source;
  if (report.merged_shards > 0) j["merged_shards"] = report.merged_shards;
  if (!report.partial.empty()) j["partial"] = report.partial;
  j["interrupted"] = report.interrupted;
  Json opts;
  opts["suites"] = report.planned_suites;
  opts["cases"] = report.cases ? Json(*report.cases) : Json();
  opts["seconds"] = report.seconds ? Json(*report.seconds) : Json();
  if (report.run_seconds) opts["run_seconds"] = *report.run_seconds;
  if (!report.tiler.empty()) opts["tiler"] = report.tiler;
  opts["gpu"] = report.gpu;
  opts["max_reproducers"] = report.max_reproducers;
  opts["expectations"] = report.expectations_file;
  opts["skips"] = report.skips_file;
  opts["strict"] = report.strict;
  j["options"] = std::move(opts);
  j["expectation_lines"] = Json::array();
  uint64_t stale = 0;
  for (const ExpectationUse& u : report.expectation_lines) {
    stale += u.stale() ? 1 : 0;
    j["expectation_lines"].push_back({{"line", u.line},
                                      {"text", u.text},
                                      {"reason", u.reason},
                                      {"could_match", u.could_match},
                                      {"matched", u.matched},
                                      {"stale", u.stale()}});
  }
  j["stale_expectations"] = stale;
  uint64_t cases = 0, failed = 0;
  for (const SuiteReport& s : report.suites) {
    cases += s.cases;
    failed += s.failed;
  }
  j["cases"] = cases;
  j["failed"] = failed;
  j["suites"] = Json::array();
  for (const SuiteReport& s : report.suites) {
    Json js;
    js["suite"] = s.suite;
    js["gpu_suite"] = s.device;
    js["cases"] = s.cases;
    js["failed"] = s.failed;
    js["expected_fail"] = s.expected;
    if (!s.skipped.empty()) js["skipped"] = s.skipped;
    if (!s.error.empty()) js["error"] = s.error;
    js["complete"] = s.complete;
    if (!s.complete) js["resume_from"] = s.resume_from;
    js["seconds"] = s.seconds;
    js["cases_per_second"] = s.seconds > 0 ? static_cast<double>(s.cases) / s.seconds : 0.0;
    if (!s.worker_phases.empty()) js["worker_seconds_by_phase"] = s.worker_phases;
    js["declared_families"] = s.declared_families;
    js["families"] = ObjectOf(s.families, [](const FamilyStats& f) {
      Json x = {{"cases", f.cases}, {"failed", f.failed}, {"expected", f.expected}};
      if (f.not_supported > 0) x["not_supported"] = f.not_supported;
      return x;
    });
    if (s.device) js["outcomes"] = s.outcomes;
    js["coverage"] = s.coverage;
    js["discrimination"] = ObjectOf(s.discrimination, [](const auto& probes) {
      return ObjectOf(probes, [](const auto& n) {
        return Json{{"cases", n.cases}, {"telling", n.telling}};
      });
    });
    js["low_discrimination"] = LowDiscrimination(s.discrimination);
    js["signatures"] = s.signatures;
    js["failures_not_listed"] = s.failed - std::min<uint64_t>(s.failed, s.failures.size());
    for (const auto& [key, records] :
         {std::pair{"failures", &s.failures}, std::pair{"model_unconfirmed", &s.unconfirmed},
          std::pair{"expected_failures", &s.expected_failures}, std::pair{"flaky", &s.flaky}}) {
      js[key] = Json::array();
      for (const FailureRecord& f : *records) js[key].push_back(RecordJson(f));
    }
    j["suites"].push_back(std::move(js));
  }
  // Messages can carry a tool's own bytes (a worker's stderr): invalid UTF-8 becomes U+FFFD.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string JUnitXml(const CampaignReport& report) {
  struct Counts {
    uint64_t tests = 0, failures = 0, errors = 0, skipped = 0;
  };
  Counts all;
  double seconds = 0;
  std::string body;
  const std::string report_note = report.interrupted        ? " (interrupted: tcfuzz run --resume)"
                                  : !report.partial.empty() ? " (partial: " + report.partial + ")"
                                                            : "";
  for (const SuiteReport& s : report.suites) {
    Counts c;
    const bool device = s.device;
    std::vector<std::string> names = s.declared_families;
    std::set<std::string> named(names.begin(), names.end());
    for (const auto& [name, f] : s.families) {
      if (named.insert(name).second) names.push_back(name);
    }
    // Each family's listed failures, gathered once (not a pass over the list per family).
    std::map<std::string, std::vector<const FailureRecord*>> listed_of;
    for (const FailureRecord& f : s.failures) listed_of[f.family].push_back(&f);
    const bool ran = s.error.empty() && s.skipped.empty();
    // A suite that did not run, or a GPU suite that ran no case of any form (every case one the
    // device lacks, or none in its time), shows as one test case saying why: never a pass.
    if (names.empty() && (!ran || device)) names.push_back("not_run");
    // A GPU suite's results apart from its families: those whose expectation no hardware backs,
    // and those that changed when run again.
    if (device && ran) names.insert(names.end(), {"model_unconfirmed", "flaky"});
    std::string cases_xml;
    for (const std::string& name : names) {
      const auto it = s.families.find(name);
      const FamilyStats stats = it == s.families.end() ? FamilyStats{} : it->second;
      const auto outcome = [&s](CaseOutcome o) {
        const auto at = s.outcomes.find(std::string(Name(o)));
        return at == s.outcomes.end() ? uint64_t{0} : at->second;
      };
      const bool unconfirmed = device && ran && name == "model_unconfirmed";
      const bool flaky = device && ran && name == "flaky";
      ++c.tests;
      cases_xml += "    <testcase classname=\"" + MarkupEscape(s.suite) + "\" name=\"" +
                   MarkupEscape(name) + "\" time=\"0.000\">\n";
      if (!s.error.empty()) {
        ++c.errors;
        cases_xml += "      <error type=\"not_run\" message=\"" + MarkupEscape(s.error) + "\"/>\n";
      } else if (!s.skipped.empty()) {
        ++c.skipped;
        cases_xml += "      <skipped message=\"" + MarkupEscape(s.skipped) + "\"/>\n";
      } else if (name == "not_run" && it == s.families.end()) {
        ++c.skipped;
        std::string why;
        for (const auto& [tag, n] : s.coverage) {
          if (tag.starts_with("not supported: "))
            why += (why.empty() ? ": " : "; ") + std::to_string(n) + " " + tag;
        }
        cases_xml += "      <skipped message=\"" +
                     MarkupEscape("no case ran on the device" + why).substr(0, 600) + "\"/>\n";
      } else if (unconfirmed && outcome(CaseOutcome::kModelUnconfirmed) > 0) {
        // Mismatches the model cannot stand behind yet: skipped, with what they rest on.
        ++c.skipped;
        std::string text;
        for (std::size_t i = 0; i < s.unconfirmed.size() && i < kJUnitCasesListed; ++i) {
          const FailureRecord& f = s.unconfirmed[i];
          text += f.case_name + ": " + f.message +
                  (f.reproducer_path.empty() ? "" : "\n  " + ReplayCommand(f.reproducer_path)) +
                  "\n";
        }
        const std::string first = s.unconfirmed.empty() ? "" : ": " + s.unconfirmed[0].message;
        cases_xml +=
            "      <skipped message=\"" +
            MarkupEscape(
                "model_unconfirmed: " + std::to_string(outcome(CaseOutcome::kModelUnconfirmed)) +
                " mismatches rest on readings no hardware has shown here" + first.substr(0, 300)) +
            "\">" + MarkupEscape(text) + "</skipped>\n";
      } else if (flaky && outcome(CaseOutcome::kFlaky) > 0) {
        // Results that changed when run again: listed; a failure only under --strict.
        std::string text;
        for (std::size_t i = 0; i < s.flaky.size() && i < kJUnitCasesListed; ++i)
          text += s.flaky[i].case_name + ": " + s.flaky[i].message + "\n";
        if (report.strict) {
          ++c.failures;
          cases_xml += "      <failure type=\"flaky\" message=\"" +
                       MarkupEscape(std::to_string(outcome(CaseOutcome::kFlaky)) +
                                    " flaky results (--strict)") +
                       "\">" + MarkupEscape(text) + "</failure>\n";
        } else {
          cases_xml += "      <system-err>" + MarkupEscape(text) + "</system-err>\n";
        }
      } else if (unconfirmed || flaky) {
        // None of them: a pass.
      } else if (stats.cases == 0) {
        // A family no case of this run drew, or whose cases the device does not run, tested
        // nothing: not a pass.
        ++c.skipped;
        const std::string why =
            stats.not_supported > 0
                ? std::to_string(stats.not_supported) +
                      " cases of this family were drawn; the device does not run them"
                : "no case of this run drew this family";
        cases_xml += "      <skipped message=\"" + MarkupEscape(why) + "\"/>\n";
      } else if (stats.failed > 0) {
        const std::string element(FailingElement(s, name));
        ++(element == "error" ? c.errors : c.failures);
        const std::vector<const FailureRecord*>& mine = listed_of[name];
        std::map<std::string, uint64_t> sigs;
        for (const FailureRecord* f : mine) {
          if (const auto at = s.signatures.find(f->signature); at != s.signatures.end())
            sigs[at->first] = at->second;
        }
        std::string text = std::to_string(stats.failed) + " of " + std::to_string(stats.cases) +
                           " cases failed" + report_note + "\n";
        for (const auto& [sig, n] : sigs)
          text += "signature " + sig + ": " + std::to_string(n) + " cases\n";
        std::size_t listed = 0;
        for (const FailureRecord* f : mine) {
          if (listed == kJUnitCasesListed) break;
          ++listed;
          text += "\n" + f->case_name + " (" + f->signature + ", case_seed " +
                  std::to_string(f->case_seed) + ")\n  " + f->check + ": " + f->message + "\n";
          if (!f->reproducer_path.empty())
            text += "  " + ReplayCommand(f->reproducer_path) + "  (in the report folder)\n";
          text += "  rerun: tcfuzz run --suite " + s.suite + " --seed " +
                  std::to_string(report.seed) + " --cases " + std::to_string(f->index + 1) + "\n";
        }
        if (stats.failed > listed)
          text += "\n... and " + std::to_string(stats.failed - listed) +
                  " more failing cases (summary.json lists the first " +
                  std::to_string(kMaxListedFailures) + " of the suite)\n";
        const FailureRecord* first = mine.empty() ? nullptr : mine.front();
        const std::string message = first ? first->signature + ": " + first->message.substr(0, 300)
                                          : std::to_string(stats.failed) + " cases failed";
        cases_xml += "      <" + element + " type=\"" + MarkupEscape(first ? first->check : name) +
                     "\" message=\"" + MarkupEscape(message) + "\">" + MarkupEscape(text) + "</" +
                     element + ">\n";
      }
      std::string out =
          unconfirmed ? "cases=" + std::to_string(outcome(CaseOutcome::kModelUnconfirmed))
          : flaky
              ? "cases=" + std::to_string(outcome(CaseOutcome::kFlaky))
              : "cases=" + std::to_string(stats.cases) + " failed=" + std::to_string(stats.failed);
      if (stats.not_supported > 0) out += " not_supported=" + std::to_string(stats.not_supported);
      if (stats.expected > 0) {
        out += " expected_fail=" + std::to_string(stats.expected);
        for (const FailureRecord& f : s.expected_failures) {
          if (f.family != name) continue;
          out += "\n" + f.case_name + " (" + f.signature + "): " + f.message;
          break;  // the first one shows which line holds them
        }
      }
      cases_xml += "      <system-out>" + MarkupEscape(out) + "</system-out>\n";
      cases_xml += "    </testcase>\n";
    }
    body += "  <testsuite name=\"" + MarkupEscape(s.suite) + "\" tests=\"" +
            std::to_string(c.tests) + "\" failures=\"" + std::to_string(c.failures) +
            "\" errors=\"" + std::to_string(c.errors) + "\" skipped=\"" +
            std::to_string(c.skipped) + "\" time=\"" + Seconds(s.seconds) + "\">\n";
    body += "    <properties>\n";
    const std::pair<std::string, std::string> props[] = {
        {"seed", std::to_string(report.seed)},
        {"shard", std::to_string(report.shard_index) + "/" + std::to_string(report.shard_count)},
        {"tool", report.tool},
        {"cases", std::to_string(s.cases)},
        {"interrupted", report.interrupted ? "true" : "false"},
        {"partial", report.partial.empty() ? "no" : report.partial},
        {"commit", report.provenance.commit},
        {"cuda_toolkit", report.provenance.toolkit},
        {"assembler", report.provenance.assembler},
        {"command", report.command_line},
        {"backend", report.provenance.backend},
        {"started", report.provenance.started},
        {"hosts", ListOrNone(report.provenance.hosts)},
        {"devices", ListOrNone(report.provenance.devices)}};
    for (const auto& [k, v] : props)
      body += "      <property name=\"" + k + "\" value=\"" + MarkupEscape(v) + "\"/>\n";
    body += "    </properties>\n" + cases_xml + "  </testsuite>\n";
    all.tests += c.tests;
    all.failures += c.failures;
    all.errors += c.errors;
    all.skipped += c.skipped;
    seconds += s.seconds;
  }
  // The baseline's lines: a stale one (it could have matched and did not) is skipped, or a
  // failure under --strict.
  if (!report.expectation_lines.empty()) {
    Counts c;
    std::string cases_xml;
    for (const ExpectationUse& u : report.expectation_lines) {
      ++c.tests;
      cases_xml += "    <testcase classname=\"expectations\" name=\"line " +
                   std::to_string(u.line) + "\" time=\"0.000\">\n";
      if (u.stale()) {
        const std::string element = report.strict ? "failure" : "skipped";
        ++(report.strict ? c.failures : c.skipped);
        cases_xml += "      <" + element + " type=\"stale\" message=\"" +
                     MarkupEscape("stale: " + u.text + "  # " + u.reason) + "\"/>\n";
      }
      cases_xml +=
          "      <system-out>" +
          MarkupEscape(u.text + "  # " + u.reason + "\nmatched=" + std::to_string(u.matched) +
                       (u.could_match ? "" : " (nothing it names ran)")) +
          "</system-out>\n    </testcase>\n";
    }
    body += "  <testsuite name=\"expectations\" tests=\"" + std::to_string(c.tests) +
            "\" failures=\"" + std::to_string(c.failures) + "\" errors=\"0\" skipped=\"" +
            std::to_string(c.skipped) + "\" time=\"0.000\">\n" + cases_xml + "  </testsuite>\n";
    all.tests += c.tests;
    all.failures += c.failures;
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tcfuzz\" tests=\"" +
         std::to_string(all.tests) + "\" failures=\"" + std::to_string(all.failures) +
         "\" errors=\"" + std::to_string(all.errors) + "\" time=\"" + Seconds(seconds) + "\">\n" +
         body + "</testsuites>\n";
}

namespace {

// The reader's tree: nlohmann's map-based json (oracle/core/json_reader.h), linear to build.
using JsonIn = nlohmann::json;

// The reader's own errors, thrown inside ReadSummary and turned into its one line.
struct Bad {
  std::string what;
};

// Every key of object `j` is one of `known`: a typo ("stric") or a hand-added field is refused,
// never silently ignored.
void OnlyKeys(const JsonIn& j, const char* where, std::initializer_list<std::string_view> known) {
  if (!j.is_object()) throw Bad{std::string(where) + " is not an object"};
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw Bad{"unknown key " + oracle::Quoted(key) + " in " + where};
  }
}

const JsonIn& Field(const JsonIn& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw Bad{std::string("no \"") + key + "\""};
  return j.at(key);
}
uint64_t U64(const JsonIn& j, const char* key) {
  const JsonIn& v = Field(j, key);
  if (!v.is_number_unsigned()) throw Bad{std::string("\"") + key + "\" is not a count"};
  return v.get<uint64_t>();
}
std::string Str(const JsonIn& j, const char* key) {
  const JsonIn& v = Field(j, key);
  if (!v.is_string()) throw Bad{std::string("\"") + key + "\" is not a string"};
  return v.get<std::string>();
}
double Num(const JsonIn& j, const char* key) {
  const JsonIn& v = Field(j, key);
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
      v.get<double>() > 1e12)
    throw Bad{std::string("\"") + key + "\" is not a number of seconds"};
  return v.get<double>();
}
bool Bool(const JsonIn& j, const char* key) {
  const JsonIn& v = Field(j, key);
  if (!v.is_boolean()) throw Bad{std::string("\"") + key + "\" is not true or false"};
  return v.get<bool>();
}
template <typename T, typename F>
std::map<std::string, T> MapOf(const JsonIn& j, const char* key, F get) {
  const JsonIn& v = Field(j, key);
  if (!v.is_object()) throw Bad{std::string("\"") + key + "\" is not an object"};
  std::map<std::string, T> out;
  for (const auto& [k, x] : v.items()) out[k] = get(x, k);
  return out;
}

FailureRecord RecordFrom(const JsonIn& j) {
  OnlyKeys(j, "a failure record",
           {"signature", "case", "family", "index", "case_seed", "check", "message", "reproducer",
            "expectation_line", "tile"});
  FailureRecord f;
  f.signature = Str(j, "signature");
  f.case_name = Str(j, "case");
  f.family = Str(j, "family");
  f.index = U64(j, "index");
  f.case_seed = U64(j, "case_seed");
  f.check = Str(j, "check");
  f.message = Str(j, "message");
  f.reproducer_path = Str(j, "reproducer");
  if (j.contains("expectation_line"))
    f.expectation_line = static_cast<int>(std::min<uint64_t>(U64(j, "expectation_line"), 1u << 30));
  if (j.contains("tile")) {
    const JsonIn& t = j.at("tile");
    OnlyKeys(t, "a tile", {"cols", "format", "expected", "observed"});
    TileDiff d;
    d.cols = static_cast<int>(std::min<uint64_t>(U64(t, "cols"), 1024));
    d.format = Str(t, "format");
    for (const auto& [key, into] :
         {std::pair{"expected", &d.expected}, std::pair{"observed", &d.observed}}) {
      const JsonIn& words = Field(t, key);
      if (!words.is_array() || words.size() > 64 * 256)
        throw Bad{"a tile's words are not a list of at most 64 x 256"};
      for (const JsonIn& w : words) {
        if (!w.is_number_unsigned() || w.get<uint64_t>() > 0xFFFFFFFFu)
          throw Bad{"a tile word is not 32 bits"};
        into->push_back(static_cast<uint32_t>(w.get<uint64_t>()));
      }
    }
    if (d.cols == 0 || d.expected.size() != d.observed.size() ||
        d.expected.size() % static_cast<std::size_t>(d.cols) != 0)
      throw Bad{"a tile's shape does not hold its words"};
    f.tile = std::move(d);
  }
  // A reproducer is a path inside the report folder: `merge` copies it, so no way out of it.
  const std::string& p = f.reproducer_path;
  const bool inside =
      p.starts_with("reproducers/") || p.starts_with("unconfirmed/") || p.starts_with("undefined/");
  if (!p.empty() && (!inside || p.find("..") != std::string::npos))
    throw Bad{"reproducer path '" + p + "' leaves the report folder's reproducer folders"};
  return f;
}

SuiteReport SuiteFrom(const JsonIn& j) {
  OnlyKeys(j, "a suite",
           {"suite",
            "gpu_suite",
            "cases",
            "failed",
            "expected_fail",
            "skipped",
            "error",
            "complete",
            "resume_from",
            "seconds",
            "cases_per_second",
            "worker_seconds_by_phase",
            "declared_families",
            "families",
            "outcomes",
            "coverage",
            "discrimination",
            "low_discrimination",
            "signatures",
            "failures_not_listed",
            "failures",
            "model_unconfirmed",
            "expected_failures",
            "flaky"});
  SuiteReport s;
  s.suite = Str(j, "suite");
  s.device = Bool(j, "gpu_suite");
  s.cases = U64(j, "cases");
  s.failed = U64(j, "failed");
  s.expected = U64(j, "expected_fail");
  if (j.contains("skipped")) s.skipped = Str(j, "skipped");
  if (j.contains("error")) s.error = Str(j, "error");
  s.complete = Bool(j, "complete");
  if (!s.complete) s.resume_from = U64(j, "resume_from");
  s.seconds = Num(j, "seconds");
  if (j.contains("worker_seconds_by_phase"))
    s.worker_phases =
        MapOf<double>(j, "worker_seconds_by_phase", [](const JsonIn& x, const std::string& k) {
          if (!x.is_number()) throw Bad{"phase \"" + k + "\" is not a number"};
          return x.get<double>();
        });
  const JsonIn& declared = Field(j, "declared_families");
  if (!declared.is_array()) throw Bad{"\"declared_families\" is not a list"};
  for (const JsonIn& f : declared) {
    if (!f.is_string()) throw Bad{"a declared family is not a string"};
    s.declared_families.push_back(f.get<std::string>());
  }
  s.families = MapOf<FamilyStats>(j, "families", [](const JsonIn& x, const std::string&) {
    OnlyKeys(x, "a family", {"cases", "failed", "expected", "not_supported"});
    return FamilyStats{U64(x, "cases"), U64(x, "failed"), U64(x, "expected"),
                       x.contains("not_supported") ? U64(x, "not_supported") : 0};
  });
  const auto count = [](const JsonIn& x, const std::string& k) {
    if (!x.is_number_unsigned()) throw Bad{"\"" + k + "\" is not a count"};
    return x.get<uint64_t>();
  };
  // GPU suites' result classes; absent in reports of tcfuzz before 2026-11-28.
  if (j.contains("outcomes")) s.outcomes = MapOf<uint64_t>(j, "outcomes", count);
  s.coverage = MapOf<uint64_t>(j, "coverage", count);
  // Absent in reports of tcfuzz before 2026-11-27; low_discrimination is derived from it.
  if (j.contains("discrimination")) {
    for (const auto& [family, probes] :
         MapOf<FamilyProbes>(j, "discrimination", [](const JsonIn&x, const std::string&f) {
           if (!x.is_object())
             throw Bad{"discrimination of " + oracle::Quoted(f) + " is not an object"};
           FamilyProbes out;
           for (const auto& [probe, y] : x.items()) {
             OnlyKeys(y, "a probe", {"cases", "telling"});
             out[probe] = ProbeCount{U64(y, "cases"), U64(y, "telling")};
           }
           return out;
         }))
      s.discrimination.emplace(family, probes);
  }
  if (j.contains("low_discrimination") && !Field(j, "low_discrimination").is_array())
    throw Bad{"\"low_discrimination\" is not a list"};
  s.signatures = MapOf<uint64_t>(j, "signatures", count);
  // A part never exceeds its whole, so shards' sums overflow only where their cases do (merge).
  bool parts_fit = s.failed <= s.cases && s.expected <= s.cases;
  for (const auto& [name, f] : s.families)
    parts_fit = parts_fit && f.cases <= s.cases && f.failed <= f.cases && f.expected <= f.cases &&
                f.not_supported <= s.cases;
  for (const auto* counts : {&s.coverage, &s.signatures, &s.outcomes}) {
    for (const auto& [tag, n] : *counts) parts_fit = parts_fit && n <= s.cases;
  }
  parts_fit = parts_fit && WithinCases(s.discrimination, s.cases);
  if (!parts_fit)
    throw Bad{"suite " + oracle::Quoted(s.suite) +
              ": a failure, family, coverage, probe or signature count exceeds its cases"};
  for (const auto& [key, records] :
       {std::pair{"failures", &s.failures}, std::pair{"model_unconfirmed", &s.unconfirmed},
        std::pair{"expected_failures", &s.expected_failures}, std::pair{"flaky", &s.flaky}}) {
    const JsonIn& list = Field(j, key);
    if (!list.is_array()) throw Bad{std::string("\"") + key + "\" is not a list"};
    if (list.size() > kMaxListedFailures) throw Bad{std::string("\"") + key + "\" is over its cap"};
    for (const JsonIn& r : list) records->push_back(RecordFrom(r));
  }
  CapTilePictures(s);  // however many a file holds, the page draws the report's own cap
  return s;
}

}  // namespace

oracle::Result<CampaignReport> ReadSummary(const std::string& path) {
  // tcfuzz writes its reports as regular files: a link (in a shard from an untrusted runner)
  // would read whatever it points at.
  auto text = ReadFile(path, std::size_t{64} << 20, Links::kRefuse);
  if (!text.ok()) return oracle::Error(text.error());
  auto r = ParseSummary(text.value());
  if (!r.ok()) return oracle::Error(path + ": " + r.error());
  return r;
}

oracle::Result<CampaignReport> ParseSummary(std::string_view text) {
  try {
    // Bounded in depth, linear in keys, duplicate keys refused (oracle/core/json_reader.h).
    auto parsed = oracle::ParseJson(text);
    if (!parsed.ok()) throw Bad{"not a tcfuzz summary: " + parsed.error()};
    const JsonIn& j = parsed.value();
    OnlyKeys(j, "the summary",
             {"tool", "provenance", "command", "seed", "seed_source", "shard", "shard_source",
              "merged_shards", "partial", "interrupted", "options", "expectation_lines",
              "stale_expectations", "cases", "failed", "suites"});
    CampaignReport r;
    r.tool = Str(j, "tool");
    if (!r.tool.starts_with("tcfuzz")) throw Bad{"not a tcfuzz report (tool '" + r.tool + "')"};
    r.command_line = Str(j, "command");
    if (j.contains("provenance")) {  // reports of tcfuzz 0.2.0 and before have none
      const JsonIn& p = Field(j, "provenance");
      OnlyKeys(p, "\"provenance\"",
               {"commit", "toolkit", "assembler", "backend", "backend_args", "started", "seconds",
                "hosts", "devices"});
      Provenance& v = r.provenance;
      v.commit = Str(p, "commit");
      v.toolkit = Str(p, "toolkit");
      if (p.contains("assembler")) v.assembler = Str(p, "assembler");
      v.backend = Str(p, "backend");
      v.started = Str(p, "started");
      v.seconds = Num(p, "seconds");
      if (p.contains("backend_args")) v.backend_args.emplace();
      for (const auto& [key, into] :
           {std::pair{"hosts", &v.hosts}, std::pair{"devices", &v.devices},
            std::pair{"backend_args", v.backend_args ? &*v.backend_args : nullptr}}) {
        if (into == nullptr) continue;  // no backend_args: a report of before they were kept
        const JsonIn& list = Field(p, key);
        if (!list.is_array() || list.size() > 4096)
          throw Bad{std::string("\"provenance.") + key + "\" is not a list of at most 4096"};
        for (const JsonIn& x : list) {
          if (!x.is_string())
            throw Bad{std::string("a provenance ") + key + " entry is not a string"};
          into->push_back(x.get<std::string>());
        }
      }
    }
    r.seed = U64(j, "seed");
    r.seed_source = Str(j, "seed_source");
    const std::string shard = Str(j, "shard");
    const std::size_t slash = shard.find('/');
    const auto si = oracle::ParseUint(shard.substr(0, slash), uint64_t{1} << 20);
    const auto sc = oracle::ParseUint(slash == std::string::npos ? "" : shard.substr(slash + 1),
                                      uint64_t{1} << 20);
    if (!si.ok() || !sc.ok() || sc.value() == 0 || si.value() >= sc.value())
      throw Bad{"\"shard\" is not I/N with N at most 2^20"};
    r.shard_index = si.value();
    r.shard_count = sc.value();
    r.shard_source = Str(j, "shard_source");
    if (j.contains("merged_shards")) r.merged_shards = U64(j, "merged_shards");
    if (j.contains("partial")) r.partial = Str(j, "partial");
    r.interrupted = Bool(j, "interrupted");
    const JsonIn& o = Field(j, "options");
    OnlyKeys(o, "\"options\"",
             {"suites", "cases", "seconds", "run_seconds", "tiler", "gpu", "max_reproducers",
              "expectations", "skips", "strict"});
    const JsonIn& suites = Field(o, "suites");
    if (!suites.is_array() || suites.empty() || suites.size() > 64)
      throw Bad{"\"options.suites\" is not a list of 1 to 64 suites"};
    for (const JsonIn& s : suites) {
      if (!s.is_string()) throw Bad{"a suite name is not a string"};
      r.planned_suites.push_back(s.get<std::string>());
    }
    if (!Field(o, "cases").is_null()) {
      r.cases = U64(o, "cases");
      if (*r.cases == 0 || *r.cases > uint64_t{1} << 40)  // the CLI's own --cases limits
        throw Bad{"\"options.cases\" is not 1 to 2^40"};
    }
    if (!Field(o, "seconds").is_null()) r.seconds = Num(o, "seconds");
    if (o.contains("run_seconds")) r.run_seconds = Num(o, "run_seconds");  // since 2026-11-27
    if (o.contains("tiler")) r.tiler = Str(o, "tiler");                    // since 2026-11-27
    r.gpu = Str(o, "gpu");
    r.max_reproducers = U64(o, "max_reproducers");
    r.expectations_file = Str(o, "expectations");
    r.skips_file = Str(o, "skips");
    r.strict = Bool(o, "strict");
    const JsonIn& lines = Field(j, "expectation_lines");
    if (!lines.is_array()) throw Bad{"\"expectation_lines\" is not a list"};
    for (const JsonIn& l : lines) {
      OnlyKeys(l, "an expectation line",
               {"line", "text", "reason", "could_match", "matched", "stale"});
      ExpectationUse u;
      u.line = static_cast<int>(std::min<uint64_t>(U64(l, "line"), 1u << 30));
      u.text = Str(l, "text");
      u.reason = Str(l, "reason");
      u.could_match = Bool(l, "could_match");
      u.matched = U64(l, "matched");
      r.expectation_lines.push_back(std::move(u));
    }
    const JsonIn& list = Field(j, "suites");
    if (!list.is_array()) throw Bad{"\"suites\" is not a list"};
    for (const JsonIn& s : list) r.suites.push_back(SuiteFrom(s));
    // The totals SummaryJson writes from the suites: a hand-edited one is refused, not ignored.
    uint64_t cases = 0, failed = 0, stale = 0;
    for (const SuiteReport& s : r.suites) {
      if (__builtin_add_overflow(cases, s.cases, &cases) ||
          __builtin_add_overflow(failed, s.failed, &failed))
        throw Bad{"the suites' case counts add up past 2^64-1"};
    }
    for (const ExpectationUse& u : r.expectation_lines) stale += u.stale() ? 1 : 0;
    for (const auto& [key, sum] : {std::pair{"cases", cases}, std::pair{"failed", failed},
                                   std::pair{"stale_expectations", stale}}) {
      if (j.contains(key) && U64(j, key) != sum)  // absent: recomputed anyway
        throw Bad{std::string("\"") + key + "\" is " + std::to_string(U64(j, key)) +
                  ", not the suites' " + std::to_string(sum)};
    }
    return oracle::Result<CampaignReport>::Ok(std::move(r));
  } catch (const Bad& b) {
    return oracle::Error(b.what);
  } catch (const std::exception& e) {
    std::string what = e.what();
    return oracle::Error("not a tcfuzz summary: " + what.substr(0, what.find('\n')));
  }
}

}  // namespace tcfuzz::suites
