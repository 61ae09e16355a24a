#include "suites/engine/merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/campaign.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/report.h"
#include "suites/engine/report_folder.h"

namespace tcfuzz::suites {
namespace {

struct Shard {
  std::string dir;
  CampaignReport report;
};

std::string Planned(const CampaignReport& r) {
  std::string s;
  for (const std::string& name : r.planned_suites) s += (s.empty() ? "" : ",") + name;
  return s;
}

// The options every shard of one run shares; a difference names the first one found.
std::string Differs(const CampaignReport& a, const CampaignReport& b) {
  if (a.tool != b.tool) return "tcfuzz versions '" + a.tool + "' vs '" + b.tool + "'";
  if (a.provenance.commit != b.provenance.commit)
    return "commits '" + a.provenance.commit + "' vs '" + b.provenance.commit + "'";
  if (a.seed != b.seed) return "seed " + std::to_string(a.seed) + " vs " + std::to_string(b.seed);
  if (a.shard_count != b.shard_count)
    return "shard count " + std::to_string(a.shard_count) + " vs " + std::to_string(b.shard_count);
  if (a.planned_suites != b.planned_suites) return "suites " + Planned(a) + " vs " + Planned(b);
  if (a.cases != b.cases) return "case counts";
  if (a.seconds != b.seconds || a.run_seconds != b.run_seconds) return "time budgets";
  if (a.gpu != b.gpu) return "--gpu " + a.gpu + " vs " + b.gpu;
  if (a.max_reproducers != b.max_reproducers) return "reproducer caps";
  if (a.strict != b.strict) return "--strict in one and not the other";
  if (a.expectations_file != b.expectations_file)
    return "--expectations '" + a.expectations_file + "' vs '" + b.expectations_file + "'";
  if (a.skips_file != b.skips_file)
    return "--skips '" + a.skips_file + "' vs '" + b.skips_file + "'";
  if (a.tiler != b.tiler) return "tilers '" + a.tiler + "' vs '" + b.tiler + "'";
  // The same path can hold other lines on another runner.
  const auto lines = [](const CampaignReport& r) {
    std::vector<std::pair<int, std::string>> l;
    for (const ExpectationUse& u : r.expectation_lines) l.emplace_back(u.line, u.text);
    return l;
  };
  if (lines(a) != lines(b)) return "--expectations files with other lines";
  // Backends may mix (a GPU runner's shard beside a host's: "mixed"), but a planted mutant or two
  // different host backends are not one run: the merged report would claim the first's options.
  const std::vector<std::string> none;
  const auto& aa = a.provenance.backend_args ? *a.provenance.backend_args : none;
  const auto& ba = b.provenance.backend_args ? *b.provenance.backend_args : none;
  const auto plants = [](const std::vector<std::string>& v) {
    return std::find(v.begin(), v.end(), "--mutant") != v.end();
  };
  if (aa != ba && ((!aa.empty() && !ba.empty()) || plants(aa) || plants(ba))) {
    const auto shown = [](const std::vector<std::string>& v) {
      std::string s;
      for (const std::string& w : v) s += (s.empty() ? "" : " ") + w;
      return s.empty() ? std::string("cuda") : s;
    };
    return "backends '" + shown(aa) + "' vs '" + shown(ba) + "'";
  }
  return "";
}

// The files a folder keeps for `suite` under `sub` ("undefined"), by case index.
std::map<uint64_t, std::string> CaseFiles(const std::string& dir, const std::string& sub,
                                          const std::string& suite) {
  std::map<uint64_t, std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir + "/" + sub, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(suite + "-") || !name.ends_with(".txt")) continue;
    const std::string digits = name.substr(suite.size() + 1, name.size() - suite.size() - 5);
    if (digits.empty() || digits.size() > 19 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    out[std::stoull(digits)] = sub + "/" + name;
  }
  return out;
}

}  // namespace

