// report/index.html: what summary.json says, for people. One file, no scripts, no network: the
// counts, each suite's families and coverage, the baseline's lines, every listed failure with its
// reproducer, and for a GPU mismatch a picture of the D tile with the wrong elements marked.
#include <cstdio>
#include <map>

#include "oracle/numerics/formats.h"
#include "suites/engine/report.h"

namespace tcfuzz::suites {
namespace {

std::string E(const std::string& s) { return MarkupEscape(s); }
std::string N(uint64_t n) { return std::to_string(n); }

// "0x3f800000 (1)": a D word and its value in the tile's format.
std::string Word(const std::string& format, uint32_t bits) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", bits);
  const auto f = oracle::num::ParseFormat(format);
  if (!f) return hex;
  char value[48];
  std::snprintf(value, sizeof value, "%.9g", oracle::num::ToDouble(*f, bits));
  return std::string(hex) + " (" + value + ")";
}

// The D tile as an SVG grid: one cell per element, the wrong ones filled and titled with both
// values; then a table of the first wrong elements.
std::string TilePicture(const TileDiff& t) {
  const int cols = t.cols, rows = static_cast<int>(t.expected.size()) / cols;
  const int cell = cols > 64 ? 6 : 14;
  std::string svg = "<svg class=\"tile\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    N(static_cast<uint64_t>(cols * cell + 1)) + "\" height=\"" +
                    N(static_cast<uint64_t>(rows * cell + 1)) +
                    "\" role=\"img\" aria-label=\"D tile, " + N(static_cast<uint64_t>(rows)) +
                    " by " + N(static_cast<uint64_t>(cols)) + ", wrong elements marked\">";
  std::string table =
      "<table class=\"wrong\"><tr><th>element</th><th>expected</th><th>device</th></tr>";
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * cols + c);
      const bool bad = t.expected[i] != t.observed[i];
      const std::string where =
          "D[" + N(static_cast<uint64_t>(r)) + "][" + N(static_cast<uint64_t>(c)) + "]";
      svg += "<rect x=\"" + N(static_cast<uint64_t>(c * cell)) + "\" y=\"" +
             N(static_cast<uint64_t>(r * cell)) + "\" width=\"" + N(static_cast<uint64_t>(cell)) +
             "\" height=\"" + N(static_cast<uint64_t>(cell)) + "\" class=\"" +
             (bad ? "bad" : "ok") + "\">";
      if (bad) {
        svg += "<title>" +
               E(where + ": expected " + Word(t.format, t.expected[i]) + ", device " +
                 Word(t.format, t.observed[i])) +
               "</title>";
        if (++wrong <= 16)
          table += "<tr><td>" + where + "</td><td>" + E(Word(t.format, t.expected[i])) +
                   "</td><td>" + E(Word(t.format, t.observed[i])) + "</td></tr>";
      }
      svg += "</rect>";
    }
  }
  svg += "</svg>";
  table += "</table>";
  return "<div class=\"tilebox\">" + svg + "<p>" + N(static_cast<uint64_t>(wrong)) + " of " +
         N(t.expected.size()) + " elements wrong (" + E(t.format) + ")</p>" + table + "</div>";
}

std::string Records(const char* title, const std::vector<FailureRecord>& list) {
  if (list.empty()) return "";
  std::string h = "<h4>" + std::string(title) + "</h4><ol class=\"records\">";
  std::size_t shown = 0;
  for (const FailureRecord& f : list) {
    if (shown++ == 50) break;
    h += "<li><code>" + E(f.signature) + "</code> " + E(f.case_name) + " (case seed " +
         N(f.case_seed) + ")<br>" + E(f.check + ": " + f.message);
    if (!f.reproducer_path.empty())
      h += "<br>reproducer: <a href=\"" + E(f.reproducer_path) + "\">" + E(f.reproducer_path) +
           "</a>";
    if (f.tile) h += TilePicture(*f.tile);
    h += "</li>";
  }
  h += "</ol>";
  if (list.size() > 50) h += "<p>" + N(list.size() - 50) + " more in summary.json</p>";
  return h;
}

