#include "harness/warp_mma_ptx.h"

namespace tcfuzz::harness {
namespace {

// Loads n consecutive b32 of this lane's slot (base + idx * n * 4) into %reg0.. (or %reg alone).
std::string Loads(const char* reg, const char* base, int n, bool indexed = true) {
  std::string s = "  mul.wide.u32 %off, %idx, " + std::to_string(4 * n) + ";\n  add.u64 %addr, " +
                  base + ", %off;\n";
  for (int i = 0; i < n; ++i) {
    s += "  ld.global.b32 %" + std::string(reg) + (indexed ? std::to_string(i) : "") + ", [%addr+" +
         std::to_string(4 * i) + "];\n";
  }
  return s;
}

}  // namespace

std::string PtxRegList(const char* name, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + std::string(name) + std::to_string(i);
  return s + "}";
}

std::string WarpMmaModule(const WarpMmaKernel& k, const std::string& target) {
  std::string m = k.version + "\n.target " + target + "\n.address_size 64\n\n";
  m += ".visible .entry " + k.entry + "(.param .u64 p_a, .param .u64 p_b, .param .u64 p_c, ";
  m += k.metadata ? ".param .u64 p_e,\n" : "\n";
  m += "    .param .u64 p_d, .param .u32 p_n)\n{\n";
  m += "  .reg .pred %p;\n  .reg .b32 %a<4>, %b<4>, %c<4>, %d<4>" +
       std::string(k.metadata ? ", %e" : "") + ";\n";
  m += "  .reg .b32 %thread, %warp, %lane, %case, %n, %idx;\n  .reg .b64 %pa, %pb, %pc, %pe, %pd, "
       "%off, %addr;\n";
  m += "  ld.param.u64 %pa, [p_a];\n  ld.param.u64 %pb, [p_b];\n  ld.param.u64 %pc, [p_c];\n";
  if (k.metadata) m += "  ld.param.u64 %pe, [p_e];\n";
  m += "  ld.param.u64 %pd, [p_d];\n  ld.param.u32 %n, [p_n];\n";
  // Four warps per block, one case per warp; the guard is uniform across a warp.
  m += "  mov.u32 %thread, %tid.x;\n  shr.u32 %warp, %thread, 5;\n  and.b32 %lane, %thread, 31;\n";
  m += "  mov.u32 %case, %ctaid.x;\n  shl.b32 %case, %case, 2;\n  add.u32 %case, %case, %warp;\n";
  m += "  setp.ge.u32 %p, %case, %n;\n  @%p bra DONE;\n  mad.lo.u32 %idx, %case, 32, %lane;\n";
  m += Loads("a", "%pa", k.a_regs) + Loads("b", "%pb", k.b_regs) + Loads("c", "%pc", k.cd_regs);
  if (k.metadata) m += Loads("e", "%pe", 1, false);
  m += "  " + k.instruction + "\n";
  m += "  mul.wide.u32 %off, %idx, " + std::to_string(4 * k.cd_regs) +
       ";\n  add.u64 %addr, %pd, %off;\n";
  for (int i = 0; i < k.cd_regs; ++i)
    m += "  st.global.b32 [%addr+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  m += "DONE:\n  ret;\n}\n";
  return m;
}

}  // namespace tcfuzz::harness
