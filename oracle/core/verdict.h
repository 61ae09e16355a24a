// The result of every validate(): legal, or the list of violated rules with the offending
// field and value.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/rule.h"

namespace tcfuzz::oracle {

struct Violation {
  const Rule* rule;
  std::string field;  // the operand field (or instruction parameter) at fault
  uint64_t value;     // its offending value
  std::string message;
};

class Verdict {
 public:
  bool legal() const { return violations_.empty(); }
  const std::vector<Violation>& violations() const { return violations_; }
  bool Violates(std::string_view rule_id) const;
  std::set<std::string> RuleIds() const;  // the violated rules' ids
  void Add(const Rule& rule, std::string field, uint64_t value, std::string message);

 private:
  std::vector<Violation> violations_;
};

// "a,b,c", or "none" for an empty list (the form expect.rules and messages use).
std::string JoinRuleIds(const std::set<std::string>& ids);

}  // namespace tcfuzz::oracle
