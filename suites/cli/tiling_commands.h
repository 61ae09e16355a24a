// The `tcfuzz tiling` commands (fuzz itself lives in suites/tiling/tiling_fuzz.h).
#pragma once

#include <string>

#include "oracle/ascend/chip_profile.h"

namespace tcfuzz::suites {

// A built-in SoC by name, else a profile file; a one-line error (exit 2) when neither.
oracle::ascend::ChipProfile LoadChip(const std::string& name_or_file);

int TilingChips(bool json);
// Exit code: 0 legal, 1 illegal; bad input is a one-line error with exit code 2.
int TilingCheck(const std::string& chip, const std::string& problem_file,
                const std::string& tiling_file, bool json);
// The reference tiler's answer (its JSON form), or a one-line reason with exit code 1.
int TilingMake(const std::string& chip, const std::string& problem_file);
// Exit code: 0 clean, 1 findings.
int TilingSimulate(const std::string& chip, const std::string& problem_file,
                   const std::string& tiling_file, bool numeric);

}  // namespace tcfuzz::suites
