// `tcfuzz oracle dot | rows | readings | captures` (ask the arithmetic oracle and what backs it)
// and `tcfuzz discover` (the kit that decides its open readings on any GPU).
#include <iostream>
#include <optional>
#include <string>

#include "oracle/core/backing.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/targets.h"
#include "suites/captures/capture_sets.h"
#include "suites/cli/backing_output.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/discover_commands.h"
#include "suites/cli/numerics_commands.h"

namespace tcfuzz::cli {
namespace {

namespace num = oracle::num;

struct NumArgs {
  std::string arch, instr, ab, cd = "f32", dir;
  bool json = false;
  bool allow_unconfirmed = false;
  std::string input = "json";
};

// Every option is checked before the note on an unconfirmed row: a note never precedes an error.
int OracleDot(const NumArgs& a) {
  if (a.input != "json" && a.input != "hex")
    Die("--input: want json or hex, not '" + a.input + "'");
  const auto target = num::FindTarget(a.arch);
  if (!target.ok()) Die("--arch: " + target.error());
  if (!target.value().row) Die("--arch: " + num::Describe(target.value()));
  const num::Gpu gpu = *target.value().row;
  const std::string target_name(target.value().target);
  const auto instr = ParseEnumArg("--instr", a.instr, num::ParseInstr, "mma wgmma tcgen05");
  const auto ab =
      ParseEnumArg("--ab", a.ab, num::ParseFormat, "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1");
  const auto cd = ParseEnumArg("--cd", a.cd, num::ParseFormat, "f32 f16");
  if (!num::IsFloat(ab) || ab == num::Format::kF32)
    Die("--ab: '" + a.ab + "' is not an A/B float type");
  const auto params = num::ParamsFor(gpu, instr, ab, cd);
  if (!params)
    Die("no model for " + target_name + " " + a.instr + " " + a.ab + " -> " + a.cd +
        " (the instruction does not take it, or nothing is known)");
  // A row no hardware has shown on this target is declined unless asked for: a hypothesis.
  std::string note;
  if (const auto backing = oracle::BackingOf(params->row, target_name);
      backing != oracle::Backing::kHardware) {
    const std::string what = target_name + " " + a.instr + " " + a.ab + " -> " + a.cd + " (row " +
                             std::string(params->row) + ") is " +
                             std::string(oracle::Name(backing)) +
                             ", not confirmed on hardware: " + num::Describe(target.value());
    if (!a.allow_unconfirmed)
      Die(what + "; --allow-unconfirmed answers anyway (tcfuzz oracle readings says why)");
    note = "tcfuzz: note: " + oracle::OneLine(what, 1000) + "\n";
  }
  std::ios::sync_with_stdio(false);  // a million lines: iostreams without stdio's locking
  const int rc =
      suites::OracleDotStream(std::cin, std::cout, std::cerr, ab, cd, *params, a.input == "hex");
  // After the answers, and only once they are written: an error (a full disk under stdout
  // included) stays the one line on stderr.
  if (rc == 0 && std::cout.flush()) std::cerr << note;
  return rc;
}

class Oracle final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    CLI::App* oracle_cmd = app.add_subcommand("oracle", "Ask the arithmetic oracle");
    oracle_cmd->require_subcommand(1);
    dot_ = oracle_cmd->add_subcommand(
        "dot", "bit-exact dot products: JSON lines in, {\"d\":\"hex\"} lines out");
    dot_->add_option("--arch", na_.arch,
                     "a target (sm_70 ... sm_121) or device (H100, A10, RTX 4090, B200 ...)")
        ->required();
    dot_->add_option("--instr", na_.instr, "mma wgmma tcgen05")->required();
    dot_->add_option("--ab", na_.ab,
                     "A/B type: f16 bf16 tf32 e4m3 e5m2 (e3m2 e2m3 e2m1 for tcgen05)")
        ->required();
    dot_->add_option("--cd", na_.cd, "accumulator: f32 (default) or f16");
    dot_->add_flag(
        "--allow-unconfirmed", na_.allow_unconfirmed,
        "answer with a row no hardware has confirmed (a hypothesis; see `oracle readings`)");
    dot_->add_option("--input", na_.input,
                     "json (default): JSON lines; hex: lines of A's K, B's K and C as hex words, "
                     "answered by D's hex word");
    rows_ =
        oracle_cmd->add_subcommand("rows", "every numerics row: parameters and how it is backed");
    rows_->add_flag("--json", na_.json, "as a JSON array");
    rows_->add_option("--arch", na_.arch,
                      "only the rows tcfuzz uses for this target or device, backed as there");
    readings_ = oracle_cmd->add_subcommand(
        "readings",
        "every spec choice, layout hypothesis and numerics row tcfuzz follows, and what backs it");
    readings_->add_flag("--json", na_.json, "as a JSON array");
    suites::AddIngestOption(*readings_, discover_);
    suites::AddDiscoverCommand(app, discover_);
    captures_ = oracle_cmd->add_subcommand("captures", "agreement with hardware-captured results");
    captures_->add_option("--dir", na_.dir,
                          "captures folder (default: ../shared/captures or $TCFUZZ_CAPTURES_DIR)");
  }

  int Run(const Call& call) override {
    if (*discover_.discover || !discover_.ingest.empty())
      return call.ParseOnly() ? 0 : suites::RunDiscoverCommand(discover_);
    if (*dot_) return call.ParseOnly() ? 0 : OracleDot(na_);
    if (*rows_) return Rows();
    if (*readings_) {
      std::cout << (na_.json ? suites::OracleReadingsJson() : suites::OracleReadingsText());
      return 0;
    }
    if (*captures_) {
      if (call.ParseOnly()) return 0;
      return suites::OracleCaptures(na_.dir.empty() ? suites::DefaultCapturesDir() : na_.dir,
                                    std::cout);
    }
    return -1;
  }

 private:
  int Rows() const {
    std::optional<num::TargetInfo> target;
    if (!na_.arch.empty()) {
      auto t = num::FindTarget(na_.arch);
      if (!t.ok()) Die("--arch: " + t.error());
      target = t.value();
    }
    const num::TargetInfo* tp = target ? &*target : nullptr;
    std::cout << (na_.json ? suites::OracleRowsJson(tp) : suites::OracleRowsText(tp));
    return 0;
  }

  CLI::App *dot_ = nullptr, *rows_ = nullptr, *readings_ = nullptr, *captures_ = nullptr;
  NumArgs na_;
  suites::DiscoverCli discover_;
};

}  // namespace

std::unique_ptr<CommandGroup> OracleCommands() { return std::make_unique<Oracle>(); }

}  // namespace tcfuzz::cli
