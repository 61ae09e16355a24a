// Issue 18: what a user types or points tcfuzz at may not crash it, hang it or destroy a file.
// Every special file here is private (a FIFO and links in a temporary folder); /dev/null is only
// written to, as a user's `--emit-cu /dev/null` would.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "suites/engine/atomic_file.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz {
namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

// The tool with stdout and stderr kept apart.
Outcome Tcfuzz(const std::string& args, const std::string& dir, const std::string& env = "") {
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string cmd =
      env + " " + std::string(TCFUZZ_BIN) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, suites::ReadFile(out).value(),
          suites::ReadFile(err).value()};
}

// One line on stderr, nothing on stdout, exit 2.
void ExpectOneLineError(const Outcome& r, const std::string& says) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("tcfuzz: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

bool IsFifo(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

const std::string kSmem =
    "explain smem --arch sm_90a --operand a --major k --dtype bf16 --rows 64 --kbytes 32";
const std::string kCase =
    std::string(TCFUZZ_SOURCE_DIR) + "/corpus/case_text/seed/sparse_h100_bf16.txt";

TEST(HostileInput, OutputPathsAreNeverReplaced) {
  const std::string dir = test::TempDir("hostile_out");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A FIFO with no reader: an error, not a hang, and the FIFO is still one.
  ExpectOneLineError(Tcfuzz(kSmem + " --svg " + fifo + " 0x4000004000010808", dir),
                     "a FIFO with no reader");
  EXPECT_TRUE(IsFifo(fifo));
  // A symbolic link is followed: its target gets the file, the link stays a link.
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/target.cu", "old").ok());
  ASSERT_EQ(::symlink("target.cu", (dir + "/link.cu").c_str()), 0);
  const Outcome linked = Tcfuzz("repro " + kCase + " --emit-cu " + dir + "/link.cu", dir);
  EXPECT_EQ(linked.code, 0) << linked.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/link.cu"));
  EXPECT_NE(suites::ReadFile(dir + "/target.cu").value().find("__global__"), std::string::npos);
  // /dev/null takes the file and stays a device.
  EXPECT_EQ(Tcfuzz("repro " + kCase + " --emit-cu /dev/null", dir).code, 0);
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  std::filesystem::remove_all(dir);
}

TEST(HostileInput, InputsThatAreNotFilesAreRefusedAtOnce) {
  const std::string dir = test::TempDir("hostile_in");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ExpectOneLineError(Tcfuzz("replay " + fifo, dir), "not a regular file");
  ExpectOneLineError(Tcfuzz("replay /dev/zero", dir), "not a regular file");
  ExpectOneLineError(Tcfuzz("replay " + dir, dir), "is a folder");
  ExpectOneLineError(Tcfuzz("tiling check --chip Ascend910B2 --problem " + fifo + " " + fifo, dir),
                     "not a regular file");
  std::filesystem::remove_all(dir);
}

TEST(HostileInput, DeepNestingBadTmpdirAndErrorsOnStderr) {
  const std::string dir = test::TempDir("hostile_misc");
  ExpectOneLineError(Tcfuzz("encode smem --arch sm_100a --dtype bf16 --layout \"" +
                                std::string(30000, '(') + "1:1\"",
                            dir),
                     "nested deeper than 8");
  ExpectOneLineError(Tcfuzz("minimize " + kCase, dir, "TMPDIR=/nonexistent"),
                     "no temporary folder");
  ExpectOneLineError(Tcfuzz("run --suite bogus --cases 1 --report " + dir + "/r", dir),
                     "unknown suite 'bogus'");
  std::filesystem::remove_all(dir);
}

// One number parser for every option: no wrap, no octal, no infinity, no empty value.
TEST(HostileInput, NumbersAreParsedOneWay) {
  const std::string dir = test::TempDir("hostile_numbers");
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {"run --cases -1", "--cases: '-1' is not a number"},
           {"run --cases 18446744073709551616", "does not fit in 64 bits"},
           {"tiling fuzz --cases -1", "--cases: '-1' is not a number"},
           {"run --cases-per-launch -1", "--cases-per-launch: '-1' is not a number"},
           {"worker --seed -1", "--seed: '-1' is not a number"},
           {"worker --plant-fault=-1", "--plant-fault: '-1' is not a number"},
           {"worker --plant-hang 7 -1", "--plant-hang: '-1' is not a number"},
           {"run --time inf", "--time: must be a number of seconds"},
           {"run --time 1e309", "--time: must be a number of seconds"},
           {"run --seed ''", "--seed: an empty value"},
           {"run --shard ''", "--shard: an empty value"},
           {"explain zcm --m 64 --n 257 0x0", "--n: 257 exceeds the maximum 256"},
           {"explain zcm --m 64 --n 0x101 0x0", "--n: 0x101 exceeds the maximum 0x100"},
           // Quoted as written, 0x and all.
           {"explain zcm --m 64 --n 64 0x1ffffffffffffffff",
            "DESC: number '0x1ffffffffffffffff' does not fit in 64 bits"},
           // Every option is checked before the note on an unconfirmed row: no note, one error.
           {"oracle dot --arch sm_100 --instr tcgen05 --ab e2m1 --allow-unconfirmed --input xml",
            "--input: want json or hex, not 'xml'"},
       }) {
    ExpectOneLineError(Tcfuzz(args, dir), says);
  }
  // 010 is ten, as in a descriptor or a file, not octal eight.
  const Outcome ten = Tcfuzz("explain zcm --m 64 --n 010 --json 0x0", dir);
  EXPECT_EQ(ten.code, 0) << ten.err;
  EXPECT_NE(ten.out.find("\"n\":10"), std::string::npos) << ten.out;
  // A chip profile's core count past 2^31 is refused, not read as 1.
  ASSERT_TRUE(suites::WriteFileAtomic(
                  dir + "/chip.json",
                  R"({"name":"x","ai_cores":4294967297,"l0a":65536,"l0b":65536,"l0c":131072,)"
                  R"("l1":524288,"ub":196608})")
                  .ok());
  ExpectOneLineError(Tcfuzz("tiling make --chip " + dir + "/chip.json --problem -", dir),
                     "ai_cores must be an integer");
  std::filesystem::remove_all(dir);
}

