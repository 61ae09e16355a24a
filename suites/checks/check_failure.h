// One failed invariant of one case: the check's stable name and a one-line message.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/core/intent.h"
#include "oracle/core/text_format.h"
#include "oracle/core/verdict.h"

namespace tcfuzz::suites {

struct CheckFailure {
  std::string check;
  std::string message;
};

using CheckFailures = std::vector<CheckFailure>;

inline void Fail(CheckFailures& out, std::string check, std::string message) {
  out.push_back(CheckFailure{std::move(check), std::move(message)});
}

// A case file's `expect.rules` held to the oracle's verdict `v` (expect_rules); none: nothing.
template <class Rules>
void CheckExpectedRules(const std::optional<Rules>& rules, const oracle::Verdict& v,
                        CheckFailures& out) {
  if (!rules) return;
  const std::set<std::string> want(rules->begin(), rules->end());
  if (v.RuleIds() != want) {
    Fail(out, "expect_rules",
         "expected " + oracle::JoinRuleIds(want) + ", oracle says " +
             oracle::JoinRuleIds(v.RuleIds()));
  }
}

// The generator's promise held to the oracle's verdict `v`: a legal case breaks no rule
// (intent_legal), a break-one case exactly its `broken` rule (intent_break_one); raw bits
// promise nothing.
inline void CheckIntent(gen::Intent intent, const oracle::Rule* broken, const oracle::Verdict& v,
                        CheckFailures& out) {
  if (intent == gen::Intent::kLegal && !v.legal())
    Fail(out, "intent_legal", "legal case violates " + oracle::JoinRuleIds(v.RuleIds()));
  if (intent == gen::Intent::kBreakOne &&
      v.RuleIds() != std::set<std::string>{std::string(broken->id)}) {
    Fail(out, "intent_break_one",
         "meant to break " + std::string(broken->id) + " but violates " +
             oracle::JoinRuleIds(v.RuleIds()));
  }
}

// What replaying one case file found: the checks it fails (empty: it passes) and, when part of
// it could not be judged without a GPU, what (printed after PASS).
struct Replayed {
  CheckFailures failures;
  std::string note;
};

// How a GPU case file without the device's D replays. A reproducer (it names the outcome it was
// kept for) fails as "<family>.device_<origin.outcome>" with origin.detail, pointing at a rerun
// on a GPU; a case that was never run (a corpus input) passes with a note.
inline Replayed UnobservedDeviceCase(const oracle::TextDoc& doc, std::string_view family) {
  if (!doc.Has("origin.outcome")) {
    return {{}, "no device D in the file to compare with: run it on a GPU (tcfuzz repro)"};
  }
  const auto text = [&doc](std::string_view key) {
    auto v = doc.String(key);
    return v.ok() ? v.value() : std::string();
  };
  return {{{std::string(family) + ".device_" + text("origin.outcome"),
            text("origin.detail") + " (no observed D: re-run on a GPU, see the file's last line)"}},
          {}};
}

}  // namespace tcfuzz::suites
