// tcfuzz: the command-line tool. Every bad argument is one line on stderr and exit code 2.
//
//   tcfuzz explain zcm --m M --n N [--sparse] [--idesc HEX] DESC [--json]
//   tcfuzz explain smem --arch A --operand a|b --major k|mn --dtype T --rows R --kbytes KB DESC
//                       [--pattern-anchor ADDR] [--json] [--svg FILE]
//   tcfuzz encode smem --arch A --dtype T --layout CUTE [--start ADDR]
//   tcfuzz explain sparse --shape SHAPE --type TYPE [--selector F] [--json]
//   tcfuzz oracle dot --arch A --instr mma|wgmma|tcgen05 --ab TYPE --cd f32|f16
//   [--allow-unconfirmed] [--input json|hex]
//                                                                               (JSON lines on
//                                                                               stdin)
//   tcfuzz oracle rows [--json]          every numerics row, its parameters and backing
//   tcfuzz oracle readings [--json]      every spec choice, hypothesis and row, and what backs it
//   tcfuzz oracle readings --ingest FILE a discovery result file judged against them
//   tcfuzz discover --emit-cu DIR        standalone CUDA programs that decide them on any GPU
//   tcfuzz oracle captures [--dir DIR]
//   tcfuzz tiling chips [--json]
//   tcfuzz tiling check --chip NAME|FILE --problem FILE TILING(.bin|.json) [--json]
//   tcfuzz tiling simulate --chip NAME|FILE --problem FILE TILING [--numeric]
//   tcfuzz tiling make --chip NAME|FILE --problem FILE
//   tcfuzz tiling fuzz [--tiler CMD] [--chip NAME|FILE] [--seed S] [--cases N | --time S]
//                      [--report DIR]
//   tcfuzz run [--suite NAME]... [--seed S] [--cases N | --time SECONDS] [--shard I/N]
//              [--report DIR] [--no-progress] [--progress-every S] | --resume DIR
//   tcfuzz merge DIR... --report OUT
//   tcfuzz replay FILE...
//   tcfuzz rules [--json]
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <tuple>
#include <utility>

#include "oracle/core/backing.h"
#include "oracle/core/rule.h"
#include "oracle/core/spec_anchors.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/targets.h"
#include "suites/captures/capture_sets.h"
#include "suites/cli/backing_output.h"
#include "suites/cli/cli_common.h"
#include "suites/cli/discover_commands.h"
#include "suites/cli/explain_batch.h"
#include "suites/cli/explain_smem.h"
#include "suites/cli/explain_zcm.h"
#include "suites/cli/minimize_command.h"
#include "suites/cli/numerics_commands.h"
#include "suites/cli/repro_cu.h"
#include "suites/cli/run_cli.h"
#include "suites/cli/run_shards.h"
#include "suites/cli/tiling_commands.h"
#include "suites/cli/toolchain_commands.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/campaign.h"
#include "suites/engine/case_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/merge.h"
#include "suites/kinds/case_kind.h"
#include "suites/tiling/tiling_fuzz.h"

