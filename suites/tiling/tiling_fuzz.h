// `tcfuzz tiling fuzz`: ask a tiler (ours, or any command) for the tiling of generated problems,
// validate and simulate every answer, and keep one minimized reproducer per failing rule.
//
// External tiler protocol: `/bin/sh -c COMMAND` with the problem JSON (the --problem file format)
// on stdin and TCFUZZ_CHIP set to the --chip argument (a SoC name or a profile file, so
// `tcfuzz tiling make --chip "$TCFUZZ_CHIP" --problem -` is a valid tiler). It answers with the
// tiling's JSON form or its 200-byte image on stdout and exit 0, or refuses the problem with exit
// 1 and nothing on stdout. Anything else (another exit code, a signal, no answer by the deadline,
// output that does not parse) is a finding about the tiler, never a tcfuzz failure.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "oracle/ascend/chip_profile.h"
#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::suites {

struct TilerAnswer {
  enum class Kind { kTiling, kRefused, kCrash, kHang, kGarbage };
  Kind kind = Kind::kRefused;
  oracle::ascend::TCubeTiling tiling;
  std::string detail;  // refusal reason, exit status, parse error
};

// chip_arg is what the tiler is told (TCFUZZ_CHIP); chip is that profile, loaded.
using Tiler = std::function<TilerAnswer(const oracle::ascend::Problem&,
                                        const oracle::ascend::ChipProfile& chip,
                                        const std::string& chip_arg)>;

Tiler ReferenceTilerUnderTest();
Tiler ExternalTiler(const std::string& command, std::chrono::milliseconds timeout);

// Why an answer is wrong: the first violated hard rule, "tiling.simulation" for a legal tiling
// whose simulation finds a fault, or tiler.crash / tiler.hang / tiler.garbage. nullopt for a
// clean answer or a refusal.
struct Finding {
  std::string rule;
  std::string message;
};
std::optional<Finding> Judge(const oracle::ascend::Problem& p,
                             const oracle::ascend::ChipProfile& chip, const TilerAnswer& a);

// Shrinks `p` (each of M, N, K towards 1, then bias, transposes, formats, schedule and types
// towards the simplest) while the tiler's answer still fails `rule`; at most `budget` tiler calls.
oracle::ascend::Problem MinimizeProblem(const oracle::ascend::Problem& p,
                                        const oracle::ascend::ChipProfile& chip,
                                        const std::string& chip_arg, const Tiler& tiler,
                                        const std::string& rule, int budget);

struct TilingFuzzOptions {
  std::string tiler_command;  // empty: the reference tiler
  std::string chip_arg;       // empty: every built-in chip in turn (drawn per case)
  std::optional<oracle::ascend::ChipProfile> chip;  // chip_arg loaded
  uint64_t seed = 0;
  uint64_t cases = 0;  // 0 with seconds == 0: 2000
  double seconds = 0;
  std::chrono::milliseconds timeout{10000};
  int minimize_budget = 400;
  std::string out_dir = "report/tiling-fuzz";
  std::string command_line;
};

// Exit status: 0 no finding, 1 findings, 2 the report could not be written.
int RunTilingFuzz(const TilingFuzzOptions& options, std::ostream& out);

}  // namespace tcfuzz::suites
