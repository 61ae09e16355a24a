// The tcfuzz binary as a user runs it: outputs, exit codes, one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "generators/core/random_source.h"
#include "generators/mma/dense_mma_gen.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/ascend/tcube_tiling.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/cli/command_group.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/tests/support/cli_run.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz {
namespace {

using test::CliRun;
using test::ExpectOneLineError;
using test::Tcfuzz;
using test::TempDir;

// Removes the "backing" array of an explain --json object and checks it holds these readings,
// each with the backing expected on the explained target and the table's other fields.
void ExpectBacking(nlohmann::ordered_json& j,
                   const std::vector<std::pair<std::string, std::string>>& want) {
  ASSERT_TRUE(j.contains("backing")) << j.dump();
  const nlohmann::ordered_json backing = j["backing"];
  j.erase("backing");
  ASSERT_EQ(backing.size(), want.size()) << backing.dump();
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(backing[i]["id"], want[i].first) << backing.dump();
    EXPECT_EQ(backing[i]["backing"], want[i].second) << backing[i].dump();
    for (const char* key : {"seen_on", "reading", "basis"})
      EXPECT_TRUE(backing[i][key].is_string()) << key;
  }
}

// Example 3 of PTX 9.1 §9.7.16.4.3 (M = 64), N = 128: descriptor built from the printed fields
// (fs0 = 1 at bit 32, nzm at bit 39, skip 2 at 40-47, use 3 at 48-55).
constexpr const char* kExample3 = "0x0003028100000000";

// Host suites run batches on every thread, then tally in index order: a shard's report is the
// same for one thread and for three (its counts, families, coverage, signatures, failures).
TEST(Cli, HostSuiteReportsDoNotDependOnTheThreadCount) {
  const std::string dir = test::TempDir("threads");
  for (const char* suite : {"zero-column-mask", "smem", "sparse-oracle"}) {
    nlohmann::json s[2];
    for (const int threads : {1, 3}) {
      const std::string report = dir + "/" + suite + std::to_string(threads);
      const CliRun r = Tcfuzz(std::string("run --suite ") + suite +
                              " --cases 3000 --shard 1/3 --seed 77 --no-progress --threads " +
                              std::to_string(threads) + " --report " + report);
      ASSERT_EQ(r.code, 0) << r.out;
      s[threads == 3] =
          nlohmann::json::parse(suites::ReadFile(report + "/summary.json").value())["suites"][0];
    }
    EXPECT_EQ(s[0]["cases"], 1000) << suite;  // indices 1, 4, ..., 2998
    for (const char* key :
         {"cases", "failed", "families", "coverage", "signatures", "failures", "resume_from"})
      EXPECT_EQ(s[0][key], s[1][key]) << suite << " " << key;
  }
  std::filesystem::remove_all(dir);
}

TEST(Cli, ExplainZcmJsonIsExactlyTheDocumentedObject) {
  const CliRun r = Tcfuzz(std::string("explain zcm --m 64 --n 128 --json ") + kExample3);
  ASSERT_EQ(r.code, 0) << r.out;
  // Expected mask from the spec's printed pattern: sub-mask 0 (columns 0-63) repeats
  // "3 zeroed, 4 used" from column 0; sub-mask 1 (64-127) repeats "4 used, 3 zeroed".
  nlohmann::ordered_json want;
  want["kind"] = "zero_column_mask";
  want["m"] = 64;
  want["n"] = 128;
  want["fields"] = {{"sc", {0, 0, 0, 0}}, {"fs", {1, 0, 0, 0}}, {"non_zero_mask", 1},
                    {"skip_span", 2},     {"use_span", 3},      {"shift", 0}};
  want["legal"] = true;
  want["violations"] = nlohmann::ordered_json::array();
  std::string hex;
  auto zeroed = [](int j) { return j < 64 ? j % 7 < 3 : (j - 64) % 7 >= 4; };
  for (int d = 31; d >= 0; --d) {
    int nib = 0;
    for (int b = 0; b < 4; ++b) nib |= zeroed(4 * d + b) ? 1 << b : 0;
    hex += "0123456789abcdef"[nib];
  }
  want["mask"] = "0x" + hex;
  want["b_columns"] = nlohmann::ordered_json::array();
  for (int j = 0; j < 128; ++j) {
    if (zeroed(j)) {
      want["b_columns"].push_back(nullptr);
    } else {
      want["b_columns"].push_back(j);
    }
  }
  // The readings this mask depends on, none run on hardware (tcgen05.mma.ws needs sm_100): Z1,
  // which follows the spec's worked examples. Its start counts are 0 (inside a period of 3 + 4),
  // its runs of 3 and 4 are shorter than the 64-column sub-masks, it has no shift and bits 62-63
  // are clear, so none of tcfuzz's silent-case readings (Z2, Z3, Z5, Z6) applies.
  auto got = nlohmann::ordered_json::parse(r.out);
  ExpectBacking(got, {{"Z1", "spec"}});
  EXPECT_EQ(got.dump(), want.dump());
}

TEST(Cli, ExplainZcmTableShowsFieldsVerdictAndMask) {
  const CliRun r = Tcfuzz("explain zcm --m 32 --n 64 --idesc 0x42000000 0x0000000000000010");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("sc0"), std::string::npos);
  EXPECT_NE(r.out.find("verdict: ILLEGAL"), std::string::npos);
  EXPECT_NE(r.out.find("mma_ws.idesc_n"), std::string::npos);  // idesc says N = 0
  EXPECT_NE(r.out.find("cols   0- 63"), std::string::npos);
}

// Figure 190 (MN-major, no swizzle, bf16) in a wgmma descriptor: LBO field 16, SBO field 8.
TEST(Cli, ExplainSmemJsonIsExactlyTheDocumentedObject) {
  const CliRun r = Tcfuzz(
      "explain smem --arch sm_90a --operand b --major mn --dtype bf16 --rows 16 --kbytes 32 --json "
      "0x0000000800100000");
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::ordered_json want;
  want["kind"] = "smem_descriptor";
  want["arch"] = "sm_90a";
  want["fields"] = {
      {"start_address", 0}, {"reserved_14_15", 0}, {"lbo", 16},        {"reserved_30_31", 0},
      {"sbo", 8},           {"reserved_46_48", 0}, {"base_offset", 0}, {"reserved_52_61", 0},
      {"swizzle", 0}};
  want["pattern_anchor"] = nullptr;  // no swizzle, no pattern
  want["legal"] = true;
  want["violations"] = nlohmann::ordered_json::array();
  // The figure's exact layout ((8,1,2),(8,2)):((1,8,64),(8,128)), in bf16 elements of 2 bytes.
  want["addresses"] = nlohmann::ordered_json::array();
  for (int row = 0; row < 16; ++row) {
    nlohmann::ordered_json line = nlohmann::ordered_json::array();
    for (int k = 0; k < 16; ++k)
      line.push_back(2 * ((row % 8) + 64 * (row / 8) + 8 * (k % 8) + 128 * (k / 8)));
    want["addresses"].push_back(line);
  }
  // wgmma's canonical layouts and the LBO/SBO roles without swizzle: both seen on an H100.
  auto got = nlohmann::ordered_json::parse(r.out);
  ExpectBacking(got, {{"S0", "hardware"}, {"S6", "hardware"}});
  EXPECT_EQ(got.dump(), want.dump());
}

