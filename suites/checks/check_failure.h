// One failed invariant of one case: the check's stable name and a one-line message.
#pragma once

#include <string>
#include <vector>

namespace tcfuzz::suites {

struct CheckFailure {
  std::string check;
  std::string message;
};

using CheckFailures = std::vector<CheckFailure>;

}  // namespace tcfuzz::suites
