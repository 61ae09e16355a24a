#include "harness/nvjitlink.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

// nvJitLink keeps caches for the life of the process: under LeakSanitizer (the fuzz preset)
// they are not findings of ours. Unused elsewhere.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink\n"; }

namespace tcfuzz::harness {

// The C API of nvJitLink (nvJitLink.h of CUDA 12 and 13; the unversioned symbols every release
// exports). Declared here so a build without the toolkit's headers still compiles.
struct NvJitLink::Api {
  using Handle = void*;
  int (*create)(Handle*, uint32_t, const char**);
  int (*destroy)(Handle*);
  int (*add_data)(Handle, int, const void*, size_t, const char*);
  int (*complete)(Handle);
  int (*error_log_size)(Handle, size_t*);
  int (*error_log)(Handle, char*);
  int (*version)(unsigned*, unsigned*);
};

namespace {

constexpr int kInputPtx = 2;  // NVJITLINK_INPUT_PTX

template <class F>
bool Bind(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  return out != nullptr;
}

oracle::Result<NvJitLink::Api> Open() {
  std::vector<std::string> tried;
  if (const char* env = std::getenv("TCFUZZ_NVJITLINK"); env != nullptr && *env != '\0')
    tried.push_back(env);
  tried.push_back("/usr/local/cuda/lib64/libnvJitLink.so");
  tried.push_back("libnvJitLink.so.13");
  tried.push_back("libnvJitLink.so.12");
  tried.push_back("libnvJitLink.so");
  std::string where;
  for (const std::string& path : tried) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      where += (where.empty() ? "" : ", ") + path;
      continue;
    }
    NvJitLink::Api api{};
    if (Bind(lib, "nvJitLinkCreate", api.create) && Bind(lib, "nvJitLinkDestroy", api.destroy) &&
        Bind(lib, "nvJitLinkAddData", api.add_data) &&
        Bind(lib, "nvJitLinkComplete", api.complete) &&
        Bind(lib, "nvJitLinkGetErrorLogSize", api.error_log_size) &&
        Bind(lib, "nvJitLinkGetErrorLog", api.error_log) &&
        Bind(lib, "nvJitLinkVersion", api.version)) {
      return oracle::Result<NvJitLink::Api>::Ok(api);
    }
    return oracle::Result<NvJitLink::Api>::Fail(path + " lacks an nvJitLink entry point");
  }
  return oracle::Result<NvJitLink::Api>::Fail("no nvJitLink library (tried " + where + ")");
}

}  // namespace

oracle::Result<const NvJitLink*> NvJitLink::Load() {
  static const oracle::Result<Api> api = Open();
  if (!api.ok()) return oracle::Result<const NvJitLink*>::Fail(api.error());
  static const NvJitLink link(&api.value());
  return oracle::Result<const NvJitLink*>::Ok(&link);
}

std::string NvJitLink::Version() const {
  unsigned major = 0, minor = 0;
  if (api_->version(&major, &minor) != 0) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

AssembleOutcome NvJitLink::Assemble(std::string_view ptx, std::string_view target) const {
  const std::string arch = "-arch=" + std::string(target);
  const char* options[] = {arch.c_str()};
  Api::Handle h = nullptr;
  AssembleOutcome out;
  if (const int rc = api_->create(&h, 1, options); rc != 0) {
    out.diagnostic = "nvJitLinkCreate failed (" + std::to_string(rc) + ") for " + arch;
    if (h != nullptr) api_->destroy(&h);
    return out;
  }
  int rc = api_->add_data(h, kInputPtx, ptx.data(), ptx.size(), "tcfuzz.ptx");
  if (rc == 0) rc = api_->complete(h);
  out.accepted = rc == 0;
  if (!out.accepted) {
    size_t n = 0;
    if (api_->error_log_size(h, &n) == 0 && n > 0) {
      std::string log(n, '\0');
      if (api_->error_log(h, log.data()) == 0) out.diagnostic = log.c_str();
    }
    if (out.diagnostic.empty())
      out.diagnostic = "nvJitLink error " + std::to_string(rc) + " with an empty log";
  }
  api_->destroy(&h);
  return out;
}

}  // namespace tcfuzz::harness