// Patterns go to one matcher with a linear bound (suites/engine/glob.h), not glibc's extglob.
TEST(HostileInput, PatternsAreBounded) {
  const std::string dir = test::TempDir("hostile_patterns");
  std::string nested;
  for (int i = 0; i < 3000; ++i) nested += "@(";
  ExpectOneLineError(Tcfuzz("toolchain scan --forms '" + nested + "m'", dir),
                     "pattern longer than 4096");
  ExpectOneLineError(Tcfuzz("toolchain scan --forms '*(*(*(*(m))))zzz'", dir),
                     "no form key matches");
  // 60 alternatives after stars kept about 1,800 automaton states active a character: every
  // form key took more than 20 s in all; now each character is a step of the kept states.
  std::string alternatives = "@(*";
  for (int i = 1; i < 60; ++i) alternatives += "|*" + std::string(i, '?');
  ExpectOneLineError(Tcfuzz("toolchain scan --forms '" + alternatives + ")x'", dir),
                     "no form key matches");
  ASSERT_TRUE(
      suites::WriteFileAtomic(
          dir + "/exp.txt",
          "toolkit=13.0 verdict=accept target=@(@(@(@(@(@(@(@(@(sm_90))))))))) form=x  # why\n")
          .ok());
  ExpectOneLineError(Tcfuzz("toolchain scan --expectations " + dir + "/exp.txt", dir),
                     "expectations line 1: target: @( nested deeper");
  std::filesystem::remove_all(dir);
}

