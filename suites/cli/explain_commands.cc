// `tcfuzz explain zcm | smem | sparse | batch`: decode an operand, say what it means.
#include <iostream>
#include <optional>
#include <string>

#include "oracle/sparse/sparse_form.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/explain_batch.h"
#include "suites/cli/explain_smem.h"
#include "suites/cli/explain_zcm.h"
#include "suites/cli/numerics_commands.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz::cli {
namespace {

namespace smem = oracle::smem;
namespace num = oracle::num;

struct ZcmArgs {
  std::string desc, idesc;
  int m = 0, n = 0;
  bool sparse = false, json = false;
};

struct SmemArgs {
  std::string arch, operand, major, dtype, desc, pattern_anchor, pattern_start, svg;
  int rows = 0, kbytes = 0;
  bool json = false;
};

struct SparseArgs {
  std::string shape, type;
  int selector = 0;
  bool json = false;
};

int ExplainZcm(const ZcmArgs& a) {
  oracle::tcgen05::ZcmCase c;
  c.desc = ParseNumberArg("DESC", a.desc, ~uint64_t{0});
  c.shape.m = a.m;
  c.shape.n = a.n;
  c.shape.sparse = a.sparse;
  if (!a.idesc.empty()) {
    c.shape.idesc = static_cast<uint32_t>(ParseNumberArg("--idesc", a.idesc, 0xffffffffu));
  }
  std::cout << (a.json ? suites::ExplainZcmJson(c) : suites::ExplainZcmText(c));
  return 0;
}

int ExplainSmem(const SmemArgs& a) {
  smem::SmemCase c;
  c.arch = ParseEnumArg("--arch", a.arch, smem::ParseArch, "sm_90a, sm_100a, sm_103a");
  c.operand = ParseEnumArg("--operand", a.operand, smem::ParseOperand, "a, b");
  c.view.major = ParseEnumArg("--major", a.major, smem::ParseMajor, "k, mn");
  c.view.dtype = ParseEnumArg("--dtype", a.dtype, smem::ParseDType,
                              "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 s8 u8");
  c.view.rows = a.rows;
  c.view.kbytes = a.kbytes;
  if (auto ok = smem::CheckView(c.view); !ok.ok()) Die(ok.error());
  c.desc = ParseNumberArg("DESC", a.desc, ~uint64_t{0});
  // The old name read as "where my tile starts", which is not what the base offset is about.
  if (!a.pattern_start.empty()) {
    Die("--pattern-start was renamed --pattern-anchor: the address the swizzle pattern is laid "
        "from "
        "(a tile that starts inside a pattern has its anchor below its start; see --help)");
  }
  if (!a.pattern_anchor.empty()) {
    c.pattern_start =
        ParseNumberArg("--pattern-anchor", a.pattern_anchor, smem::kSmemWindowBytes - 1);
  }
  const smem::Explanation e = smem::Explain(c);  // the one decode
  std::optional<std::string> svg;  // drawn first: a picture that cannot be drawn prints nothing
  if (!a.svg.empty()) {
    auto drawn = suites::SmemSvg(c, e);
    if (!drawn.ok()) Die("--svg: " + drawn.error());
    svg = std::move(drawn.value());
  }
  // A file is written before the table, so a path that cannot be written prints nothing; the
  // command's own stdout (--svg -) gets the table first, then the picture.
  const bool after = svg && suites::NamesOwnStream(a.svg);
  auto write_svg = [&] {
    auto written = suites::WriteFileAtomic(a.svg, *svg);
    if (!written.ok()) Die(written.error());
  };
  if (svg && !after) write_svg();
  std::cout << (a.json ? suites::ExplainSmemJson(c, e) : suites::ExplainSmemText(c, e));
  if (after) write_svg();
  return 0;
}

int ExplainSparse(const SparseArgs& a) {
  const auto type = ParseEnumArg("--type", a.type, num::ParseFormat,
                                 "f16 bf16 tf32 s8 u8 e4m3 e5m2 e3m2 e2m3 e2m1 s4 u4");
  const auto* form = oracle::sparse::FindForm(a.shape, type);
  if (form == nullptr) Die("--shape/--type: mma.sp has no " + a.shape + " form for " + a.type);
  if (a.selector > form->max_selector())
    Die("--selector: " + std::to_string(a.selector) + " is past this form's " +
        std::to_string(form->max_selector()) + " (PTX: the selector's legal values by type)");
  std::cout << (a.json ? suites::ExplainSparseJson(*form, a.selector)
                       : suites::ExplainSparseText(*form, a.selector));
  return 0;
}

class Explain final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    CLI::App* explain =
        app.add_subcommand("explain", "Decode an operand: fields, verdict, meaning");
    explain->require_subcommand(1);
    zcm_ = explain->add_subcommand("zcm", "tcgen05 zero-column mask descriptor (64-bit)");
    batch_ = explain->add_subcommand(
        "batch",
        "one JSON object per stdin line ({\"kind\":\"smem\"|\"zcm\", and the options by "
        "name}), one JSON answer per line");
    zcm_->add_option("DESC", za_.desc, "the descriptor, hex (0x...) or decimal")->required();
    AddNumber(zcm_, "--m", za_.m, 1, 1024, "M of the tcgen05.mma.ws instruction (32, 64, 128)")
        ->required();
    AddNumber(zcm_, "--n", za_.n, 1, oracle::tcgen05::kMaxN,
              "N of the instruction (1..256; legal: 64, 128, 256)")
        ->required();
    zcm_->add_flag("--sparse", za_.sparse, "the instruction is tcgen05.mma.ws.sp");
    zcm_->add_option("--idesc", za_.idesc,
                     "the 32-bit instruction descriptor (checks max shift, M, N)");
    zcm_->add_flag("--json", za_.json, "print the JSON object instead of the table");

