#include "harness/backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "harness/call_record.h"
#include "harness/emulator/emulator_backend.h"
#include "harness/emulator/mutant.h"
#include "harness/host_threads.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/targets.h"

namespace tcfuzz::harness {
namespace {

constexpr const char* kDeviceVar = "TCFUZZ_DEVICE";
constexpr const char* kAsVar = "TCFUZZ_DEVICE_AS";
constexpr std::string_view kPluginPrefix = "plugin:";
// A host backend presents as the H100 for mma, mma.sp and wgmma, and as the B200 for tcgen05.
constexpr std::string_view kDefaultTargets = "sm_90a,sm_100a";

using Table = oracle::Result<const tcfuzz_backend*>;

// cc of a target name the numerics table knows: "sm_90" -> 9.0, "sm_100" -> 10.0.
std::pair<int, int> CcOf(std::string_view target) {
  int n = 0;
  for (const char ch : target)
    if (ch >= '0' && ch <= '9') n = n * 10 + (ch - '0');
  return {n / 10, n % 10};
}

}  // namespace

std::string_view KindName(BackendKind k) {
  switch (k) {
    case BackendKind::kCuda:
      return "cuda";
    case BackendKind::kEmulated:
      return "emulated";
    case BackendKind::kPlugin:
      return "plugin";
  }
  return "cuda";
}

oracle::Result<BackendChoice> ParseBackendChoice(std::string_view device, std::string_view as) {
  using R = oracle::Result<BackendChoice>;
  BackendChoice c;
  if (device == "cuda") {
    if (!as.empty()) return R::Fail("--as names the target of a host backend; cuda is the device");
    return R::Ok(c);
  }
  if (device == "emulated") {
    c.kind = BackendKind::kEmulated;
  } else if (device.starts_with(kPluginPrefix) && device.size() > kPluginPrefix.size()) {
    c.kind = BackendKind::kPlugin;
    std::error_code ec;
    const auto path = std::filesystem::absolute(device.substr(kPluginPrefix.size()), ec);
    if (ec) return R::Fail("--device " + std::string(device) + ": " + ec.message());
    c.plugin_path = path.string();  // workers may start elsewhere
  } else {
    return R::Fail("--device '" + std::string(device) +
                   "': expected cuda, emulated or plugin:PATH");
  }
  // A list of targets: each instruction family runs as the first that executes it (TargetFor).
  const std::string_view list = as.empty() ? kDefaultTargets : as;
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view one = rest.substr(0, comma);
    const auto t = oracle::num::FindTarget(one);
    if (!t.ok()) return R::Fail("--as: " + t.error());
    // The target a plug-in is told: an sm_ spelling as given (its suffix kept, case and spaces
    // dropped), else the target of the device named ("H100" -> sm_90).
    std::string spelled;
    for (const char ch : one)
      if (ch != ' ') spelled += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (!c.target.empty()) c.target += ",";
    c.target += spelled.starts_with("sm_") ? spelled : std::string(t.value().target);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return R::Ok(c);
}

oracle::Result<BackendChoice> ProcessBackend() {
  const char* device = std::getenv(kDeviceVar);
  const char* as = std::getenv(kAsVar);
  if (device == nullptr || *device == '\0') return oracle::Result<BackendChoice>::Ok({});
  auto c = ParseBackendChoice(device, as ? as : "");
  if (!c.ok())
    return oracle::Result<BackendChoice>::Fail(std::string(kDeviceVar) + ": " + c.error());
  return c;
}

oracle::Result<BackendChoice> SelectBackend(const BackendChoice& c) {
  if (c.kind == BackendKind::kCuda) {
    unsetenv(kDeviceVar);
    unsetenv(kAsVar);
    return oracle::Result<BackendChoice>::Ok(c);
  }
  const std::string device = c.kind == BackendKind::kPlugin
                                 ? std::string(kPluginPrefix) + c.plugin_path
                                 : std::string(KindName(c.kind));
  setenv(kDeviceVar, device.c_str(), 1);
  setenv(kAsVar, c.target.c_str(), 1);
  if (c.kind == BackendKind::kPlugin) {
    const auto t = LoadPlugin(c.plugin_path);
    if (!t.ok()) return oracle::Result<BackendChoice>::Fail(t.error());
  }
  return oracle::Result<BackendChoice>::Ok(c);
}

std::vector<std::string> BackendArgs() {
  const auto c = ProcessBackend();
  if (!c.ok() || c.value().kind == BackendKind::kCuda) return {};
  std::vector<std::string> args = {"--device",
                                   c.value().kind == BackendKind::kPlugin
                                       ? std::string(kPluginPrefix) + c.value().plugin_path
                                       : std::string(KindName(c.value().kind)),
                                   "--as", c.value().target};
  const char* mutant = std::getenv("TCFUZZ_MUTANT");
  if (c.value().kind == BackendKind::kEmulated && mutant != nullptr && *mutant != '\0')
    args.insert(args.end(), {"--mutant", mutant});
  return args;
}

oracle::Result<bool> SelectBackendArgs(const std::vector<std::string>& args) {
  using R = oracle::Result<bool>;
  std::string device = "cuda", as, mutant;
  if (args.size() % 2 != 0) return R::Fail("backend options come in pairs");
  for (std::size_t i = 0; i < args.size(); i += 2) {
    if (args[i] == "--device") {
      device = args[i + 1];
    } else if (args[i] == "--as") {
      as = args[i + 1];
    } else if (args[i] == "--mutant") {
      mutant = args[i + 1];
    } else {
      return R::Fail("'" + oracle::OneLine(args[i], 80) + "' does not choose a backend");
    }
  }
  const auto c = ParseBackendChoice(device, as);
  if (!c.ok()) return R::Fail(c.error());
  if (!mutant.empty() && c.value().kind != BackendKind::kEmulated)
    return R::Fail("--mutant needs --device emulated");
  if (const auto m = emulator::ParseMutant(mutant); !mutant.empty() && !m.ok())
    return R::Fail(m.error());
  if (const auto s = SelectBackend(c.value()); !s.ok()) return R::Fail(s.error());
  if (mutant.empty()) {
    unsetenv("TCFUZZ_MUTANT");
  } else {
    setenv("TCFUZZ_MUTANT", mutant.c_str(), 1);
  }
  return R::Ok(true);
}

Table LoadPlugin(const std::string& path) {
  // One handle per path for the process's life: a table is never unloaded under a caller.
  static std::mutex mu;
  static std::map<std::string, Table>* loaded = new std::map<std::string, Table>();
  const std::lock_guard lock(mu);
  if (const auto it = loaded->find(path); it != loaded->end()) return it->second;
  const auto fail = [&](const std::string& why) {
    return loaded->emplace(path, Table::Fail("plugin " + path + ": " + why)).first->second;
  };
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return fail(why ? why : "dlopen failed");
  }
  void* entry = dlsym(handle, TCFUZZ_BACKEND_ENTRY);
  if (entry == nullptr) return fail("no symbol " TCFUZZ_BACKEND_ENTRY " (see tcfuzz/backend.h)");
  const tcfuzz_backend* t = reinterpret_cast<tcfuzz_backend_entry_fn>(entry)();
  if (t == nullptr) return fail(TCFUZZ_BACKEND_ENTRY " returned no table");
  if (t->abi_version != TCFUZZ_BACKEND_ABI_VERSION) {
    return fail("backend ABI version " + std::to_string(t->abi_version) + ", this tcfuzz reads " +
                std::to_string(TCFUZZ_BACKEND_ABI_VERSION) +
                " (rebuild it against this tcfuzz/backend.h)");
  }
  if (t->struct_size < TCFUZZ_BACKEND_MIN_SIZE) {
    return fail("table of " + std::to_string(t->struct_size) + " bytes, ABI version " +
                std::to_string(TCFUZZ_BACKEND_ABI_VERSION) + " has at least " +
                std::to_string(TCFUZZ_BACKEND_MIN_SIZE));
  }
  if (t->name == nullptr || t->warp_mma == nullptr) return fail("table without a name or warp_mma");
  return loaded->emplace(path, Table::Ok(t)).first->second;
}