// Messages say what is wrong, on one line, whatever the input holds.
TEST(HostileInput, MessagesSayWhatIsWrong) {
  const std::string dir = test::TempDir("hostile_messages");
  ExpectOneLineError(Tcfuzz("bogus", dir), "'bogus' is not a command (explain");
  // A command of commands names the word it does not know, and its own (CLI11 said only "A
  // subcommand is required").
  ExpectOneLineError(Tcfuzz("explain bogus", dir),
                     "explain has no command 'bogus' (zcm, batch, smem, sparse)");
  ExpectOneLineError(Tcfuzz("oracle \"$(printf '\\377\\001x')\"", dir),
                     "oracle has no command '\\xff\\x01x' (dot,");
  ExpectOneLineError(Tcfuzz("tiling", dir), "tiling: name one of its commands (chips, check,");
  ExpectOneLineError(Tcfuzz("oracle captures --dir /nonexistent", dir),
                     "--dir: /nonexistent is not a folder");
  ExpectOneLineError(Tcfuzz("toolchain scan --assembler ptxas --ptxas /nonexistent", dir),
                     "--ptxas: /nonexistent is not an executable file");
  ExpectOneLineError(
      Tcfuzz("tiling fuzz --tiler /nonexistent/tiler --cases 3 --report " + dir + "/tf", dir),
      "--tiler: '/nonexistent/tiler' is not an executable file");
  // A folder is searchable, so access(X_OK) passes it; it is still no program (issue 33).
  ExpectOneLineError(
      Tcfuzz("tiling fuzz --tiler " + dir + " --cases 3 --report " + dir + "/tf", dir),
      "--tiler: '" + dir + "' is not an executable file");
  ExpectOneLineError(Tcfuzz("oracle captures --dir '/no\nsuch'", dir),
                     "--dir: /no\\nsuch is not a folder");
  // A newline inside an argument stays inside the one line.
  ExpectOneLineError(Tcfuzz(kSmem.substr(0, kSmem.find("--arch")) + "--arch 'sm_90a\nX'" +
                                kSmem.substr(kSmem.find(" --operand")) + " 0",
                            dir),
                     "--arch: 'sm_90a\\nX' is not one of");
  // An option where a value belongs is named, not the word CLI11 found left over after it.
  ExpectOneLineError(Tcfuzz("run --report --cases 5", dir),
                     "--report: '--cases' is an option, not a value");
  ExpectOneLineError(Tcfuzz("run --cases 5 --report -x", dir),
                     "--report: '-x' is an option, not a value");
  EXPECT_FALSE(std::filesystem::exists("-x"));
  ExpectOneLineError(Tcfuzz("tiling fuzz --tiler --cases 3", dir),
                     "--tiler: '--cases' is an option, not a value");
  // A flag is no option that takes a value: the error is the one CLI11 found, not "--strict:".
  for (const std::string& args : std::vector<std::string>{
           "run --strict --cases 5 --cases 6", "run --no-progress --report " + dir + "/r --bogus",
           "rules --json --bogus"}) {
    const Outcome r = Tcfuzz(args, dir);
    ExpectOneLineError(r, "tcfuzz: error: ");
    EXPECT_EQ(r.err.find("is an option, not a value"), std::string::npos) << args << r.err;
  }
  // Every option that names something refuses an empty value (13 were silently ignored).
  for (const std::string& args : std::vector<std::string>{
           "explain zcm --m 32 --n 128 --idesc '' 0x1", kSmem + " --svg '' 0",
           "run --expectations '' --cases 1", "tiling fuzz --tiler '' --cases 1",
           "toolchain scan --forms ''", "toolchain scan --expectations ''",
           "tiling check --chip '' --problem p.json t.json", "run --report '' --cases 1"})
    ExpectOneLineError(Tcfuzz(args, dir), "an empty value (it must name something)");
  // A file that is there but is no program.
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/notes.txt", "not a tiler\n").ok());
  ExpectOneLineError(
      Tcfuzz("tiling fuzz --tiler " + dir + "/notes.txt --cases 3 --report " + dir + "/tf", dir),
      "is not an executable file");
  // A bad origin.gpu in a file is reported as the file's, not as --gpu-row.
  std::string text = suites::ReadFile(kCase).value();
  text += "origin.gpu = sm_42\n";
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/bad_gpu.txt", text).ok());
  ExpectOneLineError(Tcfuzz("repro " + dir + "/bad_gpu.txt --emit-cu " + dir + "/x.cu", dir),
                     "bad_gpu.txt: origin.gpu: 'sm_42' is not one of");
  std::filesystem::remove_all(dir);
}

