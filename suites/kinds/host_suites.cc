#include "suites/engine/host_suite.h"

namespace tcfuzz::suites {

std::vector<std::unique_ptr<HostSuite>> MakeHostSuites() {
  std::vector<std::unique_ptr<HostSuite>> suites;
  suites.push_back(MakeZeroColumnMaskSuite());
  suites.push_back(MakeSmemDescriptorSuite());
  suites.push_back(MakeSparseOracleSuite());
  return suites;
}

}  // namespace tcfuzz::suites
