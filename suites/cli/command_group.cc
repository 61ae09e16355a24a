#include "suites/cli/command_group.h"

namespace tcfuzz::cli {

std::string Call::CommandLine() const {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace tcfuzz::cli