// Issue 33: a shard's summary.json is untrusted input. A 60,000-deep array crashed `merge` and
// `run --resume` (nlohmann's ordered_json copied subtrees recursively when its object grew),
// 100,000 keys took half a minute (ordered_json inserts in linear time), and a duplicate or an
// unknown key was taken silently. Now: one line and exit 2, or a merge, at once.
TEST(HostileInput, ShardReportsAreUntrustedJson) {
  const std::string dir = test::TempDir("hostile_json");
  const Outcome run = Tcfuzz(
      "run --suite zero-column-mask --cases 100 --seed 1 --no-progress "
      "--report " +
          dir + "/shard",
      dir);
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string good = suites::ReadFile(dir + "/shard/summary.json").value();
  const auto shard = [&](const std::string& name, const std::string& extra) {
    std::filesystem::create_directories(dir + "/" + name);
    std::string text = good;
    text.replace(text.find("\"tool\""), 0, extra);
    EXPECT_TRUE(suites::WriteFileAtomic(dir + "/" + name + "/summary.json", text).ok());
    return dir + "/" + name;
  };
  const std::string deep =
      shard("deep", "\"x\": " + std::string(60000, '[') + std::string(60000, ']') + ", ");
  ExpectOneLineError(Tcfuzz("merge " + deep + " --report " + dir + "/m1", dir),
                     "nested deeper than 64 levels");
  ExpectOneLineError(Tcfuzz("run --resume " + deep, dir), "nested deeper than 64 levels");
  ExpectOneLineError(
      Tcfuzz("merge " + shard("dup", "\"seed\": 1, ") + " --report " + dir + "/m2", dir),
      "duplicate key \"seed\"");
  std::string keys = "\"y\": {";
  for (int k = 0; k < 100000; ++k) keys += (k ? ",\"k" : "\"k") + std::to_string(k) + "\":1";
  // Read in linear time, then refused for the key no summary has.
  ExpectOneLineError(
      Tcfuzz("merge " + shard("wide", keys + "}, ") + " --report " + dir + "/m3", dir),
      "unknown key 'y' in the summary");
  // A summary.json that is a link reads what it points at: refused, whatever that is.
  std::filesystem::create_directories(dir + "/linked");
  std::filesystem::create_symlink(dir + "/shard/summary.json", dir + "/linked/summary.json");
  ExpectOneLineError(Tcfuzz("merge " + dir + "/linked --report " + dir + "/m4", dir),
                     "linked/summary.json: a link (links are not followed)");
  // The totals are the suites' sums: a hand-edited one (2^64-1 cases) is refused, not ignored.
  std::string total = good;
  total.replace(total.find("\"cases\": 100,\n  \"failed\""), 12, "\"cases\": 18446744073709551615");
  std::filesystem::create_directories(dir + "/total");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/total/summary.json", total).ok());
  ExpectOneLineError(Tcfuzz("merge " + dir + "/total --report " + dir + "/m5", dir),
                     "\"cases\" is 18446744073709551615, not the suites' 100");
  // 20,000 families and as many declared ones: every one merged (writing them was quadratic,
  // minutes at 100,000: suites/bench/report_bench.cc measures it).
  std::string wide = good, families, declared;
  for (int k = 0; k < 20000; ++k) {
    families +=
        "\"fam." + std::to_string(k) + "\": {\"cases\": 0, \"failed\": 0, \"expected\": 0}, ";
    declared += "\"decl." + std::to_string(k) + "\", ";
  }
  wide.insert(wide.find("\"families\": {") + 13, families);
  wide.insert(wide.find("\"declared_families\": [") + 22, declared);
  std::filesystem::create_directories(dir + "/families");
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/families/summary.json", wide).ok());
  const Outcome merged = Tcfuzz("merge " + dir + "/families --report " + dir + "/m6", dir);
  EXPECT_EQ(merged.code, 0) << merged.err;
  const std::string merged_summary = suites::ReadFile(dir + "/m6/summary.json").value();
  EXPECT_NE(merged_summary.find("\"fam.19999\": {"), std::string::npos);
  EXPECT_NE(merged_summary.find("\"decl.19999\""), std::string::npos);
  EXPECT_NE(suites::ReadFile(dir + "/m6/junit.xml").value().find("name=\"fam.19999\""),
            std::string::npos);
}