Table HostBackend() {
  const auto c = ProcessBackend();
  if (!c.ok()) return Table::Fail(c.error());
  switch (c.value().kind) {
    case BackendKind::kCuda:
      return Table::Ok(nullptr);
    case BackendKind::kEmulated:
      return Table::Ok(emulator::EmulatorBackend());
    case BackendKind::kPlugin:
      return LoadPlugin(c.value().plugin_path);
  }
  return Table::Ok(nullptr);
}

std::string TargetFor(const BackendChoice& c, std::string_view family) {
  std::string_view rest = c.target, first;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view one = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (first.empty()) first = one;
    const auto t = oracle::num::FindTarget(one);
    const std::string_view base = t.ok() ? t.value().target : "";
    const bool specific = one.ends_with('a') || one.ends_with('f');
    if ((family == "wgmma" && base == "sm_90" && specific) ||
        (family == "tcgen05" && base.starts_with("sm_10") && specific))
      return std::string(one);
  }
  return std::string(first);
}

std::vector<std::pair<int, int>> TargetCcs(const BackendChoice& c) {
  std::vector<std::pair<int, int>> out;
  std::string_view rest = c.target;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const auto t = oracle::num::FindTarget(rest.substr(0, comma));
    if (t.ok()) out.push_back(CcOf(t.value().target));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return out;
}

