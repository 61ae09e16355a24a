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

int WarpMma(const tcfuzz_warp_mma* call, const char* target, char* err, size_t err_size) {
  if (call == nullptr || target == nullptr) {
    WriteError("warp_mma: no call or no target", err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  const auto& mutant = ProcessMutant();
  if (!mutant.ok()) {
    WriteError(mutant.error(), err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  std::string error;
  const int rc = ExecuteWarpMma(*call, target, &error, mutant.value());
  if (rc != TCFUZZ_OK) WriteError(error, err, err_size);
  return rc;
}

int SmemMma(const tcfuzz_smem_mma* call, const char* target, char* err, size_t err_size) {
  if (call == nullptr || target == nullptr) {
    WriteError("smem_mma: no call or no target", err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  const auto& mutant = ProcessMutant();
  if (!mutant.ok()) {
    WriteError(mutant.error(), err, err_size);
    return TCFUZZ_UNSUPPORTED;
  }
  std::string error;
  const int rc = ExecuteSmemMma(*call, target, &error, mutant.value());
  if (rc != TCFUZZ_OK) WriteError(error, err, err_size);
  return rc;
}

constexpr tcfuzz_backend kTable{TCFUZZ_BACKEND_ABI_VERSION, sizeof(tcfuzz_backend),
                                "tcfuzz emulator", &WarpMma, &SmemMma};

}  // namespace

const tcfuzz_backend* EmulatorBackend() { return &kTable; }

}  // namespace tcfuzz::harness::emulator