// Issue 33: output that cannot be written is an error. Every command exited 0 into a full disk or
// a closed pipe, and `run | head -1` died of SIGPIPE with no report.
TEST(HostileInput, OutputThatCannotBeWrittenIsAnError) {
  const std::string dir = test::TempDir("hostile_stdout");
  const std::string bin = TCFUZZ_BIN;
  const auto status = [&](const std::string& cmd) {
    const int s = std::system(("bash -c 'set -o pipefail; " + cmd + "' 2>" + dir + "/err").c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  };
  const auto err = [&] { return suites::ReadFile(dir + "/err").value(); };
  EXPECT_EQ(status(bin + " rules >/dev/full"), 2);
  EXPECT_EQ(err().rfind("tcfuzz: error: standard output: ", 0), 0u) << err();
  EXPECT_EQ(err().find('\n'), err().size() - 1) << err();
  // More output than a pipe holds, so the writer is still writing when the reader goes.
  std::string lines;
  for (int i = 0; i < 20000; ++i)
    lines += "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"3f800000\"}\n";
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/dots.jsonl", lines).ok());
  EXPECT_EQ(status(bin + " oracle dot --arch sm_90 --instr mma --ab f16 < " + dir +
                   "/dots.jsonl | head -c 1 >/dev/null"),
            2);
  EXPECT_NE(err().find("tcfuzz: error: standard output:"), std::string::npos) << err();
  // A run whose reader went away (the first suite's line raises SIGPIPE) stops before the next
  // suite with its report, marked interrupted. The first suite is long enough (about 0.4 s) for
  // the reader to be gone by its line even on a loaded machine: with 20,000 cases the whole run
  // sometimes fit into the pipe before `head` exited.
  EXPECT_EQ(status(bin + " run --suite zero-column-mask --suite smem --cases 200000 --seed 1 " +
                   "--no-progress --report " + dir + "/r | head -c 1 >/dev/null"),
            2);
  const auto summary = suites::ReadFile(dir + "/r/summary.json");
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_NE(summary.value().find("\"interrupted\": true"), std::string::npos);
  // A closed stdout, for every kind of command: one line, exit 2.
  for (const std::string& args :
       {std::string("rules"), std::string("--version"), kSmem + " 0",
        "oracle captures --dir " + dir,
        "run --suite zero-column-mask --cases 10 --report " + dir + "/closed"}) {
    EXPECT_EQ(status(bin + " " + args + " >&-"), 2) << args;
    EXPECT_EQ(err().rfind("tcfuzz: error: ", 0), 0u) << args << err();
    EXPECT_EQ(err().find('\n'), err().size() - 1) << args << err();
  }
  // The batch readers into a full disk, and an answer on an unconfirmed row (its note comes only
  // with written answers): the one error line, no note before it.
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/one.jsonl",
                                      "{\"a\":[\"3c00\"],\"b\":[\"4000\"],\"c\":\"0\"}\n")
                  .ok());
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/zcm.jsonl",
                                      "{\"kind\":\"zcm\",\"m\":128,\"mask\":\"0x1\"}\nnot json\n")
                  .ok());
  for (const std::string& cmd :
       {bin + " oracle dot --arch sm_100 --instr tcgen05 --ab f16 --allow-unconfirmed < " + dir +
            "/one.jsonl >/dev/full",
        bin + " explain batch < " + dir + "/zcm.jsonl >/dev/full",
        bin + " encode batch < " + dir + "/zcm.jsonl >/dev/full"}) {
    EXPECT_EQ(status(cmd), 2) << cmd;
    EXPECT_EQ(err().rfind("tcfuzz: error: ", 0), 0u) << cmd << err();
    EXPECT_EQ(err().find('\n'), err().size() - 1) << cmd << err();
  }
}