// The issue-16 case: a tile that starts inside a 1024-byte pattern (0x8080, 128B swizzle) with base
// offset 0 is legal; the pattern's anchor is the repeat boundary below it, and only an anchor that
// is the start itself makes base offset 1 the right value.
TEST(Cli, ExplainSmemPatternAnchor) {
  const std::string desc =
      " 0x4000004000010808";  // wgmma: start 0x8080, LBO 16, SBO 1024, 128B, base offset 0
  const std::string cmd =
      "explain smem --arch sm_90a --operand a --major k --dtype bf16 --rows 64 --kbytes 32";
  const CliRun implied = Tcfuzz(cmd + desc);
  ASSERT_EQ(implied.code, 0) << implied.out;
  EXPECT_NE(implied.out.find("pattern anchor: 0x08000 (implied by base offset 0"),
            std::string::npos)
      << implied.out;
  EXPECT_NE(implied.out.find("the start is 128 bytes into the pattern"), std::string::npos)
      << implied.out;
  EXPECT_NE(implied.out.find("verdict: legal"), std::string::npos) << implied.out;
  const CliRun boundary = Tcfuzz(cmd + " --pattern-anchor 0x8000" + desc);
  EXPECT_NE(boundary.out.find("verdict: legal"), std::string::npos) << boundary.out;
  const CliRun at_start = Tcfuzz(cmd + " --pattern-anchor 0x8080" + desc);
  EXPECT_NE(at_start.out.find("smem.base_offset_value"), std::string::npos) << at_start.out;
  EXPECT_NE(at_start.out.find("hint: the anchor given is the start address"), std::string::npos)
      << at_start.out;
  const CliRun json = Tcfuzz(cmd + " --json" + desc);
  EXPECT_EQ(nlohmann::json::parse(json.out)["pattern_anchor"],
            (nlohmann::json{{"address", 0x8000}, {"given", false}}));
  ExpectOneLineError(Tcfuzz(cmd + " --pattern-start 0x8080" + desc));
  EXPECT_NE(Tcfuzz(cmd + " --pattern-start 0x8080" + desc).out.find("renamed --pattern-anchor"),
            std::string::npos);
  EXPECT_NE(Tcfuzz("explain smem --help").out.find("--pattern-anchor"), std::string::npos);
}

TEST(Cli, ExplainSmemTableAndSvg) {
  const std::string dir = TempDir("svg");
  const CliRun r = Tcfuzz(
      "explain smem --arch sm_100a --operand a --major k --dtype tf32 --rows 16 --kbytes 32 "
      "--pattern-anchor 0x80 --svg " +
      dir + "/m.svg 0xc000401000010000");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fixed_46_48      46-48         1  0b001 as required"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("smem.base_offset_value"), std::string::npos) << r.out;  // pattern off 256 B
  const std::string svg = suites::ReadFile(dir + "/m.svg").value();
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<title>row 15, k 7 @ byte"), std::string::npos);
  // /dev/stdout is the stream (issue 33): after the table through a pipe, and after the table in
  // a file stdout is redirected to, never renamed over it; so is a link to it, and the very file
  // stdout goes to.
  const auto to = [](const std::string& target) {
    return "explain smem --arch sm_100a --operand a --major k --dtype tf32 --rows 16 --kbytes 32 "
           "--pattern-anchor 0x80 --svg " +
           target + " 0xc000401000010000";
  };
  std::filesystem::create_symlink("/dev/stdout", dir + "/stdlink");
  for (const std::string& cmd :
       {to("/dev/stdout") + " | cat", to("/dev/stdout") + " > " + dir + "/out.txt",
        to(dir + "/stdlink") + " | cat", to(dir + "/stdlink") + " > " + dir + "/out.txt",
        to(dir + "/out.txt") + " > " + dir + "/out.txt"}) {
    const CliRun s = Tcfuzz(cmd);
    ASSERT_EQ(s.code, 0) << s.out;
    const std::string all =
        cmd.ends_with("cat") ? s.out : suites::ReadFile(dir + "/out.txt").value();
    const std::size_t table = all.find("fixed_46_48"), picture = all.find("<svg");
    EXPECT_NE(table, std::string::npos) << all.substr(0, 400);
    EXPECT_NE(picture, std::string::npos) << all.substr(0, 400);
    EXPECT_LT(table, picture);
  }
  std::filesystem::remove_all(dir);
}

TEST(Cli, EncodeSmemReadsTheLayoutOffTheCuteString) {
  const CliRun r = Tcfuzz(
      "encode smem --arch sm_100a --dtype bf16 --layout "
      "\"Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))\"");
  ASSERT_EQ(r.code, 0) << r.out;
  // Figure 192: LBO field 32, SBO field 64; tcgen05 64B swizzle code 4, fixed bit 46.
  const uint64_t want =
      (uint64_t{32} << 16) | (uint64_t{64} << 32) | (uint64_t{1} << 46) | (uint64_t{4} << 61);
  char hex[32];
  std::snprintf(hex, sizeof hex, "descriptor 0x%016llx", static_cast<unsigned long long>(want));
  EXPECT_NE(r.out.find(hex), std::string::npos) << r.out;
  ExpectOneLineError(
      Tcfuzz("encode smem --arch sm_100a --dtype bf16 --layout \"((8,2),(8,2)):((1,8),(8,1))\""));
}

CliRun TcfuzzWithInput(const std::string& args, const std::string& input) {
  const std::string dir = TempDir("stdin");
  EXPECT_TRUE(suites::WriteFileAtomic(dir + "/in.jsonl", input).ok());
  return Tcfuzz(args + " < " + dir + "/in.jsonl");
}

