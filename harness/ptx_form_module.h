// The PTX text of one instruction form (oracle/ptx/instruction_form.h): the instruction with
// operands of the classes and counts the form takes, in a one-entry module for a target. The
// assembler scan and fuzzer feed these to nvJitLink and ptxas. Rendering only: whether the
// form is legal is the oracle's business; a malformation deliberately breaks the text itself.
#pragma once

#include <string>
#include <string_view>

#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::harness {

enum class Malformation {
  kNone,
  kDropOperand,    // the last operand removed
  kExtraOperand,   // one register operand too many
  kWrongRegClass,  // a predicate where the first register goes
  kUnknownQualifier,
  kTruncated,      // the instruction cut short (at `where` % its length)
  kUnclosedEntry,  // the entry's closing brace missing
};
inline constexpr int kMalformationCount = 7;
std::string_view Name(Malformation m);

// "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {f0, f1, f2, f3}, {r0, ...}, ..., r12,
// 0x1;"
std::string FormInstruction(const oracle::ptx::PtxForm& form, Malformation m = Malformation::kNone,
                            unsigned where = 0);

// ".version <form.ptx> / .target <target> / .address_size 64" and one entry holding the
// instruction.
std::string FormModule(const oracle::ptx::PtxForm& form, std::string_view target,
                       Malformation m = Malformation::kNone, unsigned where = 0);

}  // namespace tcfuzz::harness