// Commit, toolkit, when, how long, where and on what (issue 34).
std::string ProvenanceLine(const CampaignReport& r) {
  const Provenance& p = r.provenance;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", p.seconds);
  return "<br>built from <code id=\"commit\">" + MarkupEscape(p.commit.empty() ? "?" : p.commit) +
         "</code>, CUDA toolkit " + MarkupEscape(p.toolkit.empty() ? "none" : p.toolkit) +
         (p.assembler.empty() ? "" : ", assembler " + MarkupEscape(p.assembler)) + "; started " +
         MarkupEscape(p.started) + ", " + secs + " s; host " + MarkupEscape(ListOrNone(p.hosts)) +
         "; backend " + MarkupEscape(p.backend) + ", device <span id=\"devices\">" +
         MarkupEscape(ListOrNone(p.devices)) + "</span>";
}

// What the suite's cases tell apart (suites/checks/discrimination.h): per family and probe, the
// share of its cases whose expected result differs from the probe's; the low ones named first.
std::string DiscriminationTable(const SuiteReport& s) {
  if (s.discrimination.empty())
    return s.cases > 0 ? "<p>discrimination: not measured for this suite</p>\n" : "";
  const std::vector<std::string> low = LowDiscrimination(s.discrimination);
  std::string h;
  if (!low.empty()) {
    h += "<p class=\"banner\" id=\"low-discrimination-" + E(s.suite) +
         "\">Low discrimination (cases that would pass a wrong result):<br>";
    for (const std::string& l : low) h += E(l) + "<br>";
    h += "</p>\n";
  }
  h += "<details><summary>discrimination (" + N(s.discrimination.size()) +
       " families)</summary><table><tr><th>family</th><th>probe</th><th>cases</th><th>telling "
       "it apart</th></tr>";
  for (const auto& [family, probes] : s.discrimination) {
    for (const auto& [probe, n] : probes) {
      char pct[32];
      std::snprintf(
          pct, sizeof pct, "%.1f%%",
          n.cases ? 100.0 * static_cast<double>(n.telling) / static_cast<double>(n.cases) : 0.0);
      h += "<tr><td>" + E(family) + "</td><td>" + E(probe) + "</td><td>" + N(n.cases) +
           "</td><td>" + pct + "</td></tr>";
    }
  }
  return h + "</table></details>\n";
}

}  // namespace