// The three line readers (issue 33): a line past 1 MiB is an error naming it, after the lines
// before it are answered; stdin a folder is an error, not an empty input; a key the line's kind
// does not read is a typo, never answered as something else.
TEST(Cli, BatchReadersBoundTheirLinesAndRefuseUnknownKeys) {
  const std::string dot = "oracle dot --arch sm_90 --instr wgmma --ab f16 --cd f32";
  const std::string one = "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"00000000\"}\n";
  const std::string huge = std::string((1 << 20) + 1, ' ') + "\n";
  for (const std::string& cmd : {dot, std::string("explain batch"), std::string("encode batch")}) {
    const CliRun r = TcfuzzWithInput(cmd, (cmd == dot ? one : "") + huge);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_NE(r.out.find("tcfuzz: error: line " + std::string(cmd == dot ? "2" : "1") +
                         " is longer than 1048576 bytes"),
              std::string::npos)
        << cmd << ": " << r.out.substr(0, 300);
    if (cmd == dot) {
      EXPECT_EQ(r.out.find("{\"d\":\"40000000\"}\n"), 0u) << r.out.substr(0, 300);
    }
    const CliRun folder = Tcfuzz(cmd + " < /tmp");
    EXPECT_EQ(folder.code, 2) << cmd;
    EXPECT_EQ(folder.out, "tcfuzz: error: stdin is a folder\n") << cmd;
  }
  // The toolchain suite's worker reads its item lines the same way (it read a 200 MB line whole
  // and ended 0 on a folder).
  const CliRun worker = TcfuzzWithInput("toolchain worker --lines", huge);
  EXPECT_EQ(worker.code, 2);
  EXPECT_EQ(worker.out, "tcfuzz: error: toolchain worker: line 1 is longer than 1048576 bytes\n");
  const CliRun worker_folder = Tcfuzz("toolchain worker --lines < /tmp");
  EXPECT_EQ(worker_folder.code, 2);
  EXPECT_EQ(worker_folder.out, "tcfuzz: error: toolchain worker: stdin is a folder\n");
  const CliRun typo = TcfuzzWithInput(
      dot, "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"00000000\",\"sparse\":true}\n");
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.out.find("line 1: unknown key \"sparse\""), std::string::npos) << typo.out;
  const CliRun zcm = TcfuzzWithInput(
      "explain batch", "{\"kind\":\"zcm\",\"m\":128,\"n\":64,\"desc\":0,\"Sparse\":true}\n");
  EXPECT_EQ(zcm.code, 1);
  EXPECT_EQ(zcm.out, "{\"error\":\"unknown key \\\"Sparse\\\"\",\"line\":1}\n") << zcm.out;
  const CliRun ok = TcfuzzWithInput(
      "explain batch", "{\"kind\":\"zcm\",\"m\":128,\"n\":64,\"desc\":0,\"sparse\":true}\n");
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST(Cli, OracleDotReadsJsonLinesAndWritesOneResultPerLine) {
  // Numerics reference T1 (fp16 -> f32, C = 0): a = [1, 2^-13 x5], b = [1, 2^-12 x5];
  // Hopper keeps 25 fraction bits (0x3F800001), Ampere 24 (0x3F800000).
  const std::string t1 =
      "{\"a\":[\"3c00\",\"0800\",\"0800\",\"0800\",\"0800\",\"0800\"],"
      "\"b\":[\"3c00\",\"0c00\",\"0c00\",\"0c00\",\"0c00\",\"0c00\"],\"c\":\"00000000\"}\n";
  const CliRun h =
      TcfuzzWithInput("oracle dot --arch sm_90 --instr mma --ab f16 --cd f32", t1 + t1);
  EXPECT_EQ(h.code, 0) << h.out;
  EXPECT_EQ(h.out, "{\"d\":\"3f800001\"}\n{\"d\":\"3f800001\"}\n");
  const CliRun a = TcfuzzWithInput("oracle dot --arch sm_80 --instr mma --ab f16 --cd f32", t1);
  EXPECT_EQ(a.out, "{\"d\":\"3f800000\"}\n");
  // f16 accumulator: 4 hex digits for c and d.
  const CliRun f = TcfuzzWithInput("oracle dot --arch sm_90 --instr wgmma --ab f16 --cd f16",
                                   "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"3c00\"}\n");
  EXPECT_EQ(f.out, "{\"d\":\"4200\"}\n");
  // A malformed line: the lines before it are answered, then an error naming its number.
  const CliRun bad = TcfuzzWithInput("oracle dot --arch sm_90 --instr mma --ab f16 --cd f32",
                                     t1 + "{\"a\":[1]}\n");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("tcfuzz: error: line 2: missing \"b\""), std::string::npos) << bad.out;
  ExpectOneLineError(
      Tcfuzz("oracle dot --arch sm_90 --instr tcgen05 --ab f16 --cd f32 < /dev/null"));
  // Hex columns (issue 22): A's K words, B's K words, C. 1*2 + 2*2 + 1 = 7 (0x40e00000); T1
  // as a hex line gives Hopper's 0x3F800001, as the JSON line did.
  const std::string hex = "oracle dot --arch sm_90 --instr mma --ab f16 --cd f32 --input hex";
  EXPECT_EQ(TcfuzzWithInput(hex, "3c00 4000\t4000 4000 3f800000\n\n").out, "40e00000\n");
  EXPECT_EQ(TcfuzzWithInput(hex,
                            "3c00 0800 0800 0800 0800 0800 3c00 0c00 0c00 0c00 0c00 0c00 "
                            "00000000\n")
                .out,
            "3f800001\n");
  const CliRun even = TcfuzzWithInput(hex, "3c00 4000 4000 3f800000\n");
  EXPECT_EQ(even.code, 2);
  EXPECT_NE(even.out.find("line 1: 4 words"), std::string::npos) << even.out;
  const CliRun short_word = TcfuzzWithInput(hex, "3c00 400 3f800000\n");
  EXPECT_EQ(short_word.code, 2);
  EXPECT_NE(short_word.out.find("word 2 is not 4 hex digits of f16"), std::string::npos)
      << short_word.out;
  ExpectOneLineError(
      Tcfuzz("oracle dot --arch sm_90 --instr mma --ab f16 --input csv < /dev/null"));
}

// A row no hardware has confirmed (tcgen05: no Blackwell was lent) is declined unless asked for;
// a hardware-backed row answers without a word on stderr.
TEST(Cli, OracleDotDeclinesRowsNoHardwareConfirmed) {
  const std::string line =
      "{\"a\":[\"38\"],\"b\":[\"38\"],\"c\":\"3f800000\"}\n";  // e4m3 1.0 x 1.0 + 1.0
  const CliRun declined =
      TcfuzzWithInput("oracle dot --arch sm_100 --instr tcgen05 --ab e4m3 --cd f32", line);
  ExpectOneLineError(declined);
  EXPECT_NE(declined.out.find("R100-tcgen05"), std::string::npos) << declined.out;
  EXPECT_NE(declined.out.find("--allow-unconfirmed"), std::string::npos) << declined.out;
  const CliRun allowed = TcfuzzWithInput(
      "oracle dot --arch sm_100 --instr tcgen05 --ab e4m3 --cd f32 --allow-unconfirmed", line);
  EXPECT_EQ(allowed.code, 0) << allowed.out;
  EXPECT_NE(allowed.out.find("tcfuzz: note: "), std::string::npos) << allowed.out;
  EXPECT_NE(allowed.out.find("{\"d\":\"40000000\"}"), std::string::npos)
      << allowed.out;  // 1 + 1 = 2, exact
  ExpectOneLineError(
      TcfuzzWithInput("oracle dot --arch sm_100 --instr tcgen05 --ab f16 --cd f32", line));
  // H100, 2026-11-25: wgmma fp8 -> f16 with a nonzero C is hardware-backed (R90-wgmma-fp8-f16).
  const CliRun confirmed =
      TcfuzzWithInput("oracle dot --arch sm_90 --instr wgmma --ab e4m3 --cd f16",
                      "{\"a\":[\"38\"],\"b\":[\"38\"],\"c\":\"3c00\"}\n");
  EXPECT_EQ(confirmed.out, "{\"d\":\"4000\"}\n");
  // mma.sync fp8 on sm_90 adds C last, rounded to nearest: 1 + 1.5 * 2^-24 -> 1 + 2^-23.
  const CliRun mma = TcfuzzWithInput("oracle dot --arch sm_90 --instr mma --ab e4m3 --cd f32",
                                     "{\"a\":[\"38\"],\"b\":[\"38\"],\"c\":\"33c00000\"}\n");
  EXPECT_EQ(mma.out, "{\"d\":\"3f800001\"}\n");
}