    smem_ =
        explain->add_subcommand("smem", "wgmma / tcgen05 shared-memory matrix descriptor (64-bit)");
    smem_->add_option("DESC", sa_.desc, "the descriptor, hex (0x...) or decimal")->required();
    smem_->add_option("--arch", sa_.arch, "sm_90a (wgmma), sm_100a or sm_103a (tcgen05)")
        ->required();
    smem_->add_option("--operand", sa_.operand, "a or b")->required();
    smem_->add_option("--major", sa_.major, "k or mn")->required();
    smem_->add_option("--dtype", sa_.dtype, "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 s8 u8")
        ->required();
    AddNumber(smem_, "--rows", sa_.rows, 1, 256, "M (operand a) or N (operand b)")->required();
    AddNumber(smem_, "--kbytes", sa_.kbytes, 16, 256,
              "K extent in bytes (32 dense, 64 sparse, 48 for K = 96 fp4)")
        ->required();
    smem_->add_option(
        "--pattern-anchor", sa_.pattern_anchor,
        "the address the swizzle pattern is laid from, to check the base offset against: "
        "the repeat boundary (1024/512/256 B) for data swizzled from there (base offset 0, "
        "even when the tile starts inside the pattern, e.g. start 0x8080 -> anchor 0x8000), "
        "or the row the pattern was laid from (anchor 0x8080 -> base offset 1)");
    smem_->add_option("--pattern-start", sa_.pattern_start, "renamed --pattern-anchor")->group("");
    smem_->add_flag("--json", sa_.json,
                    "print the JSON object (with every address) instead of the table");
    smem_->add_option("--svg", sa_.svg, "also draw shared memory as an SVG picture into FILE");

    sparse_ =
        explain->add_subcommand("sparse", "mma.sp fragment and metadata maps of a shape and type");
    sparse_->add_option("--shape", na_.shape, "m16n8k8 .. m16n8k128")->required();
    sparse_->add_option("--type", na_.type, "f16 bf16 tf32 s8 u8 e4m3 e5m2 e3m2 e2m3 e2m1 s4 u4")
        ->required();
    AddNumber(sparse_, "--selector", na_.selector, 0, 3, "sparsity selector (default 0)");
    sparse_->add_flag("--json", na_.json, "print the maps as JSON");
  }

  int Run(const Call& call) override {
    if (*zcm_) return ExplainZcm(za_);
    // --svg FILE writes a file: under parse-only the options are checked, nothing is drawn.
    if (*smem_) return call.ParseOnly() && !sa_.svg.empty() ? 0 : ExplainSmem(sa_);
    if (*sparse_) return ExplainSparse(na_);
    if (*batch_) return call.ParseOnly() ? 0 : suites::ExplainBatch(std::cin, std::cout, std::cerr);
    return -1;
  }

 private:
  CLI::App *zcm_ = nullptr, *smem_ = nullptr, *sparse_ = nullptr, *batch_ = nullptr;
  ZcmArgs za_;
  SmemArgs sa_;
  SparseArgs na_;
};

}  // namespace

std::unique_ptr<CommandGroup> ExplainCommands() { return std::make_unique<Explain>(); }

}  // namespace tcfuzz::cli
