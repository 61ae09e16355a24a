#include <cuda_runtime.h>

#include "harness/device.h"

namespace tcfuzz::harness {
namespace {

__global__ void ReportArch(int* out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}

}  // namespace

DeviceInfo ProbeDevice() {
  DeviceInfo info;
  cudaRuntimeGetVersion(&info.runtime_version);
  if (cudaDriverGetVersion(&info.driver_version) != cudaSuccess || info.driver_version == 0) {
    info.reason = "no CUDA driver on this machine";
    return info;
  }
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    info.reason = std::string("no CUDA device: ") +
                  (err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
    return info;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    info.reason = "cannot read device 0 properties";
    return info;
  }
  info.available = true;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  return info;
}

int KernelArchOnDevice() {
  int* d = nullptr;
  int h = -1;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) return -1;
  cudaMemset(d, 0xff, sizeof(int));
  ReportArch<<<1, 1>>>(d);
  const bool ok = cudaDeviceSynchronize() == cudaSuccess &&
                  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(d);
  return ok ? h : -1;
}

}  // namespace tcfuzz::harness
