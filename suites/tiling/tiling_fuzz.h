// `tcfuzz tiling fuzz`: ask a tiler (ours, or any command: tiler.h) for the tiling of generated
// problems, judge every answer (tiling_judge.h), and keep one minimized reproducer per failing
// rule, each counted over every answer that breaks it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "oracle/ascend/chip_profile.h"
#include "suites/tiling/tiler.h"
#include "suites/tiling/tiling_judge.h"

namespace tcfuzz::suites {

struct TilingFuzzOptions {
  std::string tiler_command;  // empty: the reference tiler
  TilerProtocol protocol = TilerProtocol::kProcess;
  std::string chip_arg;  // empty: every built-in chip in turn (drawn per case)
  std::optional<oracle::ascend::ChipProfile> chip;  // chip_arg loaded
  int64_t tiler_l1 = 0;  // the L1 size the tiler is told to plan against (0: the platform's)
  uint64_t seed = 0;
  uint64_t first = 0;  // the first case's index (a campaign's tiling-fuzz case: tiling_suite.h)
  uint64_t cases = 0;  // 0 with seconds == 0: 2000
  double seconds = 0;
  std::chrono::milliseconds timeout{10000};
  int minimize_budget = 400;
  std::string out_dir = "report/tiling-fuzz";
  std::string command_line;
  Tiler tiler;  // tests: an in-process tiler instead of tiler_command or the reference
};

// Case i of a seed, as `tiling fuzz` and a campaign's tiling-fuzz suite (tiling_suite.h) draw
// it from CaseSeed(seed, kTilingFuzzName, i): the given chip or a built-in one, and a problem.
inline constexpr std::string_view kTilingFuzzName = "tiling-fuzz";
struct TilingCase {
  const oracle::ascend::ChipProfile* chip = nullptr;
  oracle::ascend::Problem problem;
};
TilingCase DrawTilingCase(uint64_t case_seed, const oracle::ascend::ChipProfile* fixed_chip);

// Exit status: 0 no error finding (warnings about answers to problems outside the contract do
// not fail a run), 1 findings, 2 the report could not be written, 128 + the signal when
// interrupted (the report is still written, marked interrupted).
int RunTilingFuzz(const TilingFuzzOptions& options, std::ostream& out);

}  // namespace tcfuzz::suites
