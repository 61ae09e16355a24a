#include "suites/toolchain/toolchain_scan.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <thread>

#include "generators/toolchain/ptx_form_gen.h"
#include "harness/nvjitlink.h"
#include "harness/ptx_form_module.h"
#include "oracle/core/text_format.h"
#include "oracle/ptx/ptx_target.h"
#include "suites/engine/line_reader.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {
namespace {

using R = oracle::Result<ScanReport>;

std::vector<std::string> Targets(const ScanOptions& o) {
  if (!o.targets.empty()) return o.targets;
  std::vector<std::string> t;
  for (const auto& target : oracle::ptx::AllTargets()) t.emplace_back(target.name);
  return t;
}

// The whole scan's forms and targets (a campaign's toolchain suite and its workers).
const std::vector<gen::EnumeratedForm>& AllForms() {
  static const std::vector<gen::EnumeratedForm> all = gen::EnumerateForms();
  return all;
}
const std::vector<std::string>& AllTargetNames() {
  static const std::vector<std::string> all = Targets(ScanOptions{});
  return all;
}

// The enumerated forms whose key (version included) matches the options' pattern on one of the
// scanned targets; every form when there is no pattern. A scan resolves this once.
oracle::Result<std::vector<gen::EnumeratedForm>> SelectForms(
    const ScanOptions& o, const std::vector<std::string>& targets) {
  using Forms = oracle::Result<std::vector<gen::EnumeratedForm>>;
  const std::vector<gen::EnumeratedForm>& all = AllForms();
  if (o.forms.empty()) return Forms::Ok(all);
  const auto glob = Glob::Compile(o.forms);
  if (!glob.ok()) return Forms::Fail("--forms: " + glob.error());
  std::vector<gen::EnumeratedForm> in;
  for (const auto& e : all) {
    bool match = false;
    for (const auto& t : targets) match = match || glob.value().Matches(gen::AtTarget(e, t).Key());
    if (match) in.push_back(e);
  }
  return Forms::Ok(std::move(in));
}

// Item i: target i / forms, form i % forms.
struct Item {
  oracle::ptx::PtxForm form;
  std::string target;
};
Item ItemAt(const std::vector<gen::EnumeratedForm>& forms, const std::vector<std::string>& targets,
            size_t i) {
  const std::string& t = targets[i / forms.size()];
  return {gen::AtTarget(forms[i % forms.size()], t), t};
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// One module through the chosen assembler, in this process (ptxas: a child with a deadline).
std::pair<Observed, std::string> Assemble(const ScanOptions& o, const std::string& ptxas,
                                          const std::string& module, const std::string& target) {
  if (o.assembler == "nvjitlink") {
    const auto link = harness::NvJitLink::Load();
    if (!link.ok()) return {Observed::kCrash, link.error()};
    const auto r = link.value()->Assemble(module, target);
    return {r.accepted ? Observed::kAccept : Observed::kReject, r.diagnostic};
  }
  char path[] = "/tmp/tcfuzz-scan-XXXXXX.ptx";
  const int fd = mkstemps(path, 4);
  if (fd < 0) return {Observed::kCrash, "cannot create a temporary PTX file"};
  const bool written =
      write(fd, module.data(), module.size()) == static_cast<ssize_t>(module.size());
  close(fd);
  CommandOptions co;
  co.timeout = o.item_timeout;
  const CommandResult r = written
                              ? RunArgv({ptxas, "-arch=" + target, "-o", "/dev/null", path}, "", co)
                              : CommandResult{};
  unlink(path);
  if (!written) return {Observed::kCrash, "cannot write a temporary PTX file"};
  if (r.timed_out) return {Observed::kTimeout, r.Describe(co.timeout)};
  if (!r.started || r.signal != 0) return {Observed::kCrash, r.Describe(co.timeout) + " " + r.err};
  return {r.exit_code == 0 ? Observed::kAccept : Observed::kReject,
          r.exit_code == 0 ? "" : r.err + r.out};
}

// "nvJitLink 13.0" / "ptxas 13.0" and the toolkit key, or an error when the assembler is missing.
oracle::Result<std::pair<std::string, std::string>> Identify(const ScanOptions& o,
                                                             const std::string& ptxas) {
  using V = oracle::Result<std::pair<std::string, std::string>>;
  if (o.assembler == "nvjitlink") {
    const auto link = harness::NvJitLink::Load();
    if (!link.ok()) return V::Fail(link.error());
    const std::string v = link.value()->Version();
    return V::Ok({"nvJitLink " + v, v});
  }
  if (ptxas.empty()) return V::Fail("no ptxas found (give --ptxas PATH)");
  CommandOptions co;
  const CommandResult r = RunArgv({ptxas, "--version"}, "", co);
  const size_t at = r.out.find("release ");
  if (!r.ok() || at == std::string::npos)
    return V::Fail(ptxas + " --version did not say its release");
  const std::string v = r.out.substr(at + 8, r.out.find(',', at) - at - 8);
  return V::Ok({"ptxas " + v, v});
}

char Code(Observed o) { return "ARCT"[static_cast<int>(o)]; }

// The ptxas binary the options name, or the one on the usual paths.
std::string PtxasOf(const ScanOptions& o) { return o.ptxas.empty() ? FindPtxas() : o.ptxas; }

// Item i assembled, as a worker line: "<index>\t<A|R|C|T>\t<diagnostic, one line>".
void WriteVerdict(const ScanOptions& o, const std::string& ptxas, const Item& item, std::size_t i,
                  std::ostream& out) {
  const auto [observed, diag] =
      Assemble(o, ptxas, harness::FormModule(item.form, item.target), item.target);
  out << i << '\t' << Code(observed) << '\t' << OneLine(diag) << '\n' << std::flush;
}

// Parses worker lines into rows and marks the items they report.
void ParseWorkerLines(const std::string& out, size_t first, size_t count,
                      std::vector<ScanRow>& rows, std::vector<char>& done) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const size_t t1 = line.find('\t');
    if (t1 == std::string::npos || t1 + 2 >= line.size()) continue;
    char* end = nullptr;
    const unsigned long long i = std::strtoull(line.c_str(), &end, 10);
    if (end != line.c_str() + t1 || i < first || i >= first + count) continue;
    const std::string codes = "ARCT";
    const size_t code = codes.find(line[t1 + 1]);
    if (code == std::string::npos) continue;
    rows[i].observed = static_cast<Observed>(code);
    rows[i].diagnostic = line.size() > t1 + 3 ? line.substr(t1 + 3) : "";
    done[i] = 1;
  }
}