DeviceInfo ProbeBackend(std::string_view family) {
  const auto c = ProcessBackend();
  if (!c.ok()) {
    DeviceInfo d;
    d.reason = c.error();
    return d;
  }
  if (c.value().kind == BackendKind::kCuda) return ProbeDevice();
  DeviceInfo d;
  const auto table = HostBackend();
  if (!table.ok()) {
    d.reason = table.error();
    return d;
  }
  const std::string as = TargetFor(c.value(), family);
  const auto target = oracle::num::FindTarget(as);
  d.available = true;
  d.name = oracle::OneLine(table.value()->name, 200);
  if (c.value().kind == BackendKind::kEmulated) {  // a planted defect is part of what ran
    const auto& m = emulator::ProcessMutant();
    if (!m.ok()) {
      d.available = false;
      d.reason = m.error();
      return d;
    }
    if (!m.value().empty()) d.name += ", mutant " + m.value().Text();
  }
  std::string targets = c.value().target;
  for (std::size_t at = targets.find(','); at != std::string::npos; at = targets.find(',', at + 2))
    targets.replace(at, 1, ", ");
  d.name += " (as " + targets + ")";
  std::tie(d.cc_major, d.cc_minor) = CcOf(target.ok() ? target.value().target : "sm_90");
  return d;
}

}  // namespace tcfuzz::harness

