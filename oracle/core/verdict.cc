#include "oracle/core/verdict.h"

#include <utility>

namespace tcfuzz::oracle {

bool Verdict::Violates(std::string_view rule_id) const {
  for (const Violation& v : violations_) {
    if (v.rule->id == rule_id) return true;
  }
  return false;
}

void Verdict::Add(const Rule& rule, std::string field, uint64_t value, std::string message) {
  violations_.push_back(Violation{&rule, std::move(field), value, std::move(message)});
}

}  // namespace tcfuzz::oracle