// Issue 32: every target and device name; a row borrowed from the same generation is declined as
// a hypothesis there, a target without a row says why.
TEST(Cli, OracleDotAndRowsTakeEveryTargetAndDeviceName) {
  const std::string line = "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"3f800000\"}\n";
  const CliRun a10 = TcfuzzWithInput("oracle dot --arch sm_86 --instr mma --ab f16 --cd f32", line);
  ExpectOneLineError(a10);
  EXPECT_NE(a10.out.find("the sm_80 row"), std::string::npos) << a10.out;
  EXPECT_NE(a10.out.find("not measured on sm_86"), std::string::npos) << a10.out;
  const CliRun allowed = TcfuzzWithInput(
      "oracle dot --arch A10 --instr mma --ab f16 --cd f32 --allow-unconfirmed", line);
  EXPECT_EQ(allowed.code, 0) << allowed.out;
  EXPECT_NE(allowed.out.find("{\"d\":\"40400000\"}"), std::string::npos) << allowed.out;  // 2 + 1
  const CliRun rtx4090 =
      TcfuzzWithInput("oracle dot --arch 'RTX 4090' --instr mma --ab f16 --cd f32", line);
  EXPECT_EQ(rtx4090.out, "{\"d\":\"40400000\"}\n");  // sm_89: measured (Ada captures)
  for (const char* none : {"sm_120", "'RTX 5090'", "sm_75"}) {
    const CliRun r =
        TcfuzzWithInput(std::string("oracle dot --arch ") + none + " --instr mma --ab f16", line);
    ExpectOneLineError(r);
    EXPECT_NE(r.out.find("no row"), std::string::npos) << r.out;
  }
  const CliRun unknown = TcfuzzWithInput("oracle dot --arch sm_99 --instr mma --ab f16", line);
  ExpectOneLineError(unknown);
  EXPECT_NE(unknown.out.find("sm_86"), std::string::npos) << unknown.out;
  const CliRun rows = Tcfuzz("oracle rows --arch A10");
  ASSERT_EQ(rows.code, 0) << rows.out;
  EXPECT_NE(rows.out.find("sm_86 (A10"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find("hypothesis  R80-mma"), std::string::npos) << rows.out;
  EXPECT_EQ(rows.out.find("R90-"), std::string::npos) << rows.out;  // only the sm_80 rows
}

// `oracle rows` lists what ParamsFor answers with its backing, in both forms.
TEST(Cli, OracleRowsAndReadings) {
  const CliRun text = Tcfuzz("oracle rows");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("sm_90   wgmma    e4m3  f16  13  32    -133  rne_f16    no   native    "
                          "hardware    R90-wgmma-fp8-f16"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("sm_90   mma      e4m3  f32  25  16    -133  rz_f32     no   via-f16   "
                          "hardware    R90-mma-fp8"),
            std::string::npos)
      << text.out;
  const CliRun json = Tcfuzz("oracle rows --json");
  ASSERT_EQ(json.code, 0) << json.out;
  const auto rows = nlohmann::json::parse(json.out);
  int hardware = 0, sm70 = 0;
  for (const auto& r : rows) {
    hardware += r["backing"] == "hardware";
    if (r["arch"] == "sm_70") {  // V100: f16 in, f16 or f32 out, F 23, L 4 (numerics reference §3)
      ++sm70;
      EXPECT_EQ(r["ab"], "f16");
      EXPECT_EQ(r["F"], 23);
      EXPECT_EQ(r["L"], 4);
      EXPECT_EQ(r["backing"], "hardware");
    }
  }
  EXPECT_EQ(sm70, 2);
  EXPECT_GT(hardware, 0);
  EXPECT_LT(hardware, static_cast<int>(rows.size()));
  const CliRun readings = Tcfuzz("oracle readings --json");
  ASSERT_EQ(readings.code, 0) << readings.out;
  bool s7 = false;
  for (const auto& r : nlohmann::json::parse(readings.out))
    s7 = s7 || (r["id"] == "S7" && r["backing"] == "spec");
  EXPECT_TRUE(s7);
}

TEST(Cli, ExplainSparseTableAndJson) {
  const CliRun t = Tcfuzz("explain sparse --shape m16n8k32 --type f16 --selector 1");
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_NE(t.out.find("selector 0..1"), std::string::npos);
  EXPECT_NE(t.out.find("SP1  hardware (seen on sm_90): mma.sp metadata bit placement"),
            std::string::npos)
      << t.out;
  const CliRun j = Tcfuzz("explain sparse --shape m16n8k32 --type f16 --selector 1 --json");
  ASSERT_EQ(j.code, 0) << j.out;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["a"].size(), 32u * 8);
  EXPECT_EQ(doc["metadata"].size(), 16u * 8);
  // k32 f16 is a sparse-only shape (B in two dense halves, SP2); plain .sp is SP5. explain sparse
  // names no target, so the H100's evidence shows as hardware, with seen_on saying where.
  auto ordered = nlohmann::ordered_json::parse(j.out);
  ExpectBacking(ordered, {{"SP0", "hardware"},
                          {"SP1", "hardware"},
                          {"SP3", "hardware"},
                          {"SP2", "hardware"},
                          {"SP5", "hardware"}});
  // Row/col formula of §9.7.14.6.2.2: a4 of lane 5 is row 1, columns 20..23.
  for (const auto& e : doc["a"]) {
    if (e["lane"] == 5 && e["reg"] == 2 && e["pos"] == 0) {
      EXPECT_EQ(e["row"], 1);
      EXPECT_EQ(e["first_col"], 20);
    }
  }
  ExpectOneLineError(Tcfuzz("explain sparse --shape m16n8k16 --type s8"));
  ExpectOneLineError(Tcfuzz("explain sparse --shape m16n8k16 --type f17"));
}