std::vector<std::string> WorkerArgv(const ScanOptions& o, const std::string& ptxas,
                                    const std::vector<std::string>& targets, size_t first,
                                    size_t count) {
  std::vector<std::string> argv = o.worker_argv;
  std::string joined;
  for (const auto& t : targets) joined += (joined.empty() ? "" : ",") + t;
  if (!o.forms.empty()) argv.insert(argv.end(), {"--forms", o.forms});
  for (std::string a : {std::string("--assembler"), o.assembler, std::string("--targets"), joined,
                        std::string("--first"), std::to_string(first), std::string("--count"),
                        std::to_string(count)}) {
    argv.push_back(std::move(a));
  }
  if (!ptxas.empty()) argv.insert(argv.end(), {"--ptxas", ptxas});
  if (o.plant_crash >= 0) argv.insert(argv.end(), {"--plant-crash", std::to_string(o.plant_crash)});
  if (o.plant_hang >= 0) argv.insert(argv.end(), {"--plant-hang", std::to_string(o.plant_hang)});
  return argv;
}

// Runs [first, first + count) in workers until every item has a verdict: after a worker dies,
// the first item without one is run alone, and a crash or hang there is that item's verdict.
void RunChunk(const ScanOptions& o, const std::string& ptxas,
              const std::vector<std::string>& targets, size_t first, size_t count,
              std::vector<ScanRow>& rows, std::vector<char>& done) {
  size_t pos = first;
  const size_t end = first + count;
  while (pos < end) {
    CommandOptions co;
    co.timeout = o.item_timeout + std::chrono::milliseconds(100) * static_cast<int64_t>(end - pos);
    co.max_output = std::size_t{64} << 20;
    const CommandResult r = RunArgv(WorkerArgv(o, ptxas, targets, pos, end - pos), "", co);
    ParseWorkerLines(r.out, pos, end - pos, rows, done);
    while (pos < end && done[pos]) ++pos;
    if (pos == end) break;
    CommandOptions alone;
    alone.timeout = o.item_timeout;
    const CommandResult one = RunArgv(WorkerArgv(o, ptxas, targets, pos, 1), "", alone);
    ParseWorkerLines(one.out, pos, 1, rows, done);
    if (!done[pos]) {
      rows[pos].observed = one.timed_out ? Observed::kTimeout : Observed::kCrash;
      rows[pos].diagnostic =
          OneLine("worker " + one.Describe(alone.timeout) + ": " + one.err.substr(0, 400));
      done[pos] = 1;
    }
    ++pos;
  }
}

}  // namespace

