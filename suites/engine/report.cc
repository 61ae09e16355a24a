#include "suites/engine/report.h"

#include <nlohmann/json.hpp>

namespace tcfuzz::suites {
namespace {

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
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
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

std::string Seconds(double s) { return std::to_string(s); }

}  // namespace

std::string SummaryJson(const CampaignReport& report) {
  nlohmann::ordered_json j;
  j["tool"] = report.tool;
  j["command"] = report.command_line;
  j["seed"] = report.seed;
  j["shard"] = std::to_string(report.shard_index) + "/" + std::to_string(report.shard_count);
  uint64_t cases = 0, failed = 0;
  for (const SuiteReport& s : report.suites) {
    cases += s.cases;
    failed += s.failed;
  }
  j["cases"] = cases;
  j["failed"] = failed;
  j["suites"] = nlohmann::ordered_json::array();
  for (const SuiteReport& s : report.suites) {
    nlohmann::ordered_json js;
    js["suite"] = s.suite;
    js["cases"] = s.cases;
    js["failed"] = s.failed;
    if (!s.skipped.empty()) js["skipped"] = s.skipped;
    js["seconds"] = s.seconds;
    js["cases_per_second"] = s.seconds > 0 ? static_cast<double>(s.cases) / s.seconds : 0.0;
    if (!s.worker_phases.empty()) js["worker_seconds_by_phase"] = s.worker_phases;
    js["families"] = nlohmann::ordered_json::object();
    for (const auto& [name, f] : s.families) {
      js["families"][name] = {{"cases", f.cases}, {"failed", f.failed}};
    }
    js["coverage"] = s.coverage;
    for (const auto& [key, records] :
         {std::pair{"failures", &s.failures}, std::pair{"model_unconfirmed", &s.unconfirmed}}) {
      js[key] = nlohmann::ordered_json::array();
      for (const FailureRecord& f : *records) {
        js[key].push_back({{"case", f.case_name},
                           {"family", f.family},
                           {"index", f.index},
                           {"case_seed", f.case_seed},
                           {"check", f.check},
                           {"message", f.message},
                           {"reproducer", f.reproducer_path}});
      }
    }
    j["suites"].push_back(std::move(js));
  }
  // Messages can carry a tool's own bytes (a worker's stderr): invalid UTF-8 becomes U+FFFD.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string JUnitXml(const CampaignReport& report) {
  uint64_t tests = 0, failures = 0;
  double seconds = 0;
  for (const SuiteReport& s : report.suites) {
    tests +=
        s.families.size() + s.failures.size() + s.unconfirmed.size() + (s.skipped.empty() ? 0 : 1);
    failures += s.failures.size();
    for (const auto& [name, f] : s.families) failures += f.failed > 0 ? 1 : 0;
    seconds += s.seconds;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"tcfuzz\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
       std::to_string(failures) + "\" time=\"" + Seconds(seconds) + "\">\n";
  for (const SuiteReport& s : report.suites) {
    uint64_t suite_failures = s.failures.size();
    for (const auto& [name, f] : s.families) suite_failures += f.failed > 0 ? 1 : 0;
    x += "  <testsuite name=\"" + XmlEscape(s.suite) + "\" tests=\"" +
         std::to_string(s.families.size() + s.failures.size() + s.unconfirmed.size() +
                        (s.skipped.empty() ? 0 : 1)) +
         "\" failures=\"" + std::to_string(suite_failures) + "\" time=\"" + Seconds(s.seconds) +
         "\">\n";
    x += "    <properties>\n";
    x += "      <property name=\"seed\" value=\"" + std::to_string(report.seed) + "\"/>\n";
    x += "      <property name=\"shard\" value=\"" + std::to_string(report.shard_index) + "/" +
         std::to_string(report.shard_count) + "\"/>\n";
    x += "      <property name=\"tool\" value=\"" + XmlEscape(report.tool) + "\"/>\n";
    x += "    </properties>\n";
    if (!s.skipped.empty()) {
      x += "    <testcase classname=\"" + XmlEscape(s.suite) +
           "\" name=\"skipped\">\n      <skipped message=\"" + XmlEscape(s.skipped) +
           "\"/>\n    </testcase>\n";
    }
    // One test case per family: it fails when any of its cases failed.
    for (const auto& [name, f] : s.families) {
      x += "    <testcase classname=\"" + XmlEscape(s.suite) + ".families\" name=\"" +
           XmlEscape(name) + "\">\n";
      if (f.failed > 0) {
        x += "      <failure message=\"" + std::to_string(f.failed) + " of " +
             std::to_string(f.cases) + " cases failed\"/>\n";
      }
      x += "      <system-out>cases=" + std::to_string(f.cases) + "</system-out>\n";
      x += "    </testcase>\n";
    }
    // One test case per failing case, naming its reproducer.
    for (const FailureRecord& f : s.failures) {
      x += "    <testcase classname=\"" + XmlEscape(s.suite) + ".cases\" name=\"" +
           XmlEscape(f.case_name) + "\">\n";
      x += "      <failure message=\"" + XmlEscape(f.check + ": " + f.message) + "\">" +
           XmlEscape("case_seed=" + std::to_string(f.case_seed) +
                     " reproducer=" + f.reproducer_path) +
           "</failure>\n";
      x += "    </testcase>\n";
    }
    // Mismatches the model cannot stand behind yet: skipped, with what they rest on.
    for (const FailureRecord& f : s.unconfirmed) {
      x += "    <testcase classname=\"" + XmlEscape(s.suite) + ".cases\" name=\"" +
           XmlEscape(f.case_name) + "\">\n";
      x += "      <skipped message=\"" + XmlEscape("model_unconfirmed: " + f.message) + "\"/>\n";
      x += "      <system-out>" +
           XmlEscape("case_seed=" + std::to_string(f.case_seed) +
                     " reproducer=" + f.reproducer_path) +
           "</system-out>\n";
      x += "    </testcase>\n";
    }
    x += "  </testsuite>\n";
  }
  x += "</testsuites>\n";
  return x;
}

}  // namespace tcfuzz::suites
