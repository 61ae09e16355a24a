// Which backend executes the GPU suites' instructions: `cuda` (the device, through the driver),
// `emulated` (the built-in emulator, harness/emulator/) or `plugin:PATH` (a shared library of the
// ABI in tcfuzz/backend.h). The choice is the process's: `--device` and `--as` set it, and the
// workers, minimizer and replays a process starts inherit it through TCFUZZ_DEVICE and
// TCFUZZ_DEVICE_AS, so every part of a run executes on the same backend.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device.h"
#include "oracle/core/result.h"
#include "tcfuzz/backend.h"

namespace tcfuzz::harness {

enum class BackendKind { kCuda, kEmulated, kPlugin };

struct BackendChoice {
  BackendKind kind = BackendKind::kCuda;
  std::string plugin_path;  // kPlugin
  std::string target;       // the target a host backend claims to be ("sm_90a"); cuda: empty
};

// "cuda", "emulated", "plugin:PATH" and `as` ("sm_90a", "H100"; default sm_90a for a host
// backend, refused for cuda). The error is one line naming what is wrong.
oracle::Result<BackendChoice> ParseBackendChoice(std::string_view device, std::string_view as);

// The choice in this process's environment (cuda when TCFUZZ_DEVICE is unset), and setting it
// there for this process and its children. A host backend's table is loaded on first use;
// SelectBackend loads it at once, so a bad plug-in is an error before any case runs.
oracle::Result<BackendChoice> ProcessBackend();
oracle::Result<BackendChoice> SelectBackend(const BackendChoice& c);

// The options that choose the process's backend again ("--device", "emulated", "--as", "sm_90a",
// "--mutant", ...): what a printed rerun or resume command needs; none for cuda.
std::vector<std::string> BackendArgs();

// "cuda", "emulated" or "plugin" (the report's backend) and the device it presents as.
std::string_view KindName(BackendKind k);

// The device of the process's backend: the CUDA device, or the host backend as a device of the
// compute capability its target has ("tcfuzz emulator (as sm_90a)").
DeviceInfo ProbeBackend();

// The host backend's table, nullptr for cuda; an error when the plug-in does not load.
oracle::Result<const tcfuzz_backend*> HostBackend();

// Loads a plug-in and checks its table (entry symbol, ABI version, size, functions).
oracle::Result<const tcfuzz_backend*> LoadPlugin(const std::string& path);

}  // namespace tcfuzz::harness

namespace tcfuzz::harness {

// A packed warp-level MMA batch as one call of the ABI (tcfuzz/backend.h), D unset. It owns the
// strings the call names; Call() points at them, so the struct may be copied or moved. Made by
// WarpMmaCallOf (harness/sparse_mma_exec.h, harness/mma_dense.h).
struct WarpMmaCall {
  std::string shape, instruction;
  tcfuzz_warp_mma fields{};
  tcfuzz_warp_mma Call() const {
    tcfuzz_warp_mma c = fields;
    c.shape = shape.c_str();
    c.instruction = instruction.c_str();
    return c;
  }
  std::size_t DWords() const { return std::size_t{fields.warps} * 32 * fields.cd_regs; }
};

// One warp-level MMA batch on the process's host backend: the D registers, or nullopt when the
// backend is cuda. An instruction the backend does not execute, or a plug-in that does not load, is
// a host-side error (IsContextSafeError); a TCFUZZ_FAULT is a device fault. The built-in emulator
// runs the warps on every core; a plug-in is called once per batch, from one thread.
std::optional<oracle::Result<std::vector<uint32_t>>> RunWarpMmaOnHost(const WarpMmaCall& batch);

}  // namespace tcfuzz::harness