std::string_view Name(Observed o) {
  switch (o) {
    case Observed::kAccept:
      return "accept";
    case Observed::kReject:
      return "reject";
    case Observed::kCrash:
      return "crash";
    case Observed::kTimeout:
      return "timeout";
  }
  return "?";
}

bool ScanRow::unexpected() const {
  if (observed == Observed::kCrash || observed == Observed::kTimeout) return true;
  return (observed == Observed::kAccept) != expected_accept && !known_deviation();
}

std::string FindPtxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

int RunScanWorker(const ScanOptions& o, size_t first, size_t count, std::ostream& out) {
  const auto targets = Targets(o);
  const std::string ptxas = PtxasOf(o);
  const auto selected = SelectForms(o, targets);
  if (!selected.ok()) {
    out << "error " << selected.error() << "\n";
    return 2;
  }
  const auto& forms = selected.value();
  const size_t total = targets.size() * forms.size();
  for (size_t i = first; i < first + count && i < total; ++i) {
    if (static_cast<long>(i) == o.plant_crash) std::raise(SIGSEGV);
    while (static_cast<long>(i) == o.plant_hang) pause();
    WriteVerdict(o, ptxas, ItemAt(forms, targets, i), i, out);
  }
  return 0;
}

int RunScanLineWorker(const ScanOptions& o, std::istream& in, std::ostream& out,
                      std::ostream& err) {
  const std::string ptxas = PtxasOf(o);
  const std::size_t total = WholeScanItems();
  LineReader reader(in);
  for (std::string line; reader.Next(line);) {
    const auto i = oracle::ParseUint(line, total - 1);
    if (!i.ok()) {
      out << "error " << OneLine(i.error()) << '\n' << std::flush;
      continue;
    }
    const auto at = static_cast<std::size_t>(i.value());
    WriteVerdict(o, ptxas, ItemAt(AllForms(), AllTargetNames(), at), at, out);
  }
  if (!reader.error().empty()) {
    err << oracle::ErrorLine("toolchain worker: " + reader.error());
    return 2;
  }
  return 0;
}

std::size_t WholeScanItems() { return AllForms().size() * AllTargetNames().size(); }

ScanItem WholeScanItem(std::size_t i) {
  const Item item = ItemAt(AllForms(), AllTargetNames(), i);
  const oracle::Verdict v = oracle::ptx::ValidateForm(item.form, item.target);
  ScanItem s;
  s.key = item.form.Key();
  s.family = std::string(oracle::ptx::FamilyName(item.form.family));
  s.ptx = harness::FormInstruction(item.form);
  s.target = oracle::ptx::AllTargets()[i / AllForms().size()].name;
  s.legal = v.legal();
  s.rules = oracle::JoinRuleIds(v.RuleIds());
  return s;
}

std::vector<std::string> WholeScanFamilies() {
  std::vector<std::string> out;
  for (const auto& e : AllForms()) {
    std::string f(oracle::ptx::FamilyName(e.form.family));
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(std::move(f));
  }
  return out;
}

bool ParseVerdictLine(std::string_view line, std::size_t index, Observed& observed,
                      std::string& diagnostic) {
  const std::string prefix = std::to_string(index) + '\t';
  if (line.substr(0, prefix.size()) != prefix || line.size() < prefix.size() + 2 ||
      line[prefix.size() + 1] != '\t')
    return false;
  const std::size_t code = std::string_view("ARCT").find(line[prefix.size()]);
  if (code == std::string_view::npos) return false;
  observed = static_cast<Observed>(code);
  diagnostic = std::string(line.substr(prefix.size() + 2));
  return true;
}

oracle::Result<std::pair<std::string, std::string>> IdentifyAssembler(const ScanOptions& o) {
  return Identify(o, PtxasOf(o));
}

