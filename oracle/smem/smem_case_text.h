// The text form of a shared-memory descriptor case (corpus entries, reproducers).
//
//   kind = smem_descriptor
//   arch = sm_90a            sm_90a | sm_100a | sm_103a
//   operand = a              a | b
//   major = k                k | mn
//   dtype = bf16
//   rows = 64
//   kbytes = 32
//   desc = 0x4000004000100040
//   pattern_start = 0x00400  (optional)
//   expect.rules = none      (optional)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/smem/smem_case.h"

namespace tcfuzz::oracle::smem {

inline constexpr std::string_view kSmemKind = "smem_descriptor";

struct SmemCaseFile {
  SmemCase c;
  std::optional<std::vector<std::string>> expect_rules;  // empty: legal
};

void AppendSmemCase(TextWriter& w, const SmemCase& c,
                    const std::optional<std::vector<std::string>>& expect_rules = std::nullopt);
Result<SmemCaseFile> SmemCaseFromDoc(const TextDoc& doc);

}  // namespace tcfuzz::oracle::smem
