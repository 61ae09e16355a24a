// A tiler under test: tcfuzz's reference tiler in process, or any command.
//
// Command protocol (docs/tiler-under-test.md): `/bin/sh -c COMMAND` with the problem JSON (the
// --problem file format) on stdin, TCFUZZ_CHIP set to the --chip argument (a SoC name or a
// profile file, so `tcfuzz tiling make --chip "$TCFUZZ_CHIP" --problem -` is a valid tiler),
// TCFUZZ_CHIP_PROFILE to that profile's JSON (the `tiling chips --json` keys: what a wrapper
// fills the platform's values from) and TCFUZZ_L1_SIZE to the L1 size the tiler is to plan
// against. It answers with the tiling's JSON
// form or its 200-byte image on stdout and exit 0, or refuses the problem with exit 1 and nothing
// on stdout. Anything else (another exit code, a signal, no answer by the deadline, output that
// does not parse) is a finding about the tiler, never a tcfuzz failure. Every process the command
// starts is killed when it ends (subprocess.h).
//
// Lines protocol (--tiler-protocol lines): the command starts once, with TCFUZZ_TILER_PROTOCOL=
// lines, and reads one request a line, {"problem": {...}, "chip": ARG, "chip_profile": {...},
// "l1_size": N}, answering each with one line, {"tiling": {the 50 fields}} or {"refused":
// "why"}. It ending, no line by the deadline, or a line that is neither is a finding as above;
// the next problem starts it afresh. A process start per problem (about a millisecond for the
// example, 45 ms for a CANN wrapper) is what this saves.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
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
enum class TilerProtocol { kProcess, kLines };

// l1_size: TCFUZZ_L1_SIZE (0: the chip's platform L1).
Tiler ExternalTiler(const std::string& command, std::chrono::milliseconds timeout,
                    int64_t l1_size = 0, TilerProtocol protocol = TilerProtocol::kProcess);

// The request line of the lines protocol for one problem (also what a reproducer feeds the
// tiler to ask again).
std::string TilerRequestLine(const oracle::ascend::Problem& p,
                             const oracle::ascend::ChipProfile& chip, const std::string& chip_arg,
                             int64_t l1_size);

}  // namespace tcfuzz::suites
