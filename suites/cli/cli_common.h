// Helpers every tcfuzz command shares: one-line errors with exit code 2, number parsing.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/text_format.h"

namespace tcfuzz::cli {

[[noreturn]] inline void Die(const std::string& message) {
  std::cerr << "tcfuzz: error: " << message << "\n";
  std::exit(2);
}

inline uint64_t ParseNumberArg(const std::string& what, const std::string& text, uint64_t max) {
  auto v = oracle::ParseUint(text, max);
  if (!v.ok()) Die(what + ": " + v.error());
  return v.value();
}

// An enumeration value by name, or a one-line error listing the accepted names.
template <class E>
E ParseEnumArg(const std::string& what, const std::string& text,
               std::optional<E> (*parse)(std::string_view), const char* accepted) {
  const std::optional<E> v = parse(text);
  if (!v) Die(what + ": '" + text + "' is not one of " + accepted);
  return *v;
}

}  // namespace tcfuzz::cli
