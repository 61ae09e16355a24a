#include "harness/planted_faults.h"

#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

std::string PlantedFaultModule(PlantedFault kind, const std::string& target) {
  std::string m = ".version 8.5\n.target " + target + "\n.address_size 64\n\n";
  m += ".visible .entry tcfuzz_planted(.param .u64 p_out, .param .u32 p_n)\n{\n";
  m += "  .reg .pred %p;\n  .reg .b32 %v;\n  .reg .b64 %addr;\n";
  if (kind == PlantedFault::kIllegalAddress) {
    // Far outside any allocation: the store faults and poisons the context.
    m += "  mov.u64 %addr, 0x00007ff0deadbee0;\n  st.global.u32 [%addr], 1;\n";
  } else {
    // Spin on a volatile load of a word nobody writes (0xDEADBEEF from the launcher's fill):
    // the compiler cannot prove the loop ends, and it never does.
    m += "  ld.param.u64 %addr, [p_out];\nSPIN:\n  ld.volatile.global.u32 %v, [%addr];\n";
    m += "  setp.ne.u32 %p, %v, 0x12345678;\n  @%p bra SPIN;\n";
  }
  m += "  ret;\n}\n";
  return m;
}

oracle::Result<std::vector<uint32_t>> RunPlantedFault(PlantedFault kind) {
  const std::string target = DeviceTarget();
  if (target.empty()) return oracle::Result<std::vector<uint32_t>>::Fail("no CUDA device");
  KernelLaunch l;
  l.ptx = PlantedFaultModule(kind, target);
  l.entry = "tcfuzz_planted";
  l.output_words = 1;
  l.n = 1;
  l.grid = 1, l.block = 1;
  return RunPtxKernel(l);
}

}  // namespace tcfuzz::harness
