#include "harness/backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

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
  const auto t = oracle::num::FindTarget(as.empty() ? "sm_90a" : as);
  if (!t.ok()) return R::Fail("--as: " + t.error());
  // The target a plug-in is told: an sm_ spelling as given (its suffix kept, case and spaces
  // dropped), else the target of the device named ("H100" -> sm_90).
  std::string spelled;
  for (const char ch : as)
    if (ch != ' ') spelled += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  c.target = as.empty()                   ? "sm_90a"
             : spelled.starts_with("sm_") ? spelled
                                          : std::string(t.value().target);
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
  if (t->struct_size < sizeof(tcfuzz_backend)) {
    return fail("table of " + std::to_string(t->struct_size) + " bytes, ABI version " +
                std::to_string(TCFUZZ_BACKEND_ABI_VERSION) + " has " +
                std::to_string(sizeof(tcfuzz_backend)));
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

DeviceInfo ProbeBackend() {
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
  const auto target = oracle::num::FindTarget(c.value().target);
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
  d.name += " (as " + c.value().target + ")";
  std::tie(d.cc_major, d.cc_minor) = CcOf(target.ok() ? target.value().target : "sm_90");
  return d;
}

}  // namespace tcfuzz::harness

namespace tcfuzz::harness {

std::optional<oracle::Result<std::vector<uint32_t>>> RunWarpMmaOnHost(const WarpMmaCall& batch) {
  using R = oracle::Result<std::vector<uint32_t>>;
  const auto table = HostBackend();
  if (!table.ok()) return R::Fail(std::string(kHostError) + table.error());
  if (table.value() == nullptr) return std::nullopt;
  const auto c = ProcessBackend();
  const std::string target = c.ok() ? c.value().target : "sm_90a";
  tcfuzz_warp_mma call = batch.Call();
  std::vector<uint32_t> d(batch.DWords(), 0);
  call.d = d.data();
  const bool built_in = c.ok() && c.value().kind == BackendKind::kEmulated;
  const uint32_t parts =
      built_in ? std::max(1u, std::min(DefaultHostThreads(), call.warps / 64 + 1)) : 1u;
  std::vector<int> rc(parts, TCFUZZ_OK);
  std::vector<std::string> why(parts);
  const auto run = [&](uint32_t p) {
    tcfuzz_warp_mma part = call;
    const uint32_t first = static_cast<uint32_t>(uint64_t{call.warps} * p / parts);
    const uint32_t last = static_cast<uint32_t>(uint64_t{call.warps} * (p + 1) / parts);
    part.warps = last - first;
    const std::size_t lanes = std::size_t{first} * 32;
    part.a += lanes * call.a_regs, part.b += lanes * call.b_regs, part.c += lanes * call.cd_regs;
    part.d += lanes * call.cd_regs;
    if (part.e != nullptr) part.e += lanes;
    char err[512] = "";
    rc[p] = table.value()->warp_mma(&part, target.c_str(), err, sizeof err);
    err[sizeof err - 1] = '\0';  // a plug-in's text is untrusted: bounded, and one line
    why[p] = oracle::OneLine(err, 300);
  };
  {
    std::vector<std::jthread> threads;
    for (uint32_t p = 1; p < parts; ++p) threads.emplace_back(run, p);
    run(0);
  }
  for (uint32_t p = 0; p < parts; ++p) {
    if (rc[p] == TCFUZZ_OK) continue;
    const std::string what = oracle::OneLine(table.value()->name, 200) + ": " +
                             (why[p].empty() ? "no reason given" : why[p]);
    return rc[p] == TCFUZZ_UNSUPPORTED ? R::Fail(std::string(kHostError) + what)
                                       : R::Fail("device fault: " + what);
  }
  return R::Ok(std::move(d));
}

}  // namespace tcfuzz::harness