TEST(Cli, TilingCheckJsonAndErrors) {
  const std::string dir = TempDir("tiling");
  const std::string problem =
      R"({"M":64,"N":256,"K":256,"aType":"float16","bType":"float16","cType":"float32","biasType":"float32",)"
      R"("aFormat":"ND","bFormat":"ND","transA":false,"transB":false,"isBias":true,"schedule":"norm"})";
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/p.json", problem).ok());
  // The Huawei kernel-UT tiling of the reference (§8), every other field 0 but the L0 buffers.
  nlohmann::ordered_json t;
  for (std::string_view f : oracle::ascend::FieldNames()) t[std::string(f)] = 0;
  for (auto [f, v] : {std::pair{"usedCoreNum", 1},
                      {"M", 64},
                      {"N", 256},
                      {"Ka", 256},
                      {"Kb", 256},
                      {"singleCoreM", 64},
                      {"singleCoreN", 256},
                      {"singleCoreK", 256},
                      {"baseM", 32},
                      {"baseN", 64},
                      {"baseK", 256},
                      {"depthA1", 2},
                      {"depthB1", 4},
                      {"stepM", 1},
                      {"stepN", 2},
                      {"stepKa", 1},
                      {"stepKb", 1},
                      {"isBias", 1},
                      {"iterateOrder", 1},
                      {"dbL0A", 1},
                      {"dbL0B", 1},
                      {"dbL0C", 1}}) {
    t[f] = v;
  }
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/t.json", t.dump()).ok());
  const CliRun ok = Tcfuzz("tiling check --chip ascend910b2 --problem " + dir + "/p.json --json " +
                           dir + "/t.json");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_EQ(
      ok.out,
      "{\"kind\":\"tcube_tiling\",\"in_contract\":true,\"problem_violations\":[],\"legal\":true,"
      "\"violations\":[],\"warnings\":[]}\n");
  t["usedCoreNum"] = 25;
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/bad.json", t.dump()).ok());
  const CliRun bad = Tcfuzz("tiling check --chip Ascend910B2 --problem " + dir + "/p.json --json " +
                            dir + "/bad.json");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("\"rule\":\"tiling.used_core_num\""), std::string::npos) << bad.out;
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/short.bin", std::string(199, '\0')).ok());
  ExpectOneLineError(
      Tcfuzz("tiling check --chip Ascend910B2 --problem " + dir + "/p.json " + dir + "/short.bin"));
  ExpectOneLineError(
      Tcfuzz("tiling check --chip Ascend999 --problem " + dir + "/p.json " + dir + "/t.json"));
  ExpectOneLineError(
      Tcfuzz("tiling check --chip Ascend910B2 --problem " + dir + "/t.json " + dir + "/t.json"));
  ExpectOneLineError(
      Tcfuzz("tiling check --chip Ascend910B2 --problem " + dir + "/p.json " + dir + "/t.txt"));
  // A key given twice is an error in every JSON input, not "the last one wins" (issue 33): a
  // problem's M, a chip profile's L1 size.
  std::string twice = problem;
  twice.replace(1, 0, "\"M\":128,");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/twice.json", twice).ok());
  ExpectOneLineError(
      Tcfuzz("tiling check --chip Ascend910B2 --problem " + dir + "/twice.json " + dir + "/t.json"),
      "duplicate key \"M\"");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/chip.json",
                                      R"({"name": "Twice", "npu_arch": 2201, "ai_cores": 24, )"
                                      R"("vector_cores": 48, "l0a": 65536, "l0b": 65536, )"
                                      R"("l0c": 131072, "l1": 1, "l1": 524288, )"
                                      R"("l1_platform": 524288, "ub": 196608, "bias_table": 1024, )"
                                      R"("confirmed": false, "note": "x"})")
                  .ok());
  ExpectOneLineError(Tcfuzz("tiling check --chip " + dir + "/chip.json --problem " + dir +
                            "/p.json " + dir + "/t.json"),
                     "duplicate key \"l1\"");
  const CliRun sim = Tcfuzz("tiling simulate --numeric --chip Ascend910B2 --problem " + dir +
                            "/p.json " + dir + "/t.json");
  EXPECT_EQ(sim.code, 0) << sim.out;
  EXPECT_NE(sim.out.find("numeric: tiled product equals the plain matmul"), std::string::npos)
      << sim.out;
  EXPECT_NE(sim.out.find(" 0:0 "), std::string::npos)
      << sim.out;  // the picture: core 0, iteration 0
  // make -> check round trip through the JSON form.
  const CliRun made = Tcfuzz("tiling make --chip Ascend910B4 --problem " + dir + "/p.json");
  ASSERT_EQ(made.code, 0) << made.out;
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/made.json", made.out).ok());
  EXPECT_EQ(
      Tcfuzz("tiling check --chip Ascend910B4 --problem " + dir + "/p.json " + dir + "/made.json")
          .code,
      0);
  // A problem outside the contract (310P: 63 fp32 outputs a row are not 32-byte rows): the
  // tiling is not judged, the check says why and fails.
  std::string odd = problem;
  odd.replace(odd.find("\"N\":256"), 7, "\"N\":63");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/odd.json", odd).ok());
  const CliRun outside =
      Tcfuzz("tiling check --chip Ascend310P3 --problem " + dir + "/odd.json " + dir + "/t.json");
  EXPECT_EQ(outside.code, 1) << outside.out;
  EXPECT_NE(outside.out.find("problem outside the contract on Ascend310P3"), std::string::npos)
      << outside.out;
  EXPECT_NE(outside.out.find("problem.310p_output"), std::string::npos) << outside.out;
  const CliRun chips = Tcfuzz("tiling chips --json");
  EXPECT_EQ(chips.code, 0);
  EXPECT_GE(nlohmann::json::parse(chips.out).size(), 9u);
  std::filesystem::remove_all(dir);
}

