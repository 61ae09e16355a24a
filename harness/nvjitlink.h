// nvJitLink, the CUDA toolkit's in-process assembler and linker, loaded at run time (dlopen):
// the toolchain scan and the assembler fuzzer assemble PTX with it without a GPU, and a build
// without the toolkit still builds (Load() then says why it is missing).
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"

namespace tcfuzz::harness {

struct AssembleOutcome {
  bool accepted = false;
  std::string diagnostic;  // the assembler's error log (empty when accepted)
};

class NvJitLink {
 public:
  // The library from $TCFUZZ_NVJITLINK, /usr/local/cuda/lib64 or the loader's search path;
  // loaded once per process. An error names every place tried.
  static oracle::Result<const NvJitLink*> Load();

  std::string Version() const;  // "13.0"
  // Assemble one PTX module for `target` ("sm_90a"): -arch=<target>, nothing linked in.
  AssembleOutcome Assemble(std::string_view ptx, std::string_view target) const;

  struct Api;  // the entry points (nvjitlink.cc)

 private:
  explicit NvJitLink(const Api* api) : api_(api) {}
  const Api* api_;
};

}  // namespace tcfuzz::harness