namespace tcfuzz::harness {

namespace {

// The table's smem_mma, or nullptr where the table ends before it or leaves it NULL.
decltype(tcfuzz_backend::smem_mma) SmemMmaOf(const tcfuzz_backend* t) {
  return t->struct_size >= offsetof(tcfuzz_backend, smem_mma) + sizeof t->smem_mma ? t->smem_mma
                                                                                   : nullptr;
}

// Calls run(part, err, err_size) for each of `parts` slices of a batch, on threads when there are
// several, and turns the first that fails into the harness's error: a host-side error for
// TCFUZZ_UNSUPPORTED, a device fault for anything else.
oracle::Result<bool> RunParts(const tcfuzz_backend* table, uint32_t parts,
                              const std::function<int(uint32_t, char*, size_t)>& run) {
  std::vector<int> rc(parts, TCFUZZ_OK);
  std::vector<std::string> why(parts);
  const auto one = [&](uint32_t p) {
    char err[512] = "";
    rc[p] = run(p, err, sizeof err);
    err[sizeof err - 1] = '\0';  // a plug-in's text is untrusted: bounded, and one line
    why[p] = oracle::OneLine(err, 300);
  };
  {
    std::vector<std::jthread> threads;
    for (uint32_t p = 1; p < parts; ++p) threads.emplace_back(one, p);
    one(0);
  }
  for (uint32_t p = 0; p < parts; ++p) {
    if (rc[p] == TCFUZZ_OK) continue;
    const std::string what =
        oracle::OneLine(table->name, 200) + ": " + (why[p].empty() ? "no reason given" : why[p]);
    return rc[p] == TCFUZZ_UNSUPPORTED ? oracle::Result<bool>::Fail(std::string(kHostError) + what)
                                       : oracle::Result<bool>::Fail("device fault: " + what);
  }
  return oracle::Result<bool>::Ok(true);
}

// Parts to split `units` of work into: every core for the built-in emulator (at least
// `per_part` units each), one call for a plug-in.
uint32_t PartsFor(const oracle::Result<BackendChoice>& c, uint32_t units, uint32_t per_part) {
  const bool built_in = c.ok() && c.value().kind == BackendKind::kEmulated;
  return built_in ? std::max(1u, std::min(DefaultHostThreads(), units / per_part + 1)) : 1u;
}

}  // namespace

std::optional<oracle::Result<std::vector<uint32_t>>> RunWarpMmaOnHost(const WarpMmaCall& batch) {
  using R = oracle::Result<std::vector<uint32_t>>;
  const auto table = HostBackend();
  if (!table.ok()) return R::Fail(std::string(kHostError) + table.error());
  if (table.value() == nullptr) return std::nullopt;
  const auto c = ProcessBackend();
  const std::string target = c.ok() ? TargetFor(c.value(), "mma") : "sm_90a";
  tcfuzz_warp_mma call = batch.Call();
  std::vector<uint32_t> d(batch.DWords(), 0);
  call.d = d.data();
  const uint32_t parts = PartsFor(c, call.warps, 64);
  const auto done = RunParts(table.value(), parts, [&](uint32_t p, char* err, size_t size) {
    tcfuzz_warp_mma part = call;
    const uint32_t first = static_cast<uint32_t>(uint64_t{call.warps} * p / parts);
    const uint32_t last = static_cast<uint32_t>(uint64_t{call.warps} * (p + 1) / parts);
    part.warps = last - first;
    const std::size_t lanes = std::size_t{first} * 32;
    part.a += lanes * call.a_regs, part.b += lanes * call.b_regs, part.c += lanes * call.cd_regs;
    part.d += lanes * call.cd_regs;
    if (part.e != nullptr) part.e += lanes;
    return table.value()->warp_mma(&part, target.c_str(), err, size);
  });
  RecordWarpMma(call, target, done);
  if (!done.ok()) return R::Fail(done.error());
  return R::Ok(std::move(d));
}

tcfuzz_smem_mma SmemMmaCall::Call() const {
  tcfuzz_smem_mma out = fields;
  out.instruction = instruction.c_str();
  out.family = family.c_str();
  out.shape = shape.c_str();
  out.a_type = a_type.c_str();
  out.b_type = b_type.c_str();
  out.d_type = d_type.c_str();
  out.image = image.data();
  out.a_desc = a_desc.data();
  out.b_desc = b_desc.data();
  out.idesc = idesc.empty() ? nullptr : idesc.data();
  out.zero_column_mask = zero_column_mask.empty() ? nullptr : zero_column_mask.data();
  out.e = e.empty() ? nullptr : e.data();
  out.c = c.empty() ? nullptr : c.data();
  return out;
}

bool BackendIsCuda() {
  const auto c = ProcessBackend();
  return c.ok() && c.value().kind == BackendKind::kCuda;
}

bool BackendExecutesSmemMma() {
  const auto table = HostBackend();
  return !table.ok() || table.value() == nullptr || SmemMmaOf(table.value()) != nullptr;
}

std::optional<oracle::Result<std::vector<uint32_t>>> RunSmemMmaOnHost(const SmemMmaCall& batch) {
  using R = oracle::Result<std::vector<uint32_t>>;
  const auto table = HostBackend();
  if (!table.ok()) return R::Fail(std::string(kHostError) + table.error());
  if (table.value() == nullptr) return std::nullopt;
  const auto smem_mma = SmemMmaOf(table.value());
  if (smem_mma == nullptr) {
    return R::Fail(std::string(kHostError) + oracle::OneLine(table.value()->name, 200) +
                   " does not execute wgmma or tcgen05.mma (no smem_mma in its table)");
  }
  const auto c = ProcessBackend();
  const std::string target = c.ok() ? TargetFor(c.value(), batch.family) : "sm_90a";
  tcfuzz_smem_mma call = batch.Call();
  std::vector<uint32_t> d(batch.DWords(), 0);
  call.d = d.data();
  const uint32_t parts = PartsFor(c, call.tiles, 2);
  const auto done = RunParts(table.value(), parts, [&](uint32_t p, char* err, size_t size) {
    tcfuzz_smem_mma part = call;
    const uint32_t first = static_cast<uint32_t>(uint64_t{call.tiles} * p / parts);
    const uint32_t last = static_cast<uint32_t>(uint64_t{call.tiles} * (p + 1) / parts);
    part.tiles = last - first;
    part.image += std::size_t{first} * call.image_bytes;
    part.a_desc += first, part.b_desc += first;
    if (part.idesc != nullptr) part.idesc += first;
    if (part.zero_column_mask != nullptr) part.zero_column_mask += first;
    const std::size_t lanes = std::size_t{first} * 128;
    if (part.e != nullptr) part.e += lanes * (batch.family == "tcgen05" ? 2 : 1);
    if (part.c != nullptr) part.c += lanes * call.d_words;
    part.d += lanes * call.d_words;
    return smem_mma(&part, target.c_str(), err, size);
  });
  RecordSmemMma(call, target, done);
  if (!done.ok()) return R::Fail(done.error());
  return R::Ok(std::move(d));
}

}  // namespace tcfuzz::harness
