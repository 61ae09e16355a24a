#include "suites/toolchain/toolchain_suite.h"

#include <chrono>
#include <mutex>
#include <numeric>
#include <string_view>

#include "generators/core/random_source.h"
#include "oracle/core/text_format.h"
#include "suites/engine/subprocess.h"
#include "suites/toolchain/expectations.h"
#include "suites/toolchain/toolchain_scan.h"

namespace tcfuzz::suites {
namespace {

constexpr std::chrono::milliseconds kItemTimeout{30000};  // the scan's default

// A form key as a --forms pattern matching only itself.
std::string LiteralPattern(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (std::string_view("*?[]\\@()|!+").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

class ToolchainSuite final : public HostSuite {
 public:
  ToolchainSuite(std::vector<std::string> worker, oracle::Result<std::string> expectations_file)
      : worker_(std::move(worker)), expectations_file_(std::move(expectations_file)) {}

  std::string_view name() const override { return "toolchain"; }
  std::string_view description() const override {
    return "the toolchain scan's items (forms x targets) through nvJitLink, against the model";
  }
  std::string_view text_kind() const override { return "toolchain_item"; }
  // About 10 s on the 2-core CI machine kind; the whole scan is WholeScanItems() cases.
  uint64_t default_cases() const override { return 2000; }
  uint64_t case_space() const override { return WholeScanItems(); }
  bool shell_reproducers() const override { return true; }

  std::vector<std::string> families() const override {
    std::vector<std::string> out;
    for (const std::string& f : WholeScanFamilies()) out.push_back("toolchain." + f);
    return out;
  }

  std::string Prepare(const RunSettings& run) override {
    const uint64_t seed = run.seed;
    if (worker_.empty()) return "no worker binary";
    const auto id = IdentifyAssembler(ScanOptions{});
    if (!id.ok()) return "no CUDA toolkit to scan: " + id.error();
    toolkit_ = id.value().second;
    expectations_.clear();
    if (!expectations_file_.ok()) return "toolchain expectations: " + expectations_file_.error();
    if (!expectations_file_.value().empty()) {
      auto loaded = LoadExpectations(expectations_file_.value());
      if (!loaded.ok()) return "toolchain expectations: " + loaded.error();
      expectations_ = std::move(loaded).value();
    }
    // Case i is item (a i + b) mod n, a coprime to n: distinct items for distinct cases.
    gen::RandomSource src(seed ^ 0x746f6f6c636861ULL);
    const uint64_t n = WholeScanItems();
    step_ = n > 1 ? 1 + src.Below(n - 1) : 1;
    while (std::gcd(step_, n) != 1) step_ = step_ % (n - 1) + 1;
    offset_ = n > 0 ? src.Below(n) : 0;
    return {};
  }

  CaseResult RunCase(uint64_t index, uint64_t /*case_seed*/) override {
    const uint64_t n = WholeScanItems();
    // step_ and offset_ are below n (tens of thousands): no product overflows.
    const auto item_index = static_cast<std::size_t>((step_ * (index % n) + offset_) % n);
    const ScanItem item = WholeScanItem(item_index);
    CaseResult r;
    r.family = "toolchain." + item.family;
    r.tags.push_back(item.target);
    Observed observed = Observed::kCrash;
    std::string diagnostic, worker_error;
    Ask(item_index, observed, diagnostic, worker_error);
    if (!worker_error.empty()) {
      r.failures.push_back({"worker_error", oracle::OneLine(worker_error, 2000)});
      return r;
    }
    const bool accepted = observed == Observed::kAccept;
    std::string check;
    if (observed == Observed::kCrash) {
      check = "assembler_crash";
    } else if (observed == Observed::kTimeout) {
      check = "assembler_timeout";
    } else if (accepted != item.legal) {
      if (MatchExpectation(expectations_, toolkit_, accepted, item.target, item.key) >= 0) {
        r.tags.push_back("known_deviation");
        return r;
      }
      check = accepted ? "accepts_illegal" : "rejects_legal";
    } else {
      return r;
    }
    const std::string what = item.key + " on " + std::string(item.target) + ": the model says " +
                             (item.legal ? "legal" : "illegal (" + item.rules + ")") +
                             ", the assembler " + std::string(Name(observed)) +
                             (diagnostic.empty() ? "" : ": " + diagnostic);
    r.failures.push_back({check, oracle::OneLine(what, 2000)});
    r.reproducer = "#!/bin/sh\n# tcfuzz run, suite toolchain: item " + std::to_string(item_index) +
                   " of the whole scan, toolkit " + toolkit_ +
                   "\n# instruction: " + oracle::OneLine(item.ptx, 2000) + "\n# " + check + ": " +
                   oracle::OneLine(what, 2000) +
                   "\n# the same item through `toolchain scan` (exit 1: still unexpected):\n" +
                   ToolCommand() + " toolchain scan --targets " + ShellQuote(item.target) +
                   " --forms " + ShellQuote(LiteralPattern(item.key)) +
                   (expectations_file_.value().empty()
                        ? std::string(" --no-expectations")
                        : " --expectations " + ShellQuote(expectations_file_.value())) +
                   "\n";
    return r;
  }

 private:
  // The item through a worker kept running: one from the free list, or a new one; a worker
  // that failed is dropped (the next case starts another).
  void Ask(std::size_t item, Observed& observed, std::string& diagnostic,
           std::string& worker_error) {
    std::unique_ptr<LineSession> session;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        session = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!session) {
      std::string command = "exec";
      for (const std::string& w : worker_) command += " " + ShellQuote(w);
      command += " toolchain worker --lines";
      CommandOptions co;
      co.max_output = std::size_t{1} << 20;
      session = std::make_unique<LineSession>(command, co);
    }
    const auto answer = session->Ask(std::to_string(item), kItemTimeout);
    if (!answer.ok()) {
      observed = session->failure() == LineSession::Failure::kTimeout ? Observed::kTimeout
                                                                      : Observed::kCrash;
      diagnostic = "worker: " + answer.error();
      return;
    }
    if (!ParseVerdictLine(answer.value(), item, observed, diagnostic)) {
      // tcfuzz's own fault (a worker of another build, an item it does not know), not the
      // assembler's: no verdict.
      worker_error = "worker answered " + oracle::Quoted(answer.value());
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(session));
  }

  std::vector<std::string> worker_;
  oracle::Result<std::string> expectations_file_;
  std::vector<Expectation> expectations_;
  std::string toolkit_;
  uint64_t step_ = 1, offset_ = 0;
  std::mutex mu_;
  std::vector<std::unique_ptr<LineSession>> free_;
};

}  // namespace

std::unique_ptr<HostSuite> MakeToolchainSuite(std::vector<std::string> worker,
                                              oracle::Result<std::string> expectations_file) {
  return std::make_unique<ToolchainSuite>(std::move(worker), std::move(expectations_file));
}

}  // namespace tcfuzz::suites
