#include "suites/tiling/tiling_suite.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <vector>

#include "oracle/ascend/problem_contract.h"
#include "oracle/core/text_format.h"
#include "suites/engine/subprocess.h"
#include "suites/tiling/tiler.h"
#include "suites/tiling/tiling_fuzz.h"
#include "suites/tiling/tiling_judge.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::ascend;

constexpr std::chrono::milliseconds kTilerTimeout{10000};  // `tiling fuzz`'s default

std::string_view AnswerTag(TilerAnswer::Kind k) {
  switch (k) {
    case TilerAnswer::Kind::kTiling:
      return "answered";
    case TilerAnswer::Kind::kRefused:
      return "refused";
    case TilerAnswer::Kind::kCrash:
      return "tiler_crash";
    case TilerAnswer::Kind::kHang:
      return "tiler_hang";
    case TilerAnswer::Kind::kGarbage:
      return "tiler_garbage";
  }
  return "?";
}

// A JSON text on one comment line (ours end with a newline).
std::string OneLineJson(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return oracle::OneLine(s, 8000);
}

class TilingSuite final : public HostSuite {
 public:
  std::string_view name() const override { return kTilingFuzzName; }
  std::string_view description() const override {
    return "Ascend TCubeTiling problems through a tiler (the example tiler), each answer judged";
  }
  std::string_view text_kind() const override { return "tiling_fuzz_case"; }
  uint64_t default_cases() const override { return 2000; }  // about 2 s through the example
  bool shell_reproducers() const override { return true; }

  std::vector<std::string> families() const override {
    std::vector<std::string> out;
    for (const ChipProfile& c : ChipProfiles()) {
      for (const char* cls : {".inside_contract", ".outside_contract"})
        out.push_back("tiling." + c.name + cls);
    }
    return out;
  }

  std::string Prepare(const RunSettings& run) override {
    seed_ = run.seed;
    tiler_command_ = run.tiler;
    std::lock_guard<std::mutex> lock(mu_);
    free_.clear();  // tilers of another command
    std::error_code ec;
    cwd_ = std::filesystem::current_path(ec).string();
    return {};
  }

  CaseResult RunCase(uint64_t index, uint64_t case_seed) override {
    const TilingCase c = DrawTilingCase(case_seed, nullptr);
    const bool inside = ValidateProblem(c.problem, *c.chip).legal();
    CaseResult r;
    r.family = "tiling." + c.chip->name + (inside ? ".inside_contract" : ".outside_contract");
    const TilerAnswer a = Ask(c.problem, *c.chip);
    r.tags.push_back(AnswerTag(a.kind));
    for (const Finding& f : Judge(c.problem, *c.chip, a)) {
      if (f.warning) {
        if (r.tags.size() == 1) r.tags.push_back("outside_contract_answered");
        continue;
      }
      r.failures.push_back({f.rule, oracle::OneLine(f.message, 2000)});
    }
    if (r.failures.empty()) return r;
    const std::string tiler = tiler_command_.empty() ? std::string()
                                                     : " --tiler " + ShellQuote(tiler_command_) +
                                                           " --tiler-protocol lines";
    r.reproducer =
        "#!/bin/sh\n# tcfuzz run, suite tiling-fuzz: case " + std::to_string(index) + " on " +
        c.chip->name + "\n# tiler: " +
        (tiler_command_.empty() ? std::string("the reference tiler")
                                : oracle::OneLine(tiler_command_, 2000)) +
        "\n# problem: " + OneLineJson(ProblemToJson(c.problem)) + "\n# answer: " +
        (a.kind == TilerAnswer::Kind::kTiling
             ? OneLineJson(ToJson(a.tiling))
             : std::string(AnswerTag(a.kind)) + " " + oracle::OneLine(a.detail, 400)) +
        "\n# the same case through `tiling fuzz`, minimized (exit 1: still failing), in the"
        "\n# folder the run ran in (the tiler's command may name files relative to it):\n"
        "cd " +
        ShellQuote(cwd_) + " || exit 2\n" + ToolCommand() + " tiling fuzz" + tiler + " --seed " +
        std::to_string(seed_) + " --first " + std::to_string(index) +
        " --cases 1 --report \"$(mktemp -d)\"\n";
    return r;
  }

 private:
  // One tiler per caller at a time: a lines-protocol tiler is one process answering in turn.
  TilerAnswer Ask(const Problem& p, const ChipProfile& chip) {
    Tiler tiler;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        tiler = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!tiler) {
      tiler = tiler_command_.empty()
                  ? ReferenceTilerUnderTest()
                  : ExternalTiler(tiler_command_, kTilerTimeout, 0, TilerProtocol::kLines);
    }
    TilerAnswer a = tiler(p, chip, chip.name);
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(tiler));
    return a;
  }

  std::string tiler_command_, cwd_;
  uint64_t seed_ = 0;
  std::mutex mu_;
  std::vector<Tiler> free_;
};

}  // namespace

std::unique_ptr<HostSuite> MakeTilingSuite() { return std::make_unique<TilingSuite>(); }

std::string FindExampleTiler() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const auto& candidate :
       {exe.parent_path() / "suites" / "example_tiler",
        exe.parent_path().parent_path() / "libexec" / "tcfuzz" / "example_tiler"}) {
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate, ec))
      return ShellQuote(candidate.string());  // a command: a path with a space stays one word
  }
  return {};
}

}  // namespace tcfuzz::suites