namespace {

using tcfuzz::cli::AddNumber;
using tcfuzz::cli::AddSeconds;
using tcfuzz::cli::ChooseShard;
using tcfuzz::cli::Die;
using tcfuzz::cli::Getenv;
using tcfuzz::cli::ParseEnumArg;
using tcfuzz::cli::ParseNumberArg;
using tcfuzz::cli::SeedFromRunId;
namespace smem = tcfuzz::oracle::smem;

namespace num = tcfuzz::oracle::num;

struct NumArgs {
  std::string shape, type, arch, instr, ab, cd = "f32", dir;
  int selector = 0;
  bool json = false;
  bool allow_unconfirmed = false;
  std::string input = "json";
};

int ExplainSparse(const NumArgs& a) {
  const auto type = ParseEnumArg("--type", a.type, num::ParseFormat,
                                 "f16 bf16 tf32 s8 u8 e4m3 e5m2 e3m2 e2m3 e2m1 s4 u4");
  const auto* form = tcfuzz::oracle::sparse::FindForm(a.shape, type);
  if (form == nullptr) Die("--shape/--type: mma.sp has no " + a.shape + " form for " + a.type);
  if (a.selector < 0 || a.selector > 3)
    Die("--selector: must be 0..3, got " + std::to_string(a.selector));
  std::cout << (a.json ? tcfuzz::suites::ExplainSparseJson(*form, a.selector)
                       : tcfuzz::suites::ExplainSparseText(*form, a.selector));
  return 0;
}

int OracleDot(const NumArgs& a) {
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
  if (const auto backing = tcfuzz::oracle::BackingOf(params->row, target_name);
      backing != tcfuzz::oracle::Backing::kHardware) {
    const std::string what = target_name + " " + a.instr + " " + a.ab + " -> " + a.cd + " (row " +
                             std::string(params->row) + ") is " +
                             std::string(tcfuzz::oracle::Name(backing)) +
                             ", not confirmed on hardware: " + num::Describe(target.value());
    if (!a.allow_unconfirmed)
      Die(what + "; --allow-unconfirmed answers anyway (tcfuzz oracle readings says why)");
    std::cerr << "tcfuzz: note: " << what << "\n";
  }
  if (a.input != "json" && a.input != "hex")
    Die("--input: want json or hex, not '" + a.input + "'");
  std::ios::sync_with_stdio(false);  // a million lines: iostreams without stdio's locking
  return tcfuzz::suites::OracleDotStream(std::cin, std::cout, std::cerr, ab, cd, *params,
                                         a.input == "hex");
}

struct SmemArgs {
  std::string arch, operand, major, dtype, desc, pattern_anchor, pattern_start, svg, layout,
      start = "0";
  int rows = 0, kbytes = 0;
  bool json = false;
};

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
  std::optional<std::string> svg;  // drawn first: a picture that cannot be drawn prints nothing
  if (!a.svg.empty()) {
    auto drawn = tcfuzz::suites::SmemSvg(c);
    if (!drawn.ok()) Die("--svg: " + drawn.error());
    svg = std::move(drawn.value());
  }
  // A file is written before the table, so a path that cannot be written prints nothing; the
  // command's own stdout (--svg -) gets the table first, then the picture.
  const bool after = svg && tcfuzz::suites::NamesOwnStream(a.svg);
  auto write_svg = [&] {
    auto written = tcfuzz::suites::WriteFileAtomic(a.svg, *svg);
    if (!written.ok()) Die(written.error());
  };
  if (svg && !after) write_svg();
  std::cout << (a.json ? tcfuzz::suites::ExplainSmemJson(c) : tcfuzz::suites::ExplainSmemText(c));
  if (after) write_svg();
  return 0;
}

int EncodeSmem(const SmemArgs& a) {
  const auto arch = ParseEnumArg("--arch", a.arch, smem::ParseArch, "sm_90a, sm_100a, sm_103a");
  const auto dtype = ParseEnumArg("--dtype", a.dtype, smem::ParseDType,
                                  "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 s8 u8");
  auto layout = smem::ParseCanonical(a.layout, dtype);
  if (!layout.ok()) Die("--layout: " + layout.error());
  const uint64_t start = ParseNumberArg("--start", a.start, smem::kSmemWindowBytes - 1);
  std::cout << tcfuzz::suites::EncodeSmemText(arch, layout.value(), start);
  return 0;
}

int Explain(const std::string& desc_text, int m, int n, bool sparse, const std::string& idesc_text,
            bool json) {
  tcfuzz::oracle::tcgen05::ZcmCase c;
  c.desc = ParseNumberArg("DESC", desc_text, ~uint64_t{0});
  if (m < 1) Die("--m: must be a positive integer, got " + std::to_string(m));
  if (n < 1 || n > tcfuzz::oracle::tcgen05::kMaxN) {
    Die("--n: must be between 1 and 256, got " + std::to_string(n));
  }
  c.shape.m = m;
  c.shape.n = n;
  c.shape.sparse = sparse;
  if (!idesc_text.empty()) {
    c.shape.idesc = static_cast<uint32_t>(ParseNumberArg("--idesc", idesc_text, 0xffffffffu));
  }
  std::cout << (json ? tcfuzz::suites::ExplainZcmJson(c) : tcfuzz::suites::ExplainZcmText(c));
  return 0;
}

int Replay(const std::vector<std::string>& files) {
  int failed = 0;
  for (const std::string& path : files) {
    const auto doc = tcfuzz::suites::ReadCaseDoc(path);
    if (!doc.ok()) Die(doc.error());
    const auto kind = tcfuzz::suites::KindOf(path, doc.value());
    if (!kind.ok()) Die(kind.error());
    const auto result = kind.value()->replay(doc.value());
    if (!result.ok()) Die(path + ": " + result.error());
    if (result.value().failures.empty()) {
      std::cout << "PASS " << path
                << (result.value().note.empty() ? "" : " (" + result.value().note + ")") << "\n";
    } else {
      ++failed;
      for (const auto& f : result.value().failures) {
        std::cout << "FAIL " << path << " " << f.check << ": " << f.message << "\n";
      }
    }
  }
  return failed ? 1 : 0;
}

