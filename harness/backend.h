// Which backend executes the GPU suites' instructions: `cuda` (the device, through the driver),
// `emulated` (the built-in emulator, harness/emulator/) or `plugin:PATH` (a shared library of the
// ABI in tcfuzz/backend.h). The choice is the process's: `--device` and `--as` set it, and the
// workers, minimizer and replays a process starts inherit it through TCFUZZ_DEVICE and
// TCFUZZ_DEVICE_AS, so every part of a run executes on the same backend.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// "cuda", "emulated", "plugin:PATH" and `as` ("sm_90a", "H100", or a comma-separated list;
// default "sm_90a,sm_100a" for a host backend, refused for cuda). The error is one line naming
// what is wrong.
oracle::Result<BackendChoice> ParseBackendChoice(std::string_view device, std::string_view as);

// The choice in this process's environment (cuda when TCFUZZ_DEVICE is unset), and setting it
// there for this process and its children. A host backend's table is loaded on first use;
// SelectBackend loads it at once, so a bad plug-in is an error before any case runs.
oracle::Result<BackendChoice> ProcessBackend();
oracle::Result<BackendChoice> SelectBackend(const BackendChoice& c);

// The options that choose the process's backend again ("--device", "emulated", "--as", "sm_90a",
// "--mutant", ...): what a printed rerun or resume command needs; none for cuda.
std::vector<std::string> BackendArgs();
// The inverse: selects the backend those options name (none: cuda) for this process and its
// children, the mutant with it.
oracle::Result<bool> SelectBackendArgs(const std::vector<std::string>& args);

// "cuda", "emulated" or "plugin" (the report's backend) and the device it presents as.
std::string_view KindName(BackendKind k);

// The target of `c` an instruction family ("mma", "wgmma", "tcgen05") runs as: the first of
// `--as`'s list that executes it, else the first. A host backend's default list is
// "sm_90a,sm_100a": mma, mma.sp and wgmma as sm_90a, tcgen05 as sm_100a.
std::string TargetFor(const BackendChoice& c, std::string_view family);

// The compute capability of each target of `c`'s list, in order.
std::vector<std::pair<int, int>> TargetCcs(const BackendChoice& c);

// The device of the process's backend: the CUDA device, or the host backend as a device of the
// compute capability of the target `family` runs as ("tcfuzz emulator (as sm_90a, sm_100a)").
DeviceInfo ProbeBackend(std::string_view family = "mma");

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

// A batch of wgmma or tcgen05.mma tiles as one call of the ABI (tcfuzz/backend.h), D unset: the
// call's strings and arrays are owned here. Made by SmemMmaCallOf (harness/wgmma_exec.h,
// harness/tcgen05_exec.h).
struct SmemMmaCall {
  std::string instruction, family, shape, a_type, b_type, d_type;
  tcfuzz_smem_mma fields{};
  std::vector<uint8_t> image;
  std::vector<uint64_t> a_desc, b_desc, zero_column_mask;
  std::vector<uint32_t> idesc, e, c;
  tcfuzz_smem_mma Call() const;
  std::size_t DWords() const { return std::size_t{fields.tiles} * 128 * fields.d_words; }
};

// One batch of tiles on the process's host backend: D as the call lays it out, or nullopt when
// the backend is cuda. A backend without smem_mma, or an instruction it does not execute, is a
// host-side error; a TCFUZZ_FAULT a device fault. The built-in emulator runs tiles on every core.
std::optional<oracle::Result<std::vector<uint32_t>>> RunSmemMmaOnHost(const SmemMmaCall& batch);

// Whether the process's backend is the CUDA device (false when TCFUZZ_DEVICE names a host backend,
// or a bad one: its error comes from the host path).
bool BackendIsCuda();

// Whether the process's host backend executes wgmma and tcgen05.mma (its table has smem_mma);
// true for cuda.
bool BackendExecutesSmemMma();

}  // namespace tcfuzz::harness
