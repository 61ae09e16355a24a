#include "suites/engine/mutant_report.h"

#include <set>
#include <sstream>
#include <vector>

#include "suites/engine/report.h"

namespace tcfuzz::suites {
namespace {

using Json = nlohmann::ordered_json;

std::string Str(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}
uint64_t Num(const Json& j, const char* key) {
  const bool whole = j.contains(key) && j[key].is_number_integer() && j[key].get<int64_t>() >= 0;
  return whole ? j[key].get<uint64_t>() : 0;
}
bool Flag(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_boolean() && j[key].get<bool>();
}

// One cell's verdict and its words: killed, flagged, survived or error.
std::string VerdictOf(const Json& cell) {
  if (!Str(cell, "error").empty()) return "error";
  if (Flag(cell, "killed")) return "killed";
  return Num(cell, "model_unconfirmed") > 0 ? "flagged" : "survived";
}

std::string Detail(const Json& cell) {
  const std::string v = VerdictOf(cell);
  const std::string first =
      cell.contains("first_kill_index") ? std::to_string(Num(cell, "first_kill_index")) : "?";
  if (v == "error") return Str(cell, "error");
  if (v == "killed")
    return "killed at case " + first + " (" + std::to_string(Num(cell, "failed")) + " of " +
           std::to_string(Num(cell, "cases")) + " cases failed)";
  if (v == "flagged")
    return "seen only as model_unconfirmed from case " + first + " (" +
           std::to_string(Num(cell, "model_unconfirmed")) + " of " +
           std::to_string(Num(cell, "cases")) +
           " cases): every case that saw it rests on a reading no hardware has shown";
  return "survived " + std::to_string(Num(cell, "cases")) + " cases";
}

// The list under `key`, by reference (the grid points into it), or an empty one.
const Json& List(const Json& j, const char* key) {
  static const Json kEmpty = Json::array();
  return j.contains(key) && j[key].is_array() ? j[key] : kEmpty;
}
const Json& Matrix(const Json& summary) { return List(summary, "matrix"); }

}  // namespace

std::string MutantJUnitXml(const Json& summary) {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  std::ostringstream cases;
  cases.setf(std::ios::fixed);
  cases.precision(3);
  for (const Json& row : Matrix(summary)) {
    const std::string name = Str(row, "mutant");
    for (const Json& cell : List(row, "suites")) {
      ++tests;
      seconds += cell.value("seconds", 0.0);
      const std::string v = VerdictOf(cell);
      cases << "    <testcase classname=\"mutants." << MarkupEscape(Str(cell, "suite"))
            << "\" name=\"" << MarkupEscape(name) << "\" time=\"" << cell.value("seconds", 0.0)
            << "\">";
      const std::string why = MarkupEscape(Str(row, "points") + ": " + Detail(cell));
      if (v == "survived") {
        ++failures;
        cases << "<failure message=\"" << why << "\" type=\"survived\"/>";
      } else if (v == "error") {
        ++errors;
        cases << "<error message=\"" << why << "\" type=\"campaign\"/>";
      } else if (v == "flagged") {
        ++skipped;
        cases << "<skipped message=\"" << why << "\"/>";
      } else {
        cases << "<system-out>" << why << "</system-out>";
      }
      cases << "</testcase>\n";
    }
  }
  std::ostringstream x;
  x.setf(std::ios::fixed);
  x.precision(3);
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<testsuites name=\"tcfuzz mutants\" tests=\"" << tests << "\" failures=\"" << failures
    << "\" errors=\"" << errors << "\" time=\"" << seconds << "\">\n"
    << "  <testsuite name=\"mutants\" tests=\"" << tests << "\" failures=\"" << failures
    << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds << "\">\n"
    << cases.str() << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

std::string MutantIndexHtml(const Json& summary) {
  std::vector<std::string> suites;  // columns, in first-seen order
  std::set<std::string> seen;
  for (const Json& row : Matrix(summary))
    for (const Json& cell : List(row, "suites"))
      if (seen.insert(Str(cell, "suite")).second) suites.push_back(Str(cell, "suite"));
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<title>tcfuzz mutants</title><style>"
    << "body{font:14px sans-serif;margin:1.5em}table{border-collapse:collapse}"
    << "td,th{border:1px solid #bbb;padding:3px 6px;text-align:left}"
    << "td.killed{background:#b7e1b0}td.flagged{background:#f6d98b}"
    << "td.survived{background:#f19a9a}td.error{background:#c9a0dc}td.none{background:#eee}"
    << "</style></head><body>\n<h1>tcfuzz mutants: the kill matrix</h1>\n<p>"
    << Num(summary, "killed") << " of " << Num(summary, "mutants") << " mutants killed, "
    << Num(summary, "flagged") << " flagged, " << Num(summary, "survived")
    << " survived; cases to the first detection: median " << Num(summary, "median_cases_to_kill")
    << ", most " << Num(summary, "most_cases_to_kill") << ". Seed " << Num(summary, "seed")
    << ", up to " << Num(summary, "cases_per_suite") << " cases a suite, catalogue "
    << MarkupEscape(Str(summary, "catalogue")) << ".</p>\n"
    << "<p>A cell is a campaign of one suite with the mutant planted in the emulator: "
    << "<b>killed</b> (a case failed), <b>flagged</b> (seen only as model_unconfirmed: the "
    << "cases that saw it rest on readings no hardware has shown), <b>survived</b> (a gap in "
    << "what tcfuzz generates or checks). The number is the first case that saw it; each "
    << "campaign's report is under runs/.</p>\n<table>\n<tr><th>mutant</th><th>points</th>";
  for (const std::string& s : suites) h << "<th>" << MarkupEscape(s) << "</th>";
  h << "<th>precedent</th></tr>\n";
  for (const Json& row : Matrix(summary)) {
    const std::string name = Str(row, "mutant");
    h << "<tr><td>" << MarkupEscape(name) << "</td><td><code>" << MarkupEscape(Str(row, "points"))
      << "</code></td>";
    for (const std::string& s : suites) {
      const Json* cell = nullptr;
      for (const Json& c : List(row, "suites"))
        if (Str(c, "suite") == s) cell = &c;
      if (cell == nullptr) {
        h << "<td class=\"none\"></td>";
        continue;
      }
      const std::string v = VerdictOf(*cell);
      const std::string first = cell->contains("first_kill_index")
                                    ? " " + std::to_string(Num(*cell, "first_kill_index"))
                                    : "";
      h << "<td class=\"" << v << "\" title=\"" << MarkupEscape(Detail(*cell)) << "\">"
        << "<a href=\"runs/" << MarkupEscape(name + "." + s) << "/index.html\">" << v
        << (v == "survived" || v == "error" ? "" : first) << "</a></td>";
    }
    h << "<td>" << MarkupEscape(Str(row, "precedent")) << "</td></tr>\n";
  }
  h << "</table>\n</body></html>\n";
  return h.str();
}

}  // namespace tcfuzz::suites
