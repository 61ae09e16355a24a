// Legality rules: one entry per checked spec sentence.
//
// Every validate() in the oracle reports violations by Rule, never by assert or exception.
// A Rule's id is stable (it names reproducers, corpus files and report entries); its section
// ties it to the spec text it restates.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/span.h"

namespace tcfuzz::oracle {

struct Rule {
  std::string_view id;       // stable dotted id, e.g. "zcm.reserved_36_38"
  std::string_view section;  // spec section and table, e.g. "PTX 9.1 §9.7.16.4.3 Table 45"
  std::string_view meaning;  // one line: what must hold
};

// Every rule of every operand, in registration order (see rule_index.cc).
Span<const Rule* const> AllRules();

// The rule with this id, or nullptr.
const Rule* FindRule(std::string_view id);

// "none" or a comma-separated list of registered rule ids (an expect.rules value).
Result<std::vector<std::string>> ParseRuleIds(std::string_view text);

}  // namespace tcfuzz::oracle