int Rules(bool json) {
  if (json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto* r : tcfuzz::oracle::AllRules()) {
      const std::string_view anchor = tcfuzz::oracle::AnchorOf(r->section);
      j.push_back({{"rule", r->id},
                   {"section", r->section},
                   {"anchor", anchor},
                   {"url", anchor.empty() ? std::string() : tcfuzz::oracle::SpecUrl(anchor)},
                   {"meaning", r->meaning}});
    }
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  for (const auto* r : tcfuzz::oracle::AllRules()) {
    const std::string_view anchor = tcfuzz::oracle::AnchorOf(r->section);
    std::cout << r->id << "  [" << r->section << (anchor.empty() ? "" : "; #") << anchor << "]  "
              << r->meaning << "\n";
  }
  return 0;
}

// No option takes an empty value or one that is itself an option: `--svg ''` was silently
// ignored and `--report --no-progress` made a folder named --no-progress (issue 33).
void CheckOptionValues(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_type_size_max() == 0) continue;  // a flag
    for (const std::string& v : o->results()) {
      const std::string name = o->get_name().empty() ? "an argument" : o->get_name();
      if (v.empty()) Die(name + ": an empty value (it must name something)");
      if (v.starts_with("--")) Die(name + ": '" + v + "' is an option, not a value");
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) CheckOptionValues(*sub);
}

uint64_t RandomSeed() {
  std::random_device rd;
  return (uint64_t{rd()} << 32) | rd();
}

