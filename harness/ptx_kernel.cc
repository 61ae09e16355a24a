#include "harness/ptx_kernel.h"

#include <cuda.h>
#include <dlfcn.h>

#include <chrono>
#include <map>
#include <mutex>

namespace tcfuzz::harness {
namespace {

using R = oracle::Result<std::vector<uint32_t>>;

// The driver is opened at run time, not linked: binaries must start (and skip) on machines
// without one.
struct Driver {
  bool ok = false;
#define TCFUZZ_CU(name) decltype(&::name) name = nullptr;
  TCFUZZ_CU(cuInit)
  TCFUZZ_CU(cuDeviceGet)
  TCFUZZ_CU(cuDevicePrimaryCtxRetain)
  TCFUZZ_CU(cuCtxSetCurrent)
  TCFUZZ_CU(cuCtxGetDevice)
  TCFUZZ_CU(cuDeviceGetAttribute)
  TCFUZZ_CU(cuGetErrorName)
  TCFUZZ_CU(cuGetErrorString)
  TCFUZZ_CU(cuModuleLoadDataEx)
  TCFUZZ_CU(cuModuleGetFunction)
  TCFUZZ_CU(cuFuncSetAttribute)
  TCFUZZ_CU(cuMemAlloc)
  TCFUZZ_CU(cuMemFree)
  TCFUZZ_CU(cuMemcpyHtoD)
  TCFUZZ_CU(cuMemcpyDtoH)
  TCFUZZ_CU(cuMemsetD32)
  TCFUZZ_CU(cuLaunchKernel)
  TCFUZZ_CU(cuCtxSynchronize)
#undef TCFUZZ_CU
};

const Driver& Api() {
  static const Driver d = [] {
    Driver x;
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return x;
    bool all = true;
    const auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      all = all && fn != nullptr;
    };
    get(x.cuInit, "cuInit");
    get(x.cuDeviceGet, "cuDeviceGet");
    get(x.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    get(x.cuCtxSetCurrent, "cuCtxSetCurrent");
    get(x.cuCtxGetDevice, "cuCtxGetDevice");
    get(x.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    get(x.cuGetErrorName, "cuGetErrorName");
    get(x.cuGetErrorString, "cuGetErrorString");
    get(x.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    get(x.cuModuleGetFunction, "cuModuleGetFunction");
    get(x.cuFuncSetAttribute, "cuFuncSetAttribute");
    get(x.cuMemAlloc, "cuMemAlloc_v2");
    get(x.cuMemFree, "cuMemFree_v2");
    get(x.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    get(x.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    get(x.cuMemsetD32, "cuMemsetD32_v2");
    get(x.cuLaunchKernel, "cuLaunchKernel");
    get(x.cuCtxSynchronize, "cuCtxSynchronize");
    x.ok = all;
    return x;
  }();
  return d;
}

std::string ErrorText(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  Api().cuGetErrorName(r, &name);
  Api().cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA_ERROR") + " (" + (text ? text : "?") + ")";
}

bool Init(CUcontext& ctx, std::string& err) {
  if (!Api().ok) {
    err = "no CUDA driver (libcuda.so.1) on this machine";
    return false;
  }
  CUresult r = Api().cuInit(0);
  CUdevice dev;
  if (r == CUDA_SUCCESS) r = Api().cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS) r = Api().cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r == CUDA_SUCCESS) r = Api().cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) err = "no CUDA device: " + ErrorText(r);
  return r == CUDA_SUCCESS;
}

// A module per PTX text, JIT-compiled once per process: a worker launches the same few modules
// (one per instruction form) thousands of times. Loaded modules stay until the process ends;
// after a sticky error the context, and every module with it, is gone anyway.
std::mutex jit_mu;
JitTotals jit_totals;  // guarded by jit_mu

CUresult LoadModule(const std::string& ptx, CUmodule& mod, std::string& log) {
  static std::map<std::string, CUmodule> loaded;
  const std::lock_guard<std::mutex> lock(jit_mu);
  if (const auto it = loaded.find(ptx); it != loaded.end()) {
    mod = it->second;
    return CUDA_SUCCESS;
  }
  char buf[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {buf, reinterpret_cast<void*>(sizeof buf)};
  const auto t0 = std::chrono::steady_clock::now();
  const CUresult r = Api().cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opts, vals);
  ++jit_totals.modules;
  jit_totals.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log = buf;
  if (r == CUDA_SUCCESS) loaded.emplace(ptx, mod);
  return r;
}

}  // namespace

JitTotals ProcessJitTotals() {
  const std::lock_guard<std::mutex> lock(jit_mu);
  return jit_totals;
}

std::string DeviceTarget() {
  CUcontext ctx;
  std::string err;
  if (!Init(ctx, err)) return {};
  CUdevice dev;
  int major = 0, minor = 0;
  Api().cuCtxGetDevice(&dev);
  Api().cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  Api().cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

R RunPtxKernel(const KernelLaunch& l) {
  CUcontext ctx;
  std::string err;
  if (!Init(ctx, err)) return R::Fail(err);
  CUmodule mod;
  std::string log;
  CUresult r = LoadModule(l.ptx, mod, log);
  if (r != CUDA_SUCCESS) return R::Fail(std::string(kJitError) + ": " + ErrorText(r) + ": " + log);
  std::vector<CUdeviceptr> bufs;
  const auto cleanup = [&] {
    for (CUdeviceptr p : bufs) Api().cuMemFree(p);
  };
  const auto fail = [&](const std::string& what, CUresult res) {
    cleanup();
    return R::Fail(what + ": " + ErrorText(res));
  };
  CUfunction fn;
  if ((r = Api().cuModuleGetFunction(&fn, mod, l.entry.c_str())) != CUDA_SUCCESS)
    return fail("no entry " + l.entry, r);
  for (const auto& in : l.inputs) {
    CUdeviceptr p = 0;
    if ((r = Api().cuMemAlloc(&p, std::max<std::size_t>(4, in.size() * 4))) != CUDA_SUCCESS)
      return fail("cuMemAlloc", r);
    bufs.push_back(p);
    if (!in.empty() && (r = Api().cuMemcpyHtoD(p, in.data(), in.size() * 4)) != CUDA_SUCCESS)
      return fail("copy in", r);
  }
  CUdeviceptr out = 0;
  if ((r = Api().cuMemAlloc(&out, std::max<std::size_t>(4, l.output_words * 4))) != CUDA_SUCCESS)
    return fail("cuMemAlloc", r);
  bufs.push_back(out);
  Api().cuMemsetD32(out, 0xDEADBEEF, l.output_words);  // unwritten outputs stand out
  std::vector<void*> args;
  for (CUdeviceptr& p : bufs) args.push_back(&p);
  uint32_t n = l.n;
  args.push_back(&n);
  // Past 48 KiB of dynamic shared memory a kernel must opt in.
  if (l.shared_bytes > 48 * 1024 &&
      (r = Api().cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    static_cast<int>(l.shared_bytes))) != CUDA_SUCCESS) {
    return fail(std::string(kHostError) + "dynamic shared memory of " +
                    std::to_string(l.shared_bytes) + " bytes",
                r);
  }
  if ((r = Api().cuLaunchKernel(fn, l.grid, 1, 1, l.block, 1, 1, l.shared_bytes, nullptr,
                                args.data(), nullptr)) != CUDA_SUCCESS) {
    return fail("launch", r);
  }
  if ((r = Api().cuCtxSynchronize()) != CUDA_SUCCESS) return fail("kernel", r);
  std::vector<uint32_t> result(l.output_words);
  if ((r = Api().cuMemcpyDtoH(result.data(), out, l.output_words * 4)) != CUDA_SUCCESS)
    return fail("copy out", r);
  cleanup();
  return R::Ok(std::move(result));
}

}  // namespace tcfuzz::harness
