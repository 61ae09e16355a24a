// The GPU tests' visible skip on a machine without a device of the architecture they need.
#pragma once

#include <gtest/gtest.h>

#include "harness/device.h"

// Leaves `info`, the device, in scope; `what` names the instruction that needs sm_<major>0.
#define TCFUZZ_SKIP_BELOW_SM(major, what)                                                      \
  const harness::DeviceInfo info = harness::ProbeDevice();                                     \
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;                              \
  if (info.cc_major < (major))                                                                 \
  GTEST_SKIP() << what << " needs sm_" << (major) << "0 or newer, device is " << info.cc_major \
               << "." << info.cc_minor
