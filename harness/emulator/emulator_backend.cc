#include "harness/emulator/emulator_backend.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/emulator/mutant.h"
#include "harness/emulator/smem_mma_emulator.h"
#include "harness/emulator/warp_mma_emulator.h"

namespace tcfuzz::harness::emulator {
namespace {

void WriteError(const std::string& what, char* err, size_t size) {
  if (err == nullptr || size == 0) return;
  const std::size_t n = std::min(what.size(), size - 1);
  std::memcpy(err, what.data(), n);
  err[n] = '\0';
}

constexpr char kWarpMma[] = "warp_mma";
constexpr char kSmemMma[] = "smem_mma";

// One ABI entry: the call checked, the process's mutant planted, the step run, its error written.
template <class Call, int (*Execute)(const Call&, std::string_view, std::string*, const Mutant&),
          const char* kName>
int Entry(const Call* call, const char* target, char* err, size_t err_size) {
  if (call == nullptr || target == nullptr) {
    WriteError(std::string(kName) + ": no call or no target", err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  const auto& mutant = ProcessMutant();
  if (!mutant.ok()) {
    WriteError(mutant.error(), err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  std::string error;
  const int rc = Execute(*call, target, &error, mutant.value());
  if (rc != TCFUZZ_OK) WriteError(error, err, err_size);
  return rc;
}

constexpr tcfuzz_backend kTable{TCFUZZ_BACKEND_ABI_VERSION, sizeof(tcfuzz_backend),
                                "tcfuzz emulator",
                                &Entry<tcfuzz_warp_mma, ExecuteWarpMma, kWarpMma>,
                                &Entry<tcfuzz_smem_mma, ExecuteSmemMma, kSmemMma>};

}  // namespace

const tcfuzz_backend* EmulatorBackend() { return &kTable; }

}  // namespace tcfuzz::harness::emulator
