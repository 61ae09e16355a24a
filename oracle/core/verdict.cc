#include "oracle/core/verdict.h"

#include <utility>

namespace tcfuzz::oracle {

bool Verdict::Violates(std::string_view rule_id) const {
  for (const Violation& v : violations_) {
    if (v.rule->id == rule_id) return true;
  }
  return false;
}

std::set<std::string> Verdict::RuleIds() const {
  std::set<std::string> ids;
  for (const Violation& v : violations_) ids.insert(std::string(v.rule->id));
  return ids;
}

std::string JoinRuleIds(const std::set<std::string>& ids) {
  std::string s;
  for (const std::string& id : ids) s += (s.empty() ? "" : ",") + id;
  return s.empty() ? "none" : s;
}

void Verdict::Add(const Rule& rule, std::string field, uint64_t value, std::string message) {
  violations_.push_back(Violation{&rule, std::move(field), value, std::move(message)});
}

}  // namespace tcfuzz::oracle