std::string JoinArgs(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace

namespace tcfuzz::cli {

int RunCli(int argc, char** argv, CliMode mode) try {
  CLI::App app{"tcfuzz: randomized conformance and fuzz testing for tensor-core operands"};
  app.set_version_flag("--version", std::string(tcfuzz::oracle::ToolVersion()));
  app.require_subcommand(1);

  // explain
  CLI::App* explain = app.add_subcommand("explain", "Decode an operand: fields, verdict, meaning");
  explain->require_subcommand(1);
  CLI::App* zcm = explain->add_subcommand("zcm", "tcgen05 zero-column mask descriptor (64-bit)");
  CLI::App* xbatch = explain->add_subcommand(
      "batch",
      "one JSON object per stdin line ({\"kind\":\"smem\"|\"zcm\", and the options by "
      "name}), one JSON answer per line");
  std::string desc_text, idesc_text;
  int m = 0, n = 0;
  bool sparse = false, json = false;
  zcm->add_option("DESC", desc_text, "the descriptor, hex (0x...) or decimal")->required();
  AddNumber(zcm, "--m", m, 1, 1024, "M of the tcgen05.mma.ws instruction (32, 64, 128)")
      ->required();
  AddNumber(zcm, "--n", n, 1, 256, "N of the instruction (1..256; legal: 64, 128, 256)")
      ->required();
  zcm->add_flag("--sparse", sparse, "the instruction is tcgen05.mma.ws.sp");
  zcm->add_option("--idesc", idesc_text,
                  "the 32-bit instruction descriptor (checks max shift, M, N)");
  zcm->add_flag("--json", json, "print the JSON object instead of the table");

  SmemArgs sa;
  CLI::App* esmem =
      explain->add_subcommand("smem", "wgmma / tcgen05 shared-memory matrix descriptor (64-bit)");
  esmem->add_option("DESC", sa.desc, "the descriptor, hex (0x...) or decimal")->required();
  esmem->add_option("--arch", sa.arch, "sm_90a (wgmma), sm_100a or sm_103a (tcgen05)")->required();
  esmem->add_option("--operand", sa.operand, "a or b")->required();
  esmem->add_option("--major", sa.major, "k or mn")->required();
  esmem->add_option("--dtype", sa.dtype, "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 s8 u8")
      ->required();
  AddNumber(esmem, "--rows", sa.rows, 1, 256, "M (operand a) or N (operand b)")->required();
  AddNumber(esmem, "--kbytes", sa.kbytes, 16, 256,
            "K extent in bytes (32 dense, 64 sparse, 48 for K = 96 fp4)")
      ->required();
  esmem->add_option(
      "--pattern-anchor", sa.pattern_anchor,
      "the address the swizzle pattern is laid from, to check the base offset against: "
      "the repeat boundary (1024/512/256 B) for data swizzled from there (base offset 0, "
      "even when the tile starts inside the pattern, e.g. start 0x8080 -> anchor 0x8000), "
      "or the row the pattern was laid from (anchor 0x8080 -> base offset 1)");
  esmem->add_option("--pattern-start", sa.pattern_start, "renamed --pattern-anchor")->group("");
  esmem->add_flag("--json", sa.json,
                  "print the JSON object (with every address) instead of the table");
  esmem->add_option("--svg", sa.svg, "also draw shared memory as an SVG picture into FILE");

  NumArgs na;
  CLI::App* esparse =
      explain->add_subcommand("sparse", "mma.sp fragment and metadata maps of a shape and type");
  esparse->add_option("--shape", na.shape, "m16n8k8 .. m16n8k128")->required();
  esparse->add_option("--type", na.type, "f16 bf16 tf32 s8 u8 e4m3 e5m2 e3m2 e2m3 e2m1 s4 u4")
      ->required();
  AddNumber(esparse, "--selector", na.selector, 0, 3, "sparsity selector (default 0)");
  esparse->add_flag("--json", na.json, "print the maps as JSON");

  CLI::App* oracle_cmd = app.add_subcommand("oracle", "Ask the arithmetic oracle");
  oracle_cmd->require_subcommand(1);
  CLI::App* dot = oracle_cmd->add_subcommand(
      "dot", "bit-exact dot products: JSON lines in, {\"d\":\"hex\"} lines out");
  dot->add_option("--arch", na.arch,
                  "a target (sm_70 ... sm_121) or device (H100, A10, RTX 4090, B200 ...)")
      ->required();
  dot->add_option("--instr", na.instr, "mma wgmma tcgen05")->required();
  dot->add_option("--ab", na.ab, "A/B type: f16 bf16 tf32 e4m3 e5m2 (e3m2 e2m3 e2m1 for tcgen05)")
      ->required();
  dot->add_option("--cd", na.cd, "accumulator: f32 (default) or f16");
  dot->add_flag(
      "--allow-unconfirmed", na.allow_unconfirmed,
      "answer with a row no hardware has confirmed (a hypothesis; see `oracle readings`)");
  dot->add_option("--input", na.input,
                  "json (default): JSON lines; hex: lines of A's K, B's K and C as hex words, "
                  "answered by D's hex word");
  CLI::App* rows =
      oracle_cmd->add_subcommand("rows", "every numerics row: parameters and how it is backed");
  rows->add_flag("--json", na.json, "as a JSON array");
  rows->add_option("--arch", na.arch,
                   "only the rows tcfuzz uses for this target or device, backed as there");
  CLI::App* readings = oracle_cmd->add_subcommand(
      "readings",
      "every spec choice, layout hypothesis and numerics row tcfuzz follows, and what backs it");
  readings->add_flag("--json", na.json, "as a JSON array");
  tcfuzz::suites::DiscoverCli discover;
  tcfuzz::suites::AddIngestOption(*readings, discover);
  tcfuzz::suites::AddDiscoverCommand(app, discover);
  CLI::App* captures =
      oracle_cmd->add_subcommand("captures", "agreement with hardware-captured results");
  captures->add_option("--dir", na.dir,
                       "captures folder (default: ../shared/captures or $TCFUZZ_CAPTURES_DIR)");

  CLI::App* tiling = app.add_subcommand("tiling", "Ascend C Matmul TCubeTiling: chips and checks");
  tiling->require_subcommand(1);
  bool tiling_json = false;
  CLI::App* chips = tiling->add_subcommand("chips", "list the built-in SoC profiles");
  chips->add_flag("--json", tiling_json, "as JSON");
  std::string chip_arg, problem_file, tiling_file;
  CLI::App* tcheck = tiling->add_subcommand("check", "validate a tiling (exit 0 legal, 1 illegal)");
  tcheck->add_option("--chip", chip_arg, "SoC name (case-insensitive) or a profile JSON file")
      ->required();
  tcheck->add_option("--problem", problem_file, "problem JSON (M N K aType ... schedule)")
      ->required();
  tcheck->add_option("TILING", tiling_file, "a 200-byte .bin image or a .json form")->required();
  tcheck->add_flag("--json", tiling_json, "print the JSON verdict");
  bool numeric = false;
  CLI::App* tsim = tiling->add_subcommand(
      "simulate", "run the tiled execution on the CPU (exit 0 clean, 1 findings)");
  tsim->add_option("--chip", chip_arg, "SoC name (case-insensitive) or a profile JSON file")
      ->required();
  tsim->add_option("--problem", problem_file, "problem JSON")->required();
  tsim->add_option("TILING", tiling_file, "a 200-byte .bin image or a .json form")->required();
  tsim->add_flag("--numeric", numeric,
                 "also compare the tiled product with a plain matmul (small shapes)");
  CLI::App* tmake =
      tiling->add_subcommand("make", "the reference tiler's answer, as the JSON form");
  tmake->add_option("--chip", chip_arg, "SoC name (case-insensitive) or a profile JSON file")
      ->required();
  tmake->add_option("--problem", problem_file, "problem JSON ('-' for stdin)")->required();
  CLI::App* tfuzz = tiling->add_subcommand("fuzz",
                                           "fuzz a tiler: generated problems, every answer "
                                           "validated and simulated (exit 0 clean, 1 findings)");
  tcfuzz::suites::TilingFuzzOptions tf;
  std::string tf_seed;
  uint64_t tf_cases = 0, tf_timeout_ms = 10000;
  double tf_seconds = 0;
  tfuzz->add_option("--tiler", tf.tiler_command,
                    "command: problem JSON on stdin, TCFUZZ_CHIP and TCFUZZ_L1_SIZE in the "
                    "environment; tiling JSON or 200-byte image on stdout (exit 0), or exit 1 to "
                    "refuse (default: the reference tiler; docs/tiler-under-test.md)");
  tfuzz->add_option("--chip", tf.chip_arg,
                    "SoC name or profile file (default: every built-in chip in turn)");
  auto* tf_seed_opt = tfuzz->add_option("--seed", tf_seed, "base seed (default: random, printed)");
  auto* tf_cases_opt = AddNumber(tfuzz, "--cases", tf_cases, 1, uint64_t{1} << 40,
                                 "number of problems (default 2000)");
  auto* tf_time_opt =
      AddSeconds(tfuzz, "--time", tf_seconds, "seconds to run instead of a case count");
  tf_cases_opt->excludes(tf_time_opt);
  AddNumber(tfuzz, "--timeout-ms", tf_timeout_ms, 1, 3600000,
            "deadline for one tiler call (default 10000)");
  tfuzz->add_option("--report", tf.out_dir, "report folder (default: report/tiling-fuzz)");
  AddNumber(tfuzz, "--tiler-l1", tf.tiler_l1, 1, uint64_t{1} << 40,
            "L1 bytes the tiler is told to plan against, as TCFUZZ_L1_SIZE (default: the "
            "chip's platform L1)");

  CLI::App* encode = app.add_subcommand("encode", "Build an operand from a description");
  encode->require_subcommand(1);
  CLI::App* nsmem =
      encode->add_subcommand("smem", "shared-memory descriptor from a CuTe canonical layout");
  CLI::App* nbatch = encode->add_subcommand(
      "batch",
      "one JSON object per stdin line ({\"kind\":\"smem\",\"arch\",\"dtype\",\"layout\"}), "
      "one JSON answer per line");
  nsmem->add_option("--arch", sa.arch, "sm_90a, sm_100a or sm_103a")->required();
  nsmem->add_option("--dtype", sa.dtype, "element type")->required();
  nsmem
      ->add_option(
          "--layout", sa.layout,
          "e.g. \"Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))\" (strides in elements)")
      ->required();
  nsmem->add_option("--start", sa.start, "byte address of the pattern start (default 0)");

  // run
  CLI::App* run = app.add_subcommand("run", "Run a campaign and write a report");
  tcfuzz::suites::CampaignOptions options;
  std::string seed_text, shard_text;
  uint64_t cases = 0;
  double seconds = 0;
  bool no_progress = false;
  auto* suite_opt = run->add_option("--suite", options.suites,
                                    "suite name (repeatable; default: every host suite)");
  auto* seed_opt = run->add_option("--seed", seed_text, "base seed (default: random, printed)");
  auto* cases_opt = AddNumber(run, "--cases", cases, 1, uint64_t{1} << 40,
                              "cases per suite (default: each suite's own, about 30 s each)");
  auto* time_opt = AddSeconds(run, "--time", seconds, "seconds per suite instead of a case count");
  cases_opt->excludes(time_opt);
  auto* shard_opt = run->add_option(
      "--shard", shard_text,
      "I/N: run shard I of N (indices i with i % N == I); default: the scheduler's variables "
      "(GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS, SLURM_ARRAY_TASK_ID/COUNT, JOB_COMPLETION_INDEX "
      "with --shard-count, CI_NODE_INDEX/CI_NODE_TOTAL)");
  uint64_t shard_count = 0;
  auto* shard_count_opt =
      AddNumber(run, "--shard-count", shard_count, 1, uint64_t{1} << 20,
                "shards in all, for a Kubernetes Indexed Job (its completions)");
  auto* report_opt =
      run->add_option("--report", options.report_dir, "report folder (default: report)");
  run->add_flag("--no-progress", no_progress, "no live progress line");
  double progress_every = 30;
  AddSeconds(run, "--progress-every", progress_every,
             "off a terminal: a progress line this often (default 30 s)");
  auto* expectations_opt = run->add_option(
      "--expectations", options.expectations_file,
      "known failures (docs/ci.md): matching cases are expected_fail, not failures");
  auto* skips_opt =
      run->add_option("--skips", options.skips_file, "suites not to run on a device (docs/ci.md)");
  auto* strict_opt =
      run->add_flag("--strict", options.strict, "stale expectation lines and flakes fail the run");
  uint64_t reruns = 2;
  AddNumber(run, "--reruns", reruns, 0, 10,
            "GPU suites: runs of a failing case again, each in a fresh worker (default 2)");
  uint64_t cases_per_launch = 0;
  AddNumber(
      run, "--cases-per-launch", cases_per_launch, 1, uint64_t{1} << 20,
      "GPU suites: cases per kernel launch (default 65536; 1 is the one-case-per-launch baseline)");
  std::string gpu_mode = "auto";
  auto* gpu_opt =
      run->add_option("--gpu", gpu_mode,
                      "GPU suites: auto (run when a device answers), require, off (default auto)")
          ->check(CLI::IsMember({"auto", "require", "off"}));
  std::string resume_dir;
  auto* resume_opt = run->add_option("--resume", resume_dir,
                                     "finish the interrupted run whose report is in this folder "
                                     "(with its own suites, seed, shard, report folder and "
                                     "baseline: options naming those are refused)");
  // What the interrupted run recorded is what it goes on with: an option it would ignore is an
  // error, not a silent no-op.
  for (CLI::Option* o : {suite_opt, seed_opt, cases_opt, time_opt, shard_opt, shard_count_opt,
                         report_opt, expectations_opt, skips_opt, strict_opt, gpu_opt})
    resume_opt->excludes(o);

  // merge
  CLI::App* merge = app.add_subcommand("merge", "Add the shard reports of one run into one report");
  std::vector<std::string> merge_dirs;
  std::string merge_out;
  merge->add_option("dirs", merge_dirs, "shard report folders")->required();
  merge->add_option("--report", merge_out, "folder of the merged report")->required();

  // worker (internal): the process that touches the GPU, started by `run`
  CLI::App* worker =
      app.add_subcommand("worker", "(internal) run a range of a GPU suite's cases; started by run");
  tcfuzz::suites::WorkerArgs wa;
  std::string worker_shard;
  bool probe = false;
  worker->add_flag("--probe", probe, "print the device this process sees and exit");
  std::string case_file;
  worker->add_option("--case-file", case_file, "run one sparse case from this file");
  worker->add_option("--suite", wa.suite, "GPU suite");
  AddNumber(worker, "--seed", wa.seed, 0, ~uint64_t{0}, "base seed");
  AddNumber(worker, "--first", wa.first, 0, ~uint64_t{0}, "first case index");
  AddNumber(worker, "--count", wa.count, 0, uint64_t{1} << 26, "number of case indices");
  auto* worker_shard_opt = worker->add_option("--shard", worker_shard, "I/N");
  worker->add_option("--plant-fault", wa.plant_fault,
                     "(test only) run an illegal-address kernel at this index");
  worker->add_option("--plant-hang", wa.plant_hang,
                     "(test only) run a kernel that never ends at this index");
  AddNumber(worker, "--threads", wa.threads, 0, 4096,
            "host threads for generation and the oracle (default: every core)");
  AddNumber(worker, "--cases-per-launch", wa.cases_per_launch, 1, uint64_t{1} << 20,
            "cases per kernel launch (1: the baseline mode)");

  // repro
  CLI::App* repro =
      app.add_subcommand("repro", "Turn a reproducer into something that runs without tcfuzz");
  std::string repro_file, emit_cu, gpu_row = "sm_90";
  repro
      ->add_option("FILE", repro_file,
                   "a sparse_mma, dense_mma or wgmma_tile case file (reproducer or corpus)")
      ->required();
  repro->add_option("--emit-cu", emit_cu, "write one standalone CUDA file here")->required();
  repro->add_option(
      "--gpu-row", gpu_row,
      "numerics row for the expected values when the file names none (default sm_90)");

  // minimize
  CLI::App* minimize = app.add_subcommand("minimize",
                                          "Shrink a failing GPU reproducer (sparse_mma or "
                                          "wgmma_tile) on the device while it fails the same way");
  std::string min_file, min_out;
  int min_budget = 400;
  minimize->add_option("FILE", min_file, "a sparse_mma or wgmma_tile reproducer")->required();
  minimize->add_option("--out", min_out, "where the minimized case goes (default FILE.min.txt)");
  AddNumber(minimize, "--budget", min_budget, 1, 100000, "device runs at most (default 400)");

  // replay
  CLI::App* replay = app.add_subcommand("replay", "Re-run reproducer or corpus files");
  std::vector<std::string> files;
  replay->add_option("FILE", files, "text-form case files")->required();

  // toolchain
  tcfuzz::suites::ToolchainCli toolchain;
  tcfuzz::suites::AddToolchainCommands(app, toolchain);

  // rules
  CLI::App* rules = app.add_subcommand("rules", "List every legality rule the oracle checks");
  bool rules_json = false;
  rules->add_flag("--json", rules_json, "as a JSON array");

  // A first word that is no command: say so (CLI11 would say "a subcommand is required").
  if (argc > 1 && argv[1][0] != '-') {
    std::string commands;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->get_name() == argv[1];
    }
    if (!known) Die("'" + std::string(argv[1]) + "' is not a command (" + commands + ")");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    Die(e.what());
  }
  CheckOptionValues(app);

  // Parsing only (the argument fuzzer): commands that read nothing but their arguments and
  // write only stdout run; the others stop here, their options parsed and checked.
  const bool parse_only = mode == CliMode::kParseOnly;
  if (*zcm) return Explain(desc_text, m, n, sparse, idesc_text, json);
  if (*esmem && (!parse_only || sa.svg.empty())) return ExplainSmem(sa);
  if (*esparse) return ExplainSparse(na);
  if (*chips) return tcfuzz::suites::TilingChips(tiling_json);
  // run, tiling fuzz and worker check their options below and stop before they start anything.
  if (parse_only && !*zcm && !*esparse && !*rows && !*readings && !*nsmem && !*rules && !*run &&
      !*tfuzz && !*worker && !*merge)
    return 0;
  if (*tcheck) return tcfuzz::suites::TilingCheck(chip_arg, problem_file, tiling_file, tiling_json);
  if (*tsim) return tcfuzz::suites::TilingSimulate(chip_arg, problem_file, tiling_file, numeric);
  if (*tmake) return tcfuzz::suites::TilingMake(chip_arg, problem_file);
  if (*tfuzz) {
    if (!tf.tiler_command.empty()) tcfuzz::cli::CheckRunnable("--tiler", tf.tiler_command);
    if (!tf.chip_arg.empty()) tf.chip = tcfuzz::suites::LoadChip(tf.chip_arg);
    tf.seed = *tf_seed_opt ? ParseNumberArg("--seed", tf_seed, ~uint64_t{0}) : RandomSeed();
    if (*tf_time_opt && !(tf_seconds > 0)) Die("--time: must be a positive number of seconds");
    if (*tf_cases_opt && tf_cases == 0) Die("--cases: must be at least 1");
    if (tf_timeout_ms == 0 || tf_timeout_ms > 3600000) Die("--timeout-ms: must be 1..3600000");
    if (tf.out_dir.empty()) Die("--report: empty folder name");
    tf.cases = tf_cases, tf.seconds = tf_seconds,
    tf.timeout = std::chrono::milliseconds(tf_timeout_ms);
    tf.command_line = JoinArgs(argc, argv);
    if (parse_only) return 0;
    tcfuzz::cli::ErrorsToStderr split;
    std::ostream log(&split);
    return tcfuzz::suites::RunTilingFuzz(tf, log);
  }
  if (const int rc = tcfuzz::suites::RunToolchainCommand(toolchain); rc >= 0) return rc;
  if (const int rc = tcfuzz::suites::RunDiscoverCommand(discover); rc >= 0) return rc;
  if (*dot) return OracleDot(na);
  if (*rows) {
    std::optional<num::TargetInfo> target;
    if (!na.arch.empty()) {
      auto t = num::FindTarget(na.arch);
      if (!t.ok()) Die("--arch: " + t.error());
      target = t.value();
    }
    const num::TargetInfo* tp = target ? &*target : nullptr;
    return std::cout << (na.json ? tcfuzz::suites::OracleRowsJson(tp)
                                 : tcfuzz::suites::OracleRowsText(tp)),
           0;
  }
  if (*readings) {
    return std::cout << (na.json ? tcfuzz::suites::OracleReadingsJson()
                                 : tcfuzz::suites::OracleReadingsText()),
           0;
  }
  if (*captures)
    return tcfuzz::suites::OracleCaptures(
        na.dir.empty() ? tcfuzz::suites::DefaultCapturesDir() : na.dir, std::cout);
  if (*nsmem) return EncodeSmem(sa);
  if (*nbatch) return tcfuzz::suites::EncodeBatch(std::cin, std::cout, std::cerr);
  if (*xbatch) return tcfuzz::suites::ExplainBatch(std::cin, std::cout, std::cerr);
  if (*worker) {
    if (parse_only && (probe || !case_file.empty())) return 0;
    if (probe) return tcfuzz::suites::ProbeWorker(std::cout);
    if (!case_file.empty()) return tcfuzz::suites::RunCaseFileWorker(case_file, std::cout);
    if (!tcfuzz::suites::IsDeviceSuite(wa.suite)) {
      std::string known;
      for (const std::string& name : tcfuzz::suites::DeviceSuiteNames())
        known += (known.empty() ? "" : ", ") + name;
      Die("worker: --suite '" + wa.suite + "' is not a GPU suite (" + known + ")");
    }
    if (wa.count > (uint64_t{1} << 26) || wa.first > ~uint64_t{0} - wa.count) {
      Die("worker: --first/--count: at most 2^26 cases, and first + count must not pass 2^64");
    }
    if (*worker_shard_opt) {
      const auto shard = ChooseShard(worker_shard, std::nullopt,
                                     [](const char*) -> const char* { return nullptr; });
      if (!shard.ok()) Die(shard.error());
      wa.shard_index = shard.value().index;
      wa.shard_count = shard.value().count;
    }
    if (parse_only) return 0;
    return tcfuzz::suites::RunDeviceWorker(wa, std::cout);
  }
  if (*minimize) {
    return tcfuzz::suites::RunMinimize(min_file, min_out.empty() ? min_file + ".min.txt" : min_out,
                                       min_budget, {"/proc/self/exe"}, std::cerr);
  }
  if (*repro) return tcfuzz::suites::ReproEmitCu(repro_file, emit_cu, gpu_row);
  if (*replay) return Replay(files);
  if (*rules) return Rules(rules_json);
  if (*merge) {
    if (merge_out.empty()) Die("--report: empty folder name");
    if (parse_only) return 0;
    tcfuzz::cli::ErrorsToStderr split;
    std::ostream log(&split);
    return tcfuzz::suites::MergeReports(merge_dirs, merge_out, log);
  }
  if (*run) {
    const Getenv env = [](const char* name) -> const char* { return std::getenv(name); };
    auto shard =
        ChooseShard(*shard_opt ? std::optional<std::string>(shard_text) : std::nullopt,
                    *shard_count_opt ? std::optional<uint64_t>(shard_count) : std::nullopt, env);
    if (!shard.ok()) Die(shard.error());
    options.shard_index = shard.value().index;
    options.shard_count = shard.value().count;
    options.shard_source = shard.value().source;
    if (*seed_opt) {
      options.seed = ParseNumberArg("--seed", seed_text, ~uint64_t{0});
    } else if (options.shard_count > 1 && !*resume_opt) {
      // Shards add up to one run only under one seed.
      const auto derived = SeedFromRunId(env);
      if (!derived)
        Die("a sharded run (" + options.shard_source +
            ") needs the seed every shard shares: pass --seed S, or set TCFUZZ_RUN_ID to an id "
            "all shards see");
      options.seed = derived->seed;
      options.seed_source = derived->source;
    } else {
      options.seed = RandomSeed();
      options.seed_source = "random";
    }
    if (*time_opt) {
      if (!(seconds > 0)) Die("--time: must be a positive number of seconds");
      options.seconds = seconds;
    } else {
      if (*cases_opt) options.cases = cases;
    }
    // A suite named twice runs once.
    std::vector<std::string> unique;
    for (const std::string& s : options.suites) {
      if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
    }
    options.suites = std::move(unique);
    if (options.report_dir.empty()) Die("--report: empty folder name");
    options.progress = !no_progress && ::isatty(STDERR_FILENO);
    options.progress_every = no_progress ? 0 : progress_every;
    options.reruns = static_cast<int>(reruns);
    options.command_line = JoinArgs(argc, argv);
    options.gpu = gpu_mode;
    options.device_cases_per_launch = cases_per_launch;
    // The literal link, resolved by each worker at exec: the image this process runs, even if
    // the file is rebuilt during a long run.
    options.worker = {"/proc/self/exe"};
    if (parse_only) return 0;
    tcfuzz::cli::ErrorsToStderr split;
    std::ostream log(&split);
    if (*resume_opt) return tcfuzz::suites::ResumeCampaign(resume_dir, options, log);
    return tcfuzz::suites::RunCampaign(options, log);
  }
  return 2;
} catch (const Exit& e) {
  return e.code;
}

}  // namespace tcfuzz::cli