TEST(Cli, TilingFuzzDrivesACommandTiler) {
  const std::string dir = TempDir("tiling_fuzz");
  // tcfuzz's own `tiling make`, run as an external command: reads the problem from stdin and
  // the chip from TCFUZZ_CHIP, so it must fuzz clean.
  const std::string tiler =
      std::string(TCFUZZ_BIN) + " tiling make --chip \\\"\\$TCFUZZ_CHIP\\\" --problem -";
  const CliRun r =
      Tcfuzz("tiling fuzz --seed 11 --cases 60 --report " + dir + " --tiler \"" + tiler + "\"");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("tcfuzz tiling fuzz: seed 11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("60 cases"), std::string::npos) << r.out;
  const auto summary = nlohmann::json::parse(suites::ReadFile(dir + "/summary.json").value());
  EXPECT_EQ(summary["cases"], 60);
  EXPECT_GT(summary["answered"].get<int>(), 0);
  // A tiler that always crashes: exit 1 and a finding with its reproducer.
  const CliRun crash = Tcfuzz("tiling fuzz --seed 1 --cases 5 --chip Ascend310P3 --report " + dir +
                              "/c --tiler 'kill -ABRT $$'");
  EXPECT_EQ(crash.code, 1) << crash.out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/c/reproducers/00-tiler.crash.txt")) << crash.out;
  ExpectOneLineError(Tcfuzz("tiling fuzz --cases 5 --tiler-l1 0"));
  ExpectOneLineError(Tcfuzz("tiling fuzz --cases 0"));
  ExpectOneLineError(Tcfuzz("tiling fuzz --cases 5 --time 3"));
  ExpectOneLineError(Tcfuzz("tiling fuzz --chip Ascend999 --cases 5"));
  ExpectOneLineError(Tcfuzz("tiling fuzz --timeout-ms 0 --cases 5"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, ExplainAndEncodeBatchesAnswerLikeTheSingleCommands) {
  // Generated descriptors and masks, one JSON line each: the batch's answer to each line is the
  // single command's --json answer, byte for byte.
  std::string lines, want;
  const char* kDescs[] = {"0x4000004000010000", "0xc000002000100000", "0x0", "0x40004000400140"};
  for (const char* d : kDescs) {
    lines += std::string(
                 R"({"kind":"smem","arch":"sm_90a","operand":"b","major":"mn","dtype":"bf16",)") +
             R"("rows":64,"kbytes":32,"desc":")" + d + "\"}\n";
    want += Tcfuzz(std::string("explain smem --arch sm_90a --operand b --major mn --dtype bf16 "
                               "--rows 64 --kbytes 32 --json ") +
                   d)
                .out;
    lines += std::string(R"({"kind":"zcm","m":64,"n":200,"desc":")") + d + "\"}\n\n";
    want += Tcfuzz(std::string("explain zcm --m 64 --n 200 --json ") + d).out;
  }
  const CliRun batch = TcfuzzWithInput("explain batch", lines);
  EXPECT_EQ(batch.code, 0) << batch.out;
  EXPECT_EQ(batch.out, want);
  const std::string layout = "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))";
  const CliRun enc =
      TcfuzzWithInput("encode batch", R"({"kind":"smem","arch":"sm_90a","dtype":"f16","layout":")" +
                                          layout + R"(","start":"0x400"})" + std::string("\n"));
  ASSERT_EQ(enc.code, 0) << enc.out;
  const auto j = nlohmann::json::parse(enc.out);
  const CliRun single =
      Tcfuzz("encode smem --arch sm_90a --dtype f16 --start 0x400 --layout '" + layout + "'");
  EXPECT_NE(single.out.find("descriptor " + j["desc"].get<std::string>()), std::string::npos)
      << single.out << enc.out;
  // A bad line is answered in its place with its number, and the batch goes on (issue 35); the
  // exit says some line was bad.
  const std::string good_zcm = R"({"kind":"zcm","m":128,"n":64,"desc":0})";
  const CliRun bad =
      TcfuzzWithInput("explain batch", good_zcm + "\n" + R"({"kind":"smem","arch":"sm_80"})" +
                                           "\n" + good_zcm + "\n");
  EXPECT_EQ(bad.code, 1);
  std::vector<nlohmann::json> answers;
  for (std::size_t at = 0, nl; (nl = bad.out.find('\n', at)) != std::string::npos; at = nl + 1)
    answers.push_back(nlohmann::json::parse(bad.out.substr(at, nl - at)));
  ASSERT_EQ(answers.size(), 3u) << bad.out;
  EXPECT_EQ(answers[0]["kind"], "zero_column_mask");
  EXPECT_EQ(answers[1],
            (nlohmann::json{{"line", 2}, {"error", "\"arch\": unknown value 'sm_80'"}}));
  EXPECT_EQ(answers[2], answers[0]);
  for (const char* line :
       {"[1]", "{\"kind\":\"smem2\"}", "{\"kind\":\"zcm\",\"m\":-1,\"n\":8,\"desc\":0}",
        "{\"kind\":\"zcm\",\"m\":128,\"n\":8,\"desc\":\"0x1ffffffffffffffff\"}",
        "{\"kind\":\"sparse\",\"shape\":\"m16n8k8\",\"type\":\"f16\"}",
        "{\"kind\":\"sparse\",\"shape\":\"m16n8k32\",\"type\":\"f16\",\"selector\":2}"}) {
    const CliRun r = TcfuzzWithInput("explain batch", std::string(line) + "\n");
    EXPECT_EQ(r.code, 1) << line << ": " << r.out;
    EXPECT_EQ(r.out.rfind("{\"error\":", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\"line\":1}\n"), std::string::npos) << r.out;
  }
  // The sparse kind answers as `explain sparse --json` does.
  const CliRun sparse = TcfuzzWithInput(
      "explain batch", R"({"kind":"sparse","shape":"m16n8k32","type":"f16","selector":1})"
                       "\n");
  EXPECT_EQ(sparse.code, 0) << sparse.out;
  EXPECT_EQ(sparse.out,
            Tcfuzz("explain sparse --shape m16n8k32 --type f16 --selector 1 --json").out);
  ExpectOneLineError(Tcfuzz("explain sparse --shape m16n8k32 --type f16 --selector 2"),
                     "--selector: 2 is past this form's 1");
}

TEST(Cli, BadArgumentsAreOneLineErrorsWithExitCode2) {
  ExpectOneLineError(Tcfuzz(
      "explain smem --arch sm_80 --operand a --major k --dtype f16 --rows 64 --kbytes 32 0"));
  ExpectOneLineError(Tcfuzz(
      "explain smem --arch sm_90a --operand c --major k --dtype f16 --rows 64 --kbytes 32 0"));
  ExpectOneLineError(Tcfuzz(
      "explain smem --arch sm_90a --operand a --major k --dtype fp16 --rows 64 --kbytes 32 0"));
  ExpectOneLineError(Tcfuzz(
      "explain smem --arch sm_90a --operand a --major k --dtype f16 --rows 0 --kbytes 32 0"));
  ExpectOneLineError(Tcfuzz(
      "explain smem --arch sm_90a --operand a --major k --dtype f16 --rows 64 --kbytes 20 0"));
  ExpectOneLineError(
      Tcfuzz("explain smem --arch sm_100a --operand a --major k --dtype f16 --rows 64 --kbytes 32 "
             "--svg /tmp/x.svg 0x6000000000000000"));
  ExpectOneLineError(Tcfuzz("explain zcm --m 64 --n 128 0xzz"));
  ExpectOneLineError(Tcfuzz("explain zcm --n 128 0x0"));
  ExpectOneLineError(Tcfuzz("explain zcm --m 64 --n 300 0x0"));
  ExpectOneLineError(Tcfuzz("explain zcm --m -1 --n 64 0x0"));
  ExpectOneLineError(Tcfuzz("explain zcm --m 64 --n 64 --idesc 0x100000000 0x0"));
  ExpectOneLineError(Tcfuzz("explain zcm --m sixty --n 64 0x0"));
  ExpectOneLineError(Tcfuzz("frobnicate"));
  ExpectOneLineError(Tcfuzz(""));
  ExpectOneLineError(Tcfuzz("run --cases 10 --time 5"));
  ExpectOneLineError(Tcfuzz("run --shard 3/2"));
  ExpectOneLineError(Tcfuzz("run --shard x"));
  ExpectOneLineError(Tcfuzz("run --seed -4"));
  ExpectOneLineError(Tcfuzz("run --time 0"));
  ExpectOneLineError(Tcfuzz("run --suite nope --cases 1"));
  ExpectOneLineError(Tcfuzz("replay /nonexistent/file.txt"));
}

TEST(Cli, HelpOnEveryCommand) {
  for (const char* cmd :
       {"--help", "explain --help", "explain zcm --help", "explain smem --help",
        "explain sparse --help", "encode smem --help", "oracle dot --help",
        "oracle captures --help", "tiling chips --help", "tiling check --help",
        "tiling simulate --help", "tiling make --help", "tiling fuzz --help", "repro --help",
        "minimize --help", "run --help", "replay --help", "rules --help"}) {
    const CliRun r = Tcfuzz(cmd);
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
  }
}

