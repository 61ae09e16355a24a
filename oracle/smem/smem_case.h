// A shared-memory descriptor as one instruction reads it: the 64 descriptor bits, the target,
// and the operand view (major-ness, element type, rows, K bytes). Validation and the address map
// for both encodings: wgmma (sm_90a, PTX 9.1 §9.7.15.5.1.2.2) and tcgen05 (sm_100a family,
// §9.7.16.4.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::smem {

struct SmemCase {
  Arch arch = Arch::kSm90a;
  Operand operand = Operand::kA;
  OperandView view;
  uint64_t desc = 0;
  // Where the swizzle pattern starts, when the case knows it (a generated layout does): the
  // base-offset value rule needs it.
  std::optional<uint64_t> pattern_start;
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const SmemCase&, const SmemCase&);
};

namespace smem_rule {
inline constexpr Rule kBaseOffsetNoSwizzle{
    "smem.base_offset_no_swizzle", "PTX 9.1 §9.7.16.4.1, §9.7.15.5.1.2.2",
    "the base offset is only defined for swizzled layouts: 0 without swizzle"};
inline constexpr Rule kBaseOffsetValue{
    "smem.base_offset_value", "PTX 9.1 §9.7.16.4.1 Table 41, §9.7.15.5.1.2.2",
    "base offset = (pattern start >> 7) & 7, or 0 when the pattern starts on the repeat boundary"};
inline constexpr Rule kExtent{"smem.extent", "PTX 9.1 §9.7.16.4.1 (enc() keeps 18 address bits)",
                              "every element the instruction reads lies below 256 KiB"};
// Encoding rules: they apply to byte values going into a descriptor, not to descriptor bits.
inline constexpr Rule kAlign16{"smem.align16", "PTX 9.1 §9.7.16.4.1, §9.7.15.5.1.2.2",
                               "start address, LBO and SBO are multiples of 16 bytes"};
inline constexpr Rule kFieldRange{"smem.field_range", "PTX 9.1 §9.7.16.4.1 (14-bit fields)",
                                  "start address, LBO and SBO are below 2^18 (14 bits after >> 4)"};
}  // namespace smem_rule

Span<const Rule* const> SmemRules();  // every rule of both encodings

// The descriptor's meaning, or nullopt when its swizzle code is invalid (tcgen05 3, 5, 7).
std::optional<SmemMatrix> DecodeMatrix(Arch arch, uint64_t desc);

// Encodes a matrix for `arch`; the verdict lists the encoding rules the values break (the bits
// are still produced, each field truncated to its width, so broken encodings can be tried).
struct Encoded {
  uint64_t desc = 0;
  Verdict verdict;
};
Encoded EncodeMatrix(Arch arch, const SmemMatrix& m);

Verdict Validate(const SmemCase& c);

// The address map of a case (error: invalid swizzle code or an unusable view).
Result<AddressMap> Map(const SmemCase& c);

// The readings of the table in oracle/core/backing.h the map of `c` rests on: S0 (the canonical
// layouts) and each spec choice its layout meets (S1 a nonzero base offset, S2 swizzled K-major,
// S3 and S7 the 32-byte-atom mode, S4 absolute LBO mode, S5 sub-byte types, S6 no swizzle).
std::vector<std::string_view> ReadingsOf(const SmemCase& c);
// The target whose hardware evidence those readings are judged on (BackingOf): wgmma runs on
// sm_90, tcgen05 on sm_100 and sm_103.
std::string_view BackingTarget(Arch a);

// A case explained from one decode of its descriptor: what Validate, Map and ReadingsOf answer
// (the CLI's explain, explain batch and the Python module ask this once).
struct Explanation {
  std::optional<SmemMatrix> matrix;  // nullopt: an invalid swizzle code
  Verdict verdict;
  Result<AddressMap> map;
  std::vector<std::string_view> readings;
};
Explanation Explain(const SmemCase& c);

// Element types, majors and swizzle modes the target's descriptors take (the legality tables
// the generators draw from).
Span<const DType> DTypesFor(Arch arch);
bool MajorAllowed(Arch arch, Major major, DType dtype);
bool SwizzleAllowed(Arch arch, Major major, DType dtype, Swizzle swizzle);

}  // namespace tcfuzz::oracle::smem
