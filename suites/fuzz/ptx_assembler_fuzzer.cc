// libFuzzer target for the assembler: structured PTX (an instruction form drawn from the bytes,
// a target, and optionally one malformation of the text) through nvJitLink in process.
// Findings: a crash or hang of the assembler (libFuzzer sees it), and a well-formed form the
// legality model calls legal that the assembler rejects (aborts with the module and the ptxas
// command that reproduces it outside tcfuzz). Without nvJitLink the target still draws and
// renders every input, and says once that nothing was assembled.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "generators/core/bytes_source.h"
#include "generators/toolchain/ptx_form_gen.h"
#include "harness/nvjitlink.h"
#include "harness/ptx_form_module.h"
#include "oracle/ptx/ptx_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tcfuzz;
  gen::BytesSource s(std::span<const uint8_t>(data, size));
  const oracle::ptx::PtxForm form = gen::DrawForm(s);
  const auto targets = oracle::ptx::AllTargets();
  // sm_90a first: the simplest input is a legal dense mma on the lent H100's target.
  const auto& target = targets[(s.Below(targets.size()) + 4) % targets.size()];
  const auto bad = static_cast<harness::Malformation>(s.Below(harness::kMalformationCount));
  const auto where = static_cast<unsigned>(s.Below(256));
  const std::string module = harness::FormModule(form, target.name, bad, where);

  static const auto link = harness::NvJitLink::Load();
  if (!link.ok()) {
    static bool said = false;
    if (!said)
      std::fprintf(stderr, "ptx_assembler_fuzzer: %s; inputs are rendered, not assembled\n",
                   link.error().c_str());
    said = true;
    return 0;
  }
  const auto out = link.value()->Assemble(module, target.name);
  const bool legal = oracle::ptx::ValidateForm(form, target.name).legal();
  if (bad == harness::Malformation::kNone && legal && !out.accepted) {
    std::fprintf(stderr,
                 "ptx_assembler_fuzzer: the assembler rejects a form the model calls legal\n"
                 "form: %s\ntarget: %s\ndiagnostic: %s\n--- save as finding.ptx, then: ptxas "
                 "-arch=%s finding.ptx\n%s---\n",
                 form.Key().c_str(), std::string(target.name).c_str(), out.diagnostic.c_str(),
                 std::string(target.name).c_str(), module.c_str());
    std::abort();
  }
  return 0;
}
