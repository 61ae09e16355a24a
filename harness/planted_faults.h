// Test-only kernels that fail on purpose, so the engine's isolation is proven on a real device:
// one stores to an unmapped address (a sticky CUDA_ERROR_ILLEGAL_ADDRESS), one spins forever (a
// hang only the watchdog ends). Used by `tcfuzz worker --plant-fault/--plant-hang`, never by a
// campaign's own cases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::harness {

enum class PlantedFault { kIllegalAddress, kHang };

// The PTX module (entry `tcfuzz_planted`) for `target` ("sm_90").
std::string PlantedFaultModule(PlantedFault kind, const std::string& target);

// Runs it on device 0: returns the CUDA error (a hang does not return).
oracle::Result<std::vector<uint32_t>> RunPlantedFault(PlantedFault kind);

}  // namespace tcfuzz::harness
