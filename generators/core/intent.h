// What a generated case is for.
#pragma once

#include <optional>
#include <string_view>

namespace tcfuzz::gen {

enum class Intent {
  kLegal,     // legal by construction: every rule holds
  kBreakOne,  // exactly one named rule is violated, every other rule holds
  kRawBits,   // unconstrained bits, for decoder and validator robustness
};

std::string_view IntentName(Intent intent);
std::optional<Intent> ParseIntent(std::string_view name);

}  // namespace tcfuzz::gen