int MergeReports(const std::vector<std::string>& dirs, const std::string& out, std::ostream& log,
                 bool allow_partial) {
  const auto fail = [&log](const std::string& what) {
    log << oracle::ErrorLine("merge: " + what);
    return 2;
  };
  if (dirs.empty()) return fail("no shard reports given");
  std::vector<Shard> shards;
  for (const std::string& dir : dirs) {
    auto r = ReadSummary(dir + "/summary.json");
    if (!r.ok()) return fail(r.error());
    if (r.value().interrupted && !allow_partial)
      return fail(dir + ": an interrupted run; finish it with tcfuzz run --resume " + dir +
                  " (or merge --allow-partial)");
    if (r.value().merged_shards > 0) return fail(dir + ": already a merged report");
    shards.push_back({dir, std::move(r).value()});
  }
  std::sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) {
    return a.report.shard_index < b.report.shard_index;
  });
  const CampaignReport& first = shards.front().report;
  std::set<uint64_t> seen;
  for (const Shard& s : shards) {
    if (const std::string d = Differs(first, s.report); !d.empty())
      return fail(shards.front().dir + " and " + s.dir + " are not shards of one run (" + d + ")");
    if (!seen.insert(s.report.shard_index).second)
      return fail("shard " + std::to_string(s.report.shard_index) + " given twice (" + s.dir + ")");
  }
  // Backends may mix with a shard that named none (cuda, or no GPU suite run), never with each
  // other: every shard is held to the first that named one too.
  const Shard* named = nullptr;
  for (const Shard& s : shards) {
    const auto& args = s.report.provenance.backend_args;
    if (named == nullptr && args && !args->empty()) named = &s;
  }
  if (named != nullptr) {
    for (const Shard& s : shards) {
      if (const std::string d = Differs(named->report, s.report); !d.empty())
        return fail(named->dir + " and " + s.dir + " are not shards of one run (" + d + ")");
    }
  }
  std::string missing;
  for (uint64_t i = 0; i < first.shard_count; ++i) {
    if (!seen.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  }
  if (!missing.empty() && !allow_partial)
    return fail("shards " + missing + " of " + std::to_string(first.shard_count) +
                " are missing (merge --allow-partial merges the rest)");
  std::vector<std::string> lacks;  // what a partial merge says it lacks
  if (!missing.empty())
    lacks.push_back("shards " + missing + " of " + std::to_string(first.shard_count) + " missing");

  CampaignReport merged = first;
  merged.shard_index = 0;
  merged.shard_count = 1;
  merged.shard_source = "merged";
  merged.merged_shards = shards.size();
  merged.interrupted = false;  // a merge is not resumed; what its shards lacked is `partial`
  merged.suites.clear();
  std::vector<Provenance> parts;
  for (const Shard& s : shards) parts.push_back(s.report.provenance);
  merged.provenance = MergedProvenance(parts);
  if (named != nullptr) merged.provenance.backend_args = named->report.provenance.backend_args;
  merged.provenance.seconds = 0;  // shards run side by side: the longest one
  for (const Provenance& p : parts)
    merged.provenance.seconds = std::max(merged.provenance.seconds, p.seconds);
  // An expectation line is stale in the run when it could have matched somewhere and matched
  // nowhere: counts add up over the shards.
  for (ExpectationUse& u : merged.expectation_lines) {
    u.matched = 0;
    u.could_match = false;
  }
  for (const Shard& s : shards) {
    for (const ExpectationUse& p : s.report.expectation_lines) {
      for (ExpectationUse& u : merged.expectation_lines) {
        if (u.line == p.line && u.text == p.text) {
          if (__builtin_add_overflow(u.matched, p.matched, &u.matched))
            return fail("expectation line " + std::to_string(u.line) +
                        ": the shards' match counts add up past 2^64-1");
          u.could_match = u.could_match || p.could_match;
        }
      }
    }
  }
  const uint64_t max_reproducers = first.max_reproducers;
  // Files to copy: report path -> the shard folder that has it.
  std::map<std::string, std::string> files;
  for (const std::string& name : first.planned_suites) {
    SuiteReport sum;
    bool any = false;
    std::string unfinished;  // shards of a partial merge that did not finish this suite
    std::vector<std::string> skipped_in;  // shards that skipped this host suite, and why
    bool ran_in = false;
    for (const Shard& s : shards) {
      const auto it = std::find_if(s.report.suites.begin(), s.report.suites.end(),
                                   [&](const SuiteReport& r) { return r.suite == name; });
      if (it == s.report.suites.end() || !it->complete) {
        if (!s.report.interrupted)
          return fail(s.dir + ": has no " + (it == s.report.suites.end() ? "report" : "whole run") +
                      " of suite " + name);
        unfinished += (unfinished.empty() ? "" : ", ") + std::to_string(s.report.shard_index);
        if (it == s.report.suites.end()) continue;  // never started there
      }
      // A host suite skipped on one shard's machine (no toolkit there) and run on another's
      // would count half its cases as the whole run.
      if (!IsDeviceSuite(name) && !it->skipped.empty())
        skipped_in.push_back("shard " + std::to_string(s.report.shard_index) + " (" + it->skipped +
                             ")");
      else
        ran_in = true;
      if (!any) {
        sum = *it;
        any = true;
      } else {
        // Every other count of a suite is at most its cases (ReadSummary): this bounds them.
        if (uint64_t total = 0; __builtin_add_overflow(sum.cases, it->cases, &total))
          return fail("suite " + name + ": the shards' case counts add up past 2^64-1");
        AddSuiteReport(sum, *it);
      }
    }
    // The unsharded run's reproducers are its first failing cases by index, failures and
    // unconfirmed mismatches sharing the cap; each shard kept its own first ones, a superset.
    std::vector<FailureRecord*> all;
    for (auto* list : {&sum.failures, &sum.unconfirmed}) {
      for (FailureRecord& f : *list) all.push_back(&f);
    }
    std::sort(all.begin(), all.end(),
              [](const FailureRecord* a, const FailureRecord* b) { return a->index < b->index; });
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i >= max_reproducers) {
        all[i]->reproducer_path.clear();
        continue;
      }
      if (all[i]->reproducer_path.empty()) continue;
      for (const Shard& s : shards) {
        if (all[i]->index % s.report.shard_count == s.report.shard_index)
          files[all[i]->reproducer_path] = s.dir;
      }
    }
    std::map<uint64_t, std::pair<std::string, std::string>> undefined;  // index -> (path, dir)
    for (const Shard& s : shards) {
      for (const auto& [index, path] : CaseFiles(s.dir, "undefined", name))
        undefined[index] = {path, s.dir};
    }
    std::size_t kept = 0;
    for (const auto& [index, where] : undefined) {
      if (kept++ == max_reproducers) break;
      files[where.first] = where.second;
    }
    if (!any) {  // no shard started it
      sum.suite = name;
      sum.device = IsDeviceSuite(name);
      sum.skipped = "no shard of this partial merge ran it";
    }
    if (ran_in && !skipped_in.empty()) {
      std::string where;
      for (const std::string& w : skipped_in) where += (where.empty() ? "" : ", ") + w;
      if (!allow_partial)
        return fail("suite " + name + " ran in some shards and was skipped in " + where +
                    ": its cases there are missing (--allow-partial merges the rest)");
      sum.skipped.clear();
      sum.complete = false;
      lacks.push_back(name + " skipped in " + where);
    }
    if (!missing.empty()) sum.complete = false;  // a whole shard's cases are not in it
    if (!unfinished.empty()) {
      sum.complete = false;
      lacks.push_back(name + " unfinished in shard" +
                      (unfinished.find(',') == std::string::npos ? " " : "s ") + unfinished);
    }
    merged.suites.push_back(std::move(sum));
  }
  for (const std::string& l : lacks) merged.partial += (merged.partial.empty() ? "" : "; ") + l;

  // The summary's totals add the suites up: they must fit too.
  uint64_t all_cases = 0;
  for (const SuiteReport& s : merged.suites) {
    if (__builtin_add_overflow(all_cases, s.cases, &all_cases))
      return fail("the suites' case counts add up past 2^64-1");
  }
  auto opened = ReportFolder::Open(out, false);
  if (!opened.ok()) return fail(opened.error());
  ReportFolder folder = std::move(opened).value();
  for (const auto& [path, dir] : files) {
    // A shard's files are copied only as the regular files they are inside it: a link (to
    // anything a CI runner can read) would publish what it points at.
    std::filesystem::path at(dir);
    bool inside = true;
    for (const auto& part : std::filesystem::path(path)) {
      at /= part;
      std::error_code ec;
      const auto st = std::filesystem::symlink_status(at, ec);
      inside = inside && !ec && !std::filesystem::is_symlink(st);
    }
    std::error_code ec;
    if (!inside || !std::filesystem::is_regular_file(std::filesystem::symlink_status(at, ec)))
      return fail(dir + "/" + path +
                  ": not a regular file inside the shard (links are not followed)");
    auto text = ReadFile(dir + "/" + path, std::size_t{1} << 24, Links::kRefuse);
    if (!text.ok()) return fail(text.error());
    auto written = WriteFileAtomic(folder.work() + "/" + path, text.value());
    if (!written.ok()) return fail(written.error());
  }
  for (const auto& [file, content] : {std::pair{std::string("summary.json"), SummaryJson(merged)},
                                      std::pair{std::string("junit.xml"), JUnitXml(merged)},
                                      std::pair{std::string("index.html"), IndexHtml(merged)}}) {
    auto written = WriteFileAtomic(folder.work() + "/" + file, content);
    if (!written.ok()) return fail(written.error());
  }
  if (auto c = folder.Commit(); !c.ok()) return fail(c.error());
  uint64_t cases = 0, failed = 0;
  for (const SuiteReport& s : merged.suites) {
    cases += s.cases;
    failed += s.failed;
  }
  log << "merged " << shards.size() << " shards (seed " << merged.seed << "): " << cases
      << " cases, " << failed << " failed; report in " << oracle::OneLine(out) << "/\n";
  if (!merged.partial.empty()) {
    log << "PARTIAL: " << oracle::OneLine(merged.partial, 1000) << "\n";
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace tcfuzz::suites