// RunCli builds only the group of the command named (CommandGroupTable): a group adding a
// top-level command its row does not list would make that command unreachable.
TEST(Cli, EveryGroupRowListsExactlyTheCommandsItsGroupAdds) {
  std::set<std::string> all;
  for (const cli::CommandGroupRow& row : cli::CommandGroupTable()) {
    CLI::App app;
    row.make()->Add(app);
    std::set<std::string> added, listed(row.commands.begin(), row.commands.end());
    for (const CLI::App* sub : app.get_subcommands({})) added.insert(sub->get_name());
    EXPECT_EQ(added, listed);
    for (const std::string& c : added) EXPECT_TRUE(all.insert(c).second) << c << " twice";
  }
  // The top-level help, built from every group, lists each of them.
  const CliRun help = Tcfuzz("--help");
  for (const std::string& c : all) EXPECT_NE(help.out.find("  " + c + " "), std::string::npos) << c;
  // A command of one group runs with only that group built, and errors still name the command's
  // own options.
  EXPECT_EQ(Tcfuzz("rules").code, 0);
  ExpectOneLineError(Tcfuzz("rules --cases 5"));
}

TEST(Cli, RunWritesSummaryAndJUnit) {
  const std::string dir = TempDir("run");
  const CliRun r = Tcfuzz("run --seed 77 --cases 2000 --no-progress --gpu off --report " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("seed 77"), std::string::npos);
  auto summary = nlohmann::json::parse(suites::ReadFile(dir + "/summary.json").value());
  // Every subject (issue 34): the three host suites, the toolchain scan's items (skipped, said
  // so, without a toolkit), the tiling fuzz, and the eight default GPU suites, skipped visibly.
  ASSERT_EQ(summary["suites"].size(), 13u);
  EXPECT_EQ(summary["suites"][3]["suite"], "toolchain");
  EXPECT_EQ(summary["suites"][4]["suite"], "tiling-fuzz");
  const bool toolkit = !summary["suites"][3].contains("skipped");
  EXPECT_EQ(summary["cases"].get<int>(), toolkit ? 10000 : 8000);  // 2000 per suite that ran
  for (int i = 5; i < 13; ++i) EXPECT_EQ(summary["suites"][i]["skipped"], "no GPU: --gpu off");
  // In the order of the kinds' registry (suites/kinds/case_kinds.cc), each kind's suites together;
  // not the narrower copy (sparse-mma-exact-f16k32) nor a suite no GPU has run yet
  // (tcgen05-judged).
  EXPECT_EQ(summary["suites"][5]["suite"], "sparse-mma");
  EXPECT_EQ(summary["suites"][6]["suite"], "sparse-mma-exact");
  EXPECT_EQ(summary["suites"][7]["suite"], "sparse-mma-judged");
  EXPECT_EQ(summary["suites"][8]["suite"], "dense-mma");
  EXPECT_EQ(summary["suites"][9]["suite"], "dense-mma-judged");
  EXPECT_EQ(summary["suites"][10]["suite"], "smem-hw");
  EXPECT_EQ(summary["suites"][11]["suite"], "smem-hw-judged");
  EXPECT_EQ(summary["suites"][12]["suite"], "tcgen05");
  ExpectOneLineError(Tcfuzz("run --gpu maybe"));
  EXPECT_EQ(summary["seed"].get<int>(), 77);
  EXPECT_TRUE(suites::ReadFile(dir + "/junit.xml").ok());
  std::filesystem::remove_all(dir);
}

TEST(Cli, ReplayPassesCorpusAndFailsARefutedExpectation) {
  const CliRun pass = Tcfuzz(std::string("replay ") + TCFUZZ_SOURCE_DIR +
                             "/corpus/zero_column_mask/seed/spec_example_4_m32.txt");
  EXPECT_EQ(pass.code, 0) << pass.out;
  EXPECT_EQ(pass.out.rfind("PASS ", 0), 0u) << pass.out;

  const std::string dir = TempDir("replay");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/wrong.txt",
                                      "tcfuzz-text 1\ntool = t\nkind = zero_column_mask\n"
                                      "m = 128\nn = 64\nsparse = 0\ndesc = 0x0\n"
                                      "expect.rules = zcm.shift_max\n")
                  .ok());
  const CliRun fail = Tcfuzz("replay " + dir + "/wrong.txt");
  EXPECT_EQ(fail.code, 1) << fail.out;
  EXPECT_NE(fail.out.find("FAIL " + dir + "/wrong.txt expect_rules"), std::string::npos)
      << fail.out;

  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/bad.txt",
                                      "tcfuzz-text 1\ntool = t\nkind = zero_column_mask\n"
                                      "m = 128\nn = lots\n")
                  .ok());
  const CliRun bad = Tcfuzz("replay " + dir + "/bad.txt");
  ExpectOneLineError(bad);
  EXPECT_NE(bad.out.find("line 5: n: 'lots' is not a number"), std::string::npos) << bad.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, ReplayOfADeviceCaseChecksTheOracleAgainstWhatTheDeviceReturned) {
  // A real H100 capture (corpus/sparse_mma/h100) written as the sparse-mma GPU suite writes its
  // reproducers (origin.gpu names the arithmetic row): the oracle agrees with the device...
  auto capture =
      suites::ReadFile(std::string(TCFUZZ_SOURCE_DIR) +
                       "/corpus/sparse_mma/h100/m16n8k16.bf16_ordered_sel1_f32_random_084.txt");
  ASSERT_TRUE(capture.ok()) << capture.error();
  const std::string dir = TempDir("replay_device");
  std::string text = capture.value() + "origin.gpu = sm_90\norigin.outcome = mismatch\n";
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/agrees.txt", text).ok());
  const CliRun pass = Tcfuzz("replay " + dir + "/agrees.txt");
  EXPECT_EQ(pass.code, 0) << pass.out;
  // ...and a device result changed in one bit is a mismatch that names the element.
  const std::size_t at = text.find("observed.2 = ");
  ASSERT_NE(at, std::string::npos);
  const std::size_t digit = text.find_first_of("0123456789abcdef", at + 13);
  text[digit] = text[digit] == '0' ? '1' : '0';
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/differs.txt", text).ok());
  const CliRun fail = Tcfuzz("replay " + dir + "/differs.txt");
  EXPECT_EQ(fail.code, 1) << fail.out;
  EXPECT_NE(fail.out.find("sparse.device_mismatch: D[2][0]"), std::string::npos) << fail.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, ReproEmitsAStandaloneCudaFile) {
  const std::string dir = TempDir("repro");
  const std::string capture =
      std::string(TCFUZZ_SOURCE_DIR) +
      "/corpus/sparse_mma/h100/m16n8k16.bf16_ordered_sel1_f32_random_084.txt";
  const CliRun r = Tcfuzz("repro " + capture + " --emit-cu " + dir + "/repro.cu");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string cu = suites::ReadFile(dir + "/repro.cu").value();
  // The instruction as inline asm with numbered operands, the case's registers, the oracle's D
  // and the device's D from the capture, and no tcfuzz header.
  EXPECT_NE(
      cu.find(
          "asm volatile(\"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
          "{%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;\""),
      std::string::npos);
  EXPECT_NE(cu.find("static const uint32_t kFound[16][8]"), std::string::npos);
  EXPECT_EQ(cu.find("#include \"oracle"), std::string::npos);
  EXPECT_EQ(cu.find("tcfuzz::"), std::string::npos);
  // The capture's D row 2 starts 73674000 (see the file): it is the first word of kFound's row 2.
  EXPECT_NE(cu.find("{0x73674000u, 0xff800000u"), std::string::npos);
#ifdef TCFUZZ_NVCC
  // It builds with nvcc alone (running it needs a GPU: gpu_tests does that).
  const std::string cmd =
      std::string(TCFUZZ_NVCC) + " -arch=sm_90a -o " + dir + "/repro " + dir + "/repro.cu 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
#endif
  ExpectOneLineError(Tcfuzz("repro " + std::string(TCFUZZ_SOURCE_DIR) +
                            "/corpus/zero_column_mask/seed/spec_example_4_m32.txt --emit-cu " +
                            dir + "/x.cu"));
  ExpectOneLineError(Tcfuzz("repro /nonexistent.txt --emit-cu " + dir + "/x.cu"));
  ExpectOneLineError(Tcfuzz("repro " + capture + " --emit-cu " + dir + "/y.cu --gpu-row sm_42"));
  std::filesystem::remove_all(dir);
}