// Issue 33: the lines that say where a report went printed its path raw, so a folder named with
// a newline split them; every path a status line names goes through the one quoting function.
TEST(HostileInput, StatusLinesQuoteThePathsTheyName) {
  const std::string dir = test::TempDir("hostile_status");
  const std::string odd = dir + "/r\nX";
  for (const std::string& args :
       {"run --suite zero-column-mask --cases 10 --no-progress --report '" + odd + "'",
        "repro " + kCase + " --emit-cu '" + odd + ".cu'"}) {
    const Outcome r = Tcfuzz(args, dir);
    EXPECT_LE(r.code, 1) << args << r.err;
    const std::string all = r.out + r.err;
    EXPECT_EQ(all.find("r\nX"), std::string::npos) << args << all;
    EXPECT_NE(all.find("r\\nX"), std::string::npos) << args << all;
  }
  // /dev/stdout is the stream, through a pipe too: the program, then the line saying so.
  const Outcome piped = Tcfuzz("repro " + kCase + " --emit-cu /dev/stdout | cat", dir);
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(piped.out.rfind("// Reproducer emitted by tcfuzz", 0), 0u) << piped.out;
  EXPECT_NE(piped.out.find("\nwrote /dev/stdout ("), std::string::npos) << piped.out;
  std::filesystem::remove_all(dir);
}

// Issue 33: an error line quoting a 128 KiB value stays a bounded line.
TEST(HostileInput, LongValuesMakeBoundedErrorLines) {
  const std::string dir = test::TempDir("hostile_long");
  const Outcome r = Tcfuzz("replay " + dir + "/" + std::string(3000, 'x'), dir);
  ExpectOneLineError(r, "tcfuzz: error: ");
  EXPECT_LT(r.err.size(), 1100u) << r.err.size();
  // What is wrong comes after the value: it stays (the line keeps both ends).
  const Outcome tiler = Tcfuzz("tiling fuzz --cases 1 --report " + dir + "/t --tiler " + dir + "/" +
                                   std::string(100 << 10, 'x'),
                               dir);
  ExpectOneLineError(tiler, "is not an executable file");
  EXPECT_LT(tiler.err.size(), 1100u) << tiler.err.size();
}

// Issue 33: errors a long command logs (merge, --resume, --expectations) went out as they were:
// a newline in a path sent the rest of the line to stdout, invalid UTF-8 went raw, a long path
// whole. Every error line now goes through one function; so do the paths replay and captures
// print, and a note never comes before an error.
TEST(HostileInput, ErrorsAreOneLineWhateverTheyQuote) {
  const std::string dir = test::TempDir("hostile_lines");
  const std::string odd = dir + "/a\nb\xff" + std::string(200, 'y');
  for (const std::string& args :
       {"merge '" + odd + "' --report " + dir + "/m", "run --resume '" + odd + "'",
        "run --suite zero-column-mask --cases 1 --no-progress --report " + dir +
            "/r --expectations '" + odd + "'"}) {
    const Outcome e = Tcfuzz(args, dir);
    ExpectOneLineError(e, "a\\nb\\xff");
    EXPECT_LT(e.err.size(), 1100u) << args;
  }
  std::filesystem::create_directories(dir + "/cap\nX");
  const Outcome captures = Tcfuzz("oracle captures --dir '" + dir + "/cap\nX'", dir);
  EXPECT_EQ(captures.code, 0) << captures.err;
  EXPECT_EQ(captures.out.find('\n'), captures.out.size() - 1) << captures.out;
  EXPECT_NE(captures.out.find("cap\\nX"), std::string::npos) << captures.out;
  // A row not confirmed on hardware, asked for anyway, and a bad line: the error alone.
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/in.txt", "not json\n").ok());
  const Outcome dot = Tcfuzz(
      "oracle dot --arch sm_100 --instr tcgen05 --ab f16 --allow-unconfirmed < " + dir + "/in.txt",
      dir);
  ExpectOneLineError(dot, "line 1");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tcfuzz
