// The text form of a zero-column-mask case: corpus entries and reproducer files.
//
//   tcfuzz-text 1
//   tool = tcfuzz 0.1.0
//   kind = zero_column_mask
//   m = 64
//   n = 128
//   sparse = 0
//   idesc = 0x40000000          (optional)
//   desc = 0x0002028000000000
//   expect.mask = 0x...         (optional: the mask an independent source predicts)
//   expect.rules = none         (optional: violated rule ids, comma-separated, or none)
//
// Keys under origin.* and finding.* are free-form provenance (seed, suite, failed check).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::oracle::tcgen05 {

inline constexpr std::string_view kZcmKind = "zero_column_mask";

struct ZcmExpectation {
  std::optional<std::string> mask_hex;
  std::optional<std::vector<std::string>> rules;  // empty: the case is legal
};

struct ZcmCaseFile {
  ZcmCase c;
  ZcmExpectation expect;
};

// Writes the case's own keys (after the header) into `w`.
void AppendZcmCase(TextWriter& w, const ZcmCase& c, const ZcmExpectation& expect = {});
std::string ZcmCaseToText(const ZcmCase& c, const ZcmExpectation& expect = {});

Result<ZcmCaseFile> ZcmCaseFromDoc(const TextDoc& doc);

}  // namespace tcfuzz::oracle::tcgen05