// Dense and descriptor-tile cases become driver-API CUDA files: the harness's module, the case's
// buffers, the output-to-D table, the oracle's D and the found D; they compile with nvcc alone.
TEST(Cli, ReproEmitsDenseAndTileCasesAsStandaloneDriverFiles) {
  const std::string dir = TempDir("repro_launch");
  gen::RandomSource s(3);
  const gen::GeneratedDense dense = gen::DrawDense(s);
  std::vector<uint32_t> found =
      oracle::mma::DenseReference(dense.tile, oracle::num::ExactParams(dense.tile.cd));
  found[5] ^= 1;
  oracle::TextWriter dw(oracle::mma::kDenseKind);
  oracle::mma::AppendDenseCase(dw, dense.tile, &found);
  dw.Add("origin.gpu", "sm_90");
  dw.Add("origin.mode", std::string(gen::Name(dense.mode)));
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/dense.txt", dw.str()).ok());
  gen::GeneratedTile tile = gen::DrawWgmmaTile(s);
  while (tile.tile.d != oracle::num::Format::kF16)
    tile = gen::DrawWgmmaTile(s);  // halves in the map
  oracle::TextWriter tw(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(tw, tile.tile, tile.fill);
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/tile.txt", tw.str()).ok());
  for (const std::string name : {"dense", "tile"}) {
    const CliRun r =
        Tcfuzz("repro " + dir + "/" + name + ".txt --emit-cu " + dir + "/" + name + ".cu");
    ASSERT_EQ(r.code, 0) << r.out;
    const std::string cu = suites::ReadFile(dir + "/" + name + ".cu").value();
    EXPECT_NE(cu.find("CHECK(cuModuleLoadData(&mod, kPtx));"), std::string::npos);
    EXPECT_NE(cu.find(name == "dense" ? ".entry tcfuzz_mma_dense" : ".entry tcfuzz_wgmma"),
              std::string::npos);
    EXPECT_EQ(cu.find("tcfuzz::"), std::string::npos);
    EXPECT_EQ(cu.find("kFound") != std::string::npos, name == "dense");
#ifdef TCFUZZ_NVCC
    const std::string cmd = std::string(TCFUZZ_NVCC) + " -arch=sm_90a -c -o " + dir + "/" + name +
                            ".o " + dir + "/" + name + ".cu 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
#endif
  }
  // An fp8 small-integer case on a target without an fp8 row (sm_70): its D is exact in every
  // row, so it is emitted; the same case drawn with random values is refused there, and emitted
  // for sm_90 (R90-mma-fp8).
  gen::RandomSource f8(5);
  gen::GeneratedDense e4m3 = gen::DrawDense(f8);
  while (e4m3.tile.a_type != oracle::num::Format::kE4M3 || e4m3.mode != gen::ValueMode::kSmallInt)
    e4m3 = gen::DrawDense(f8);
  for (const char* gpu : {"sm_70", "sm_90"}) {
    for (const char* mode : {"small_int", "random"}) {
      oracle::TextWriter fw(oracle::mma::kDenseKind);
      oracle::mma::AppendDenseCase(fw, e4m3.tile);
      fw.Add("origin.gpu", gpu);
      fw.Add("origin.mode", mode);
      ASSERT_TRUE(suites::WriteFileAtomic(dir + "/e4m3.txt", fw.str()).ok());
      const CliRun r = Tcfuzz("repro " + dir + "/e4m3.txt --emit-cu " + dir + "/e4m3.cu");
      const bool refused = std::string(gpu) == "sm_70" && std::string(mode) == "random";
      EXPECT_EQ(r.code, refused ? 2 : 0) << gpu << " " << mode << ": " << r.out;
    }
  }
  // The tile's table follows wgmma's fragment map (PTX 9.1 §9.7.15.5.1.1): thread 0 holds D(0,0)
  // and D(0,1) in the low and high half of its first register, output word 1 (word 0 is the
  // shared buffer's address).
  const std::string tile_cu = suites::ReadFile(dir + "/tile.cu").value();
  EXPECT_NE(tile_cu.find("static const uint32_t kWord[] = {0x00000001u, 0x00000001u"),
            std::string::npos);
  EXPECT_NE(tile_cu.find("static const uint32_t kHalf[] = {0x00000000u, 0x00000001u"),
            std::string::npos);
  const CliRun other = Tcfuzz("repro " + std::string(TCFUZZ_SOURCE_DIR) +
                              "/corpus/smem_descriptor/seed/base_offset_row1_128b.txt" +
                              " --emit-cu " + dir + "/x.cu");
  ExpectOneLineError(other);
  EXPECT_NE(other.out.find("repro takes sparse_mma, dense_mma or wgmma_tile case files"),
            std::string::npos)
      << other.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, MinimizeNeedsAGpuAndSaysSo) {
  const suites::DeviceProbe device = suites::ProbeInWorker({TCFUZZ_BIN});
  if (device.available) GTEST_SKIP() << "a GPU is present: gpu_tests minimizes on it";
  const std::string dir = TempDir("minimize");
  const CliRun r =
      Tcfuzz("minimize " + std::string(TCFUZZ_SOURCE_DIR) +
             "/corpus/sparse_mma/h100/n4_tf32_m16n8k8_signed_zero.txt --out " + dir + "/m.txt");
  ExpectOneLineError(r);
  EXPECT_NE(r.out.find("minimize runs the case on a GPU: no GPU"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.txt"));
  ExpectOneLineError(Tcfuzz("minimize /nonexistent.txt"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, RulesListsEveryRuleWithItsSection) {
  const CliRun r = Tcfuzz("rules --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rules = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& rule : rules) {
    EXPECT_FALSE(rule["section"].get<std::string>().empty());
    found |= rule["rule"] == "zcm.shift_max";
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace tcfuzz
