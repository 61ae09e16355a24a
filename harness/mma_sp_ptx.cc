#include "harness/mma_sp_ptx.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

std::string RegList(const char* name, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + std::string(name) + std::to_string(i);
  return s + "}";
}

// Loads n consecutive b32 of this lane's slot (base + idx * n * 4) into %reg0.. (or %reg alone).
std::string Loads(const char* reg, const char* base, int n, bool indexed = true) {
  std::string s = "  mul.wide.u32 %off, %idx, " + std::to_string(4 * n) + ";\n  add.u64 %addr, " + base + ", %off;\n";
  for (int i = 0; i < n; ++i) {
    s += "  ld.global.b32 %" + std::string(reg) + (indexed ? std::to_string(i) : "") + ", [%addr+" +
         std::to_string(4 * i) + "];\n";
  }
  return s;
}

}  // namespace

int CdRegisters(Format cd) { return cd == Format::kF16 ? 2 : 4; }

std::string MmaSpInstruction(const MmaSpSpec& s) {
  const auto& f = *s.form;
  const bool ordered = s.variant == oracle::sparse::Variant::kOrdered;
  std::string ins = ordered ? "mma.sp::ordered_metadata" : "mma.sp";
  ins += ".sync.aligned." + std::string(f.shape) + ".row.col";
  // The FP6/FP4 forms (sm_120a) name their kind; only the ordered spelling exists for them.
  if (f.ordered_only) ins += ".kind::f8f6f4";
  if (s.satfinite) ins += ".satfinite";
  const std::string cd(oracle::num::Name(s.cd));
  ins += "." + cd + "." + std::string(oracle::num::Name(s.a_type)) + "." + std::string(oracle::num::Name(s.b_type)) + "." + cd;
  const int cr = CdRegisters(s.cd);
  ins += " " + RegList("d", cr) + ", " + RegList("a", f.a_regs) + ", " + RegList("b", f.b_regs) + ", " + RegList("c", cr) +
         ", %e, " + std::to_string(s.selector) + ";";
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
  return head + " " + d + ", " + a + ", " + b + ", " + c + ", " + e + ", " + std::to_string(s.selector) + ";";
}

std::string MmaSpModule(const MmaSpSpec& s, const std::string& target) {
  const auto& f = *s.form;
  const int cr = CdRegisters(s.cd);
  // PTX ISA 8.7 brought sm_120a and kind::f8f6f4; 8.5 covers every other form.
  std::string m = std::string(f.ordered_only ? ".version 8.7" : ".version 8.5") + "\n.target " + target + "\n.address_size 64\n\n";
  m += ".visible .entry tcfuzz_mma_sp(.param .u64 p_a, .param .u64 p_b, .param .u64 p_c, .param .u64 p_e,\n"
       "                               .param .u64 p_d, .param .u32 p_n)\n{\n";
  m += "  .reg .pred %p;\n  .reg .b32 %a<4>, %b<4>, %c<4>, %d<4>, %e;\n";
  m += "  .reg .b32 %thread, %warp, %lane, %case, %n, %idx;\n  .reg .b64 %pa, %pb, %pc, %pe, %pd, %off, %addr;\n";
  m += "  ld.param.u64 %pa, [p_a];\n  ld.param.u64 %pb, [p_b];\n  ld.param.u64 %pc, [p_c];\n";
  m += "  ld.param.u64 %pe, [p_e];\n  ld.param.u64 %pd, [p_d];\n  ld.param.u32 %n, [p_n];\n";
  // Four warps per block, one case per warp; the guard is uniform across a warp.
  m += "  mov.u32 %thread, %tid.x;\n  shr.u32 %warp, %thread, 5;\n  and.b32 %lane, %thread, 31;\n";
  m += "  mov.u32 %case, %ctaid.x;\n  shl.b32 %case, %case, 2;\n  add.u32 %case, %case, %warp;\n";
  m += "  setp.ge.u32 %p, %case, %n;\n  @%p bra DONE;\n  mad.lo.u32 %idx, %case, 32, %lane;\n";
  m += Loads("a", "%pa", f.a_regs) + Loads("b", "%pb", f.b_regs) + Loads("c", "%pc", cr) + Loads("e", "%pe", 1, false);
  m += "  " + MmaSpInstruction(s) + "\n";
  m += "  mul.wide.u32 %off, %idx, " + std::to_string(4 * cr) + ";\n  add.u64 %addr, %pd, %off;\n";
  for (int i = 0; i < cr; ++i) m += "  st.global.b32 [%addr+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  m += "DONE:\n  ret;\n}\n";
  return m;
}

}  // namespace tcfuzz::harness