std::string IndexHtml(const CampaignReport& report) {
  uint64_t cases = 0, failed = 0, expected = 0, flaky = 0, stale = 0;
  for (const SuiteReport& s : report.suites) {
    cases += s.cases;
    failed += s.failed;
    expected += s.expected;
    if (const auto it = s.outcomes.find("flaky"); it != s.outcomes.end()) flaky += it->second;
  }
  for (const ExpectationUse& u : report.expectation_lines) stale += u.stale() ? 1 : 0;
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tcfuzz report, "
      "seed " +
      N(report.seed) +
      "</title><style>body{font:14px system-ui,sans-serif;margin:2em;max-width:80em}"
      "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
      "text-align:left}.fail{color:#b00020;font-weight:bold}.pass{color:#0a7d32;font-weight:bold}"
      "rect.ok{fill:#e8f0e8;stroke:#fff}rect.bad{fill:#d32f2f;stroke:#fff}.tilebox{margin:.5em 0}"
      ".banner{background:#fff3cd;padding:.5em}code{background:#f4f4f4}</style></head><body>\n";
  h += "<h1>tcfuzz report</h1>\n";
  if (!report.partial.empty())
    h += "<p class=\"banner\" id=\"partial\">Partial: " + E(report.partial) + ".</p>\n";
  if (report.interrupted)
    h += "<p class=\"banner\" id=\"interrupted\">Interrupted: finish it with <code>tcfuzz run "
         "--resume</code> on this folder.</p>\n";
  h += "<p>" + E(report.tool) + ", seed <code id=\"seed\">" + N(report.seed) + "</code> (" +
       E(report.seed_source) + "), shard " + N(report.shard_index) + "/" + N(report.shard_count) +
       (report.merged_shards ? ", merged from " + N(report.merged_shards) + " shards" : "") +
       "<br>command: <code>" + E(report.command_line) + "</code>" + ProvenanceLine(report) +
       "</p>\n";
  // How many suites ran: a green line over 3 of 11 suites must say so (issue 34), and why the
  // rest did not (each reason once, with how many suites it kept out).
  std::map<std::string, uint64_t> not_run;
  uint64_t ran = 0, errors = 0;
  for (const SuiteReport& s : report.suites) {
    if (!s.error.empty()) {
      ++errors;
      ++not_run["error: " + s.error];
    } else if (!s.skipped.empty()) {
      ++not_run["skipped: " + s.skipped];
    } else {
      ++ran;
    }
  }
  std::string why;
  for (const auto& [reason, n] : not_run) why += (why.empty() ? " (" : "; ") + N(n) + " " + reason;
  h += "<p id=\"suite-count\" class=\"" + std::string(errors ? "fail" : "") + "\">suites: <span " +
       "id=\"suites-ran\">" + N(ran) + "</span> of " + N(report.suites.size()) + " ran" +
       (not_run.empty() ? "" : E(why + ")")) + "</p>\n";
  h += "<p id=\"totals\" class=\"" + std::string(failed ? "fail" : "pass") +
       "\">cases <span id=\"cases\">" + N(cases) + "</span>, failed <span id=\"failed\">" +
       N(failed) + "</span>, expected_fail <span id=\"expected\">" + N(expected) +
       "</span>, flaky <span id=\"flaky\">" + N(flaky) +
       "</span>, stale expectation lines <span id=\"stale\">" + N(stale) + "</span></p>\n";
  h += "<table id=\"suites\"><tr><th>suite</th><th>cases</th><th>failed</th><th>expected_fail</th>"
       "<th>cases/s</th><th>note</th></tr>\n";
  for (const SuiteReport& s : report.suites) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f",
                  s.seconds > 0 ? static_cast<double>(s.cases) / s.seconds : 0.0);
    h += "<tr><td><a href=\"#suite-" + E(s.suite) + "\">" + E(s.suite) + "</a></td><td>" +
         N(s.cases) + "</td><td class=\"" + (s.failed ? "fail" : "pass") + "\">" + N(s.failed) +
         "</td><td>" + N(s.expected) + "</td><td>" + rate + "</td><td>" +
         E(!s.error.empty()     ? "error: " + s.error
           : !s.skipped.empty() ? "skipped: " + s.skipped
           : s.complete         ? ""
                                : "interrupted") +
         "</td></tr>\n";
  }
  h += "</table>\n";
  if (!report.expectation_lines.empty()) {
    h += "<h2>Expectations</h2><table id=\"expectations\"><tr><th>line</th><th>pattern</th>"
         "<th>reason</th><th>matched</th><th></th></tr>";
    for (const ExpectationUse& u : report.expectation_lines)
      h += "<tr><td>" + N(static_cast<uint64_t>(u.line)) + "</td><td><code>" + E(u.text) +
           "</code></td><td>" + E(u.reason) + "</td><td>" + N(u.matched) + "</td><td>" +
           (u.stale() ? "<span class=\"fail\">stale</span>" : "") + "</td></tr>";
    h += "</table>\n";
  }
  for (const SuiteReport& s : report.suites) {
    h += "<h2 id=\"suite-" + E(s.suite) + "\">" + E(s.suite) + "</h2>\n";
    if (!s.outcomes.empty()) {
      h += "<p>results:";
      for (const auto& [name, n] : s.outcomes) h += " " + E(name) + " " + N(n) + ",";
      h.back() = '.';
      h += "</p>\n";
    }
    h += "<details><summary>families (" + N(s.families.size()) +
         ")</summary><table><tr><th>family</th><th>cases</th><th>failed</th><th>expected_fail</"
         "th><th>not run (device lacks it)</th></tr>";
    for (const auto& [name, f] : s.families)
      h += "<tr><td>" + E(name) + "</td><td>" + N(f.cases) + "</td><td>" + N(f.failed) +
           "</td><td>" + N(f.expected) + "</td><td>" + N(f.not_supported) + "</td></tr>";
    h += "</table></details>\n<details><summary>coverage (" + N(s.coverage.size()) +
         " tags)</summary><table><tr><th>tag</th><th>cases</th></tr>";
    for (const auto& [tag, n] : s.coverage)
      h += "<tr><td>" + E(tag) + "</td><td>" + N(n) + "</td></tr>";
    h += "</table></details>\n";
    h += DiscriminationTable(s);
    h += Records("Failures", s.failures) + Records("Model unconfirmed", s.unconfirmed) +
         Records("Flaky", s.flaky) + Records("Expected failures", s.expected_failures);
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace tcfuzz::suites
