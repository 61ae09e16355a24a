// Instruction forms for the toolchain scan and the assembler fuzzer.
//
// EnumerateForms() walks the oracle's tables (oracle/mma, oracle/sparse, oracle/ptx): every form
// they define, and next to them the illegal neighbours, each breaking one thing (a shape wrong
// for the type, a selector past its range, an operand on a form that does not take it, a PTX
// version one step too old). Targets are not part of a form: the scan crosses forms with
// targets, so "target too old" is every form on every target below its own.
// DrawForm() draws one form from a Source, legal or not, for the fuzzer.
#pragma once

#include <string>
#include <vector>

#include "generators/core/source.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::gen {

struct EnumeratedForm {
  oracle::ptx::PtxForm form;
  // false: form.ptx is set per target to the lowest version that fits both (the scan does it);
  // true: form.ptx is part of the case (the "PTX too old" neighbours).
  bool pinned_version = false;
  std::string mutation;  // "" for a form of the tables, else what the neighbour changed
};

std::vector<EnumeratedForm> EnumerateForms();

// form.ptx for `target`: max(the form's minimum, the target's), unless pinned.
oracle::ptx::PtxForm AtTarget(const EnumeratedForm& e, std::string_view target);

// Any family, any types and qualifiers (some deliberately outside every table), any version.
oracle::ptx::PtxForm DrawForm(Source& s);

}  // namespace tcfuzz::gen
