#include "harness/sparse_mma_ptx.h"

#include "harness/warp_mma_ptx.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::harness {
using oracle::num::Format;

int CdRegisters(Format cd) { return cd == Format::kF16 ? 2 : 4; }

std::string MmaSpInstruction(const MmaSpSpec& s) {
  const auto& f = *s.form;
  const bool ordered = s.variant == oracle::sparse::Variant::kOrdered;
  oracle::ptx::PtxForm spelling;  // the oracle's spelling of the form
  spelling.family = ordered ? oracle::ptx::Family::kMmaSpOrdered : oracle::ptx::Family::kMmaSp;
  spelling.shape = std::string(f.shape);
  // The FP6/FP4 forms (sm_120a) name their kind; only the ordered spelling exists for them.
  spelling.kind_f8f6f4 = f.ordered_only;
  spelling.satfinite = s.satfinite;
  spelling.a = s.a_type;
  spelling.b = s.b_type;
  spelling.d = spelling.c = s.cd;
  std::string ins = spelling.Opcode();
  const int cr = CdRegisters(s.cd);
  ins += " " + PtxRegList("d", cr) + ", " + PtxRegList("a", f.a_regs) + ", " +
         PtxRegList("b", f.b_regs) + ", " + PtxRegList("c", cr) + ", %e, " +
         std::to_string(s.selector) + ";";
  return ins;
}

std::string MmaSpAsm(const MmaSpSpec& s) {
  const auto& f = *s.form;
  const int cr = CdRegisters(s.cd);
  int next = 0;
  const auto list = [&next](int n) {
    std::string l = "{";
    for (int i = 0; i < n; ++i) l += (i ? ", %" : "%") + std::to_string(next++);
    return l + "}";
  };
  // The PTX form's head, then numbered operands in place of the named registers.
  const std::string named = MmaSpInstruction(s);
  std::string head = named.substr(0, named.find(' '));
  const std::string d = list(cr), a = list(f.a_regs), b = list(f.b_regs), c = list(cr);
  const std::string e = "%" + std::to_string(next++);
  return head + " " + d + ", " + a + ", " + b + ", " + c + ", " + e + ", " +
         std::to_string(s.selector) + ";";
}

std::string MmaSpModule(const MmaSpSpec& s, const std::string& target) {
  const auto& f = *s.form;
  // PTX ISA 8.7 brought sm_120a and kind::f8f6f4; 8.5 covers every other form.
  return WarpMmaModule({"tcfuzz_mma_sp", f.ordered_only ? ".version 8.7" : ".version 8.5",
                        MmaSpInstruction(s), f.a_regs, f.b_regs, CdRegisters(s.cd), true},
                       target);
}

}  // namespace tcfuzz::harness
