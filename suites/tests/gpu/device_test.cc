// GPU smoke tests: skip visibly without a GPU; on one, check that the build carries a native
// image for the device (the fatbin has sm_80, sm_89, sm_90a and sm_100a code).
#include "harness/device.h"

#include <gtest/gtest.h>

namespace tcfuzz {
namespace {

TEST(GpuDevice, KernelRunsTheNativeImageForTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  std::printf("device: %s, compute capability %d.%d, driver %d, runtime %d\n", info.name.c_str(),
              info.cc_major, info.cc_minor, info.driver_version, info.runtime_version);
  const int arch = harness::KernelArchOnDevice();
  ASSERT_NE(arch, -1) << "kernel launch failed on " << info.name;
  // The driver runs the newest image of the device's major version not newer than the device.
  EXPECT_EQ(arch / 100, info.cc_major) << "image for sm_" << arch / 10 << " ran on " << info.name;
  EXPECT_LE(arch, info.cc_major * 100 + info.cc_minor * 10);
}

}  // namespace
}  // namespace tcfuzz
