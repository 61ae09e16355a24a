#include "generators/core/intent.h"

namespace tcfuzz::gen {

std::string_view IntentName(Intent intent) {
  switch (intent) {
    case Intent::kLegal:
      return "legal";
    case Intent::kBreakOne:
      return "break_one";
    case Intent::kRawBits:
      return "raw_bits";
  }
  return "unknown";
}

std::optional<Intent> ParseIntent(std::string_view name) {
  for (Intent i : {Intent::kLegal, Intent::kBreakOne, Intent::kRawBits}) {
    if (IntentName(i) == name) return i;
  }
  return std::nullopt;
}

}  // namespace tcfuzz::gen