oracle::Result<ScanReport> RunScan(const ScanOptions& o, ScanError* why) {
  if (why != nullptr) *why = ScanError::kBadInput;
  const auto targets = Targets(o);
  for (const auto& t : targets) {
    if (oracle::ptx::FindTarget(t) == nullptr)
      return R::Fail("--targets: unknown target '" + t + "'");
  }
  const std::string ptxas = PtxasOf(o);
  if (!o.ptxas.empty() && access(o.ptxas.c_str(), X_OK) != 0) {
    return R::Fail("--ptxas: " + o.ptxas + " is not an executable file");
  }
  if (o.assembler != "nvjitlink" && o.assembler != "ptxas") {
    return R::Fail("--assembler: want nvjitlink or ptxas, not '" + o.assembler + "'");
  }
  // Bad input first, whatever the toolkit.
  std::vector<Expectation> expectations;
  if (!o.expectations_file.empty()) {
    auto e = LoadExpectations(o.expectations_file);
    if (!e.ok()) return R::Fail(e.error());
    expectations = std::move(e).value();
  }
  const auto selected = SelectForms(o, targets);
  if (!selected.ok()) return R::Fail(selected.error());
  const auto& forms = selected.value();
  if (forms.empty()) return R::Fail("--forms: no form key matches '" + o.forms + "'");
  const auto id = Identify(o, ptxas);
  if (!id.ok()) {
    if (why != nullptr) *why = ScanError::kAssemblerMissing;
    return R::Fail(id.error());
  }
  ScanReport report;
  std::tie(report.assembler, report.toolkit) = id.value();

  const size_t total = targets.size() * forms.size();
  report.rows.resize(total);
  for (size_t i = 0; i < total; ++i) {
    const Item item = ItemAt(forms, targets, i);
    const auto& e = forms[i % forms.size()];
    const oracle::Verdict v = oracle::ptx::ValidateForm(item.form, item.target);
    ScanRow& row = report.rows[i];
    row.form = item.form.Key();
    row.family = std::string(oracle::ptx::FamilyName(item.form.family));
    row.ptx = harness::FormInstruction(item.form);
    row.target = item.target;
    row.expected_accept = v.legal();
    row.rules = oracle::JoinRuleIds(v.RuleIds());
    row.mutation = e.mutation;
  }

  std::vector<char> done(total, 0);  // char, not bool: threads write neighbours
  if (o.worker_argv.empty()) {
    for (size_t i = 0; i < total; ++i) {
      const Item item = ItemAt(forms, targets, i);
      auto [obs, diag] =
          Assemble(o, ptxas, harness::FormModule(item.form, item.target), item.target);
      report.rows[i].observed = obs;
      report.rows[i].diagnostic = OneLine(diag);
    }
  } else {
    // Chunks small enough that every job stays busy and a dead worker loses little.
    const size_t chunk = 128;
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    const int jobs = o.jobs < 1 ? 1 : o.jobs;
    for (int j = 0; j < jobs; ++j) {
      pool.emplace_back([&] {
        for (size_t at; (at = next.fetch_add(chunk)) < total;) {
          RunChunk(o, ptxas, targets, at, std::min(chunk, total - at), report.rows, done);
        }
      });
    }
    for (auto& t : pool) t.join();
  }

  std::vector<bool> used(expectations.size(), false);
  for (ScanRow& row : report.rows) {
    const bool accepted = row.observed == Observed::kAccept;
    if (accepted != row.expected_accept && (accepted || row.observed == Observed::kReject)) {
      row.expectation =
          MatchExpectation(expectations, report.toolkit, accepted, row.target, row.form);
      if (row.expectation >= 0) used[static_cast<size_t>(row.expectation)] = true;
    }
    if (row.unexpected()) ++report.unexpected;
  }
  // Stale: a line of this toolkit that matched no deviation although the scan had a row where
  // its deviation could have shown (its target and form, the model saying the other verdict).
  for (size_t i = 0; i < expectations.size(); ++i) {
    const Expectation& e = expectations[i];
    if (used[i] || !e.toolkit_glob.Matches(report.toolkit)) continue;
    for (const ScanRow& row : report.rows) {
      if (row.expected_accept != e.accept && e.target.Matches(row.target) &&
          e.key.Matches(row.form)) {
        report.stale.push_back(e);
        break;
      }
    }
  }
  return R::Ok(std::move(report));
}

}  // namespace tcfuzz::suites
