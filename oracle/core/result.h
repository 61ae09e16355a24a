// A value or a one-line error message: what every parser in tcfuzz returns.
// Bad input is an ordinary outcome, never an exception or an abort.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace tcfuzz::oracle {

template <class T>
class Result {
 public:
  static Result Ok(T value) { return Result(std::move(value), {}); }
  static Result Fail(std::string error) { return Result(std::nullopt, std::move(error)); }

  bool ok() const { return value_.has_value(); }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  const std::string& error() const { return error_; }

 private:
  Result(std::optional<T> value, std::string error)
      : value_(std::move(value)), error_(std::move(error)) {}
  std::optional<T> value_;
  std::string error_;
};

// `return oracle::Error(message);` from a function returning any Result<T>.
class Error {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  template <class T>
  operator Result<T>() const& {  // NOLINT: implicit by design
    return Result<T>::Fail(message_);
  }

 private:
  std::string message_;
};

}  // namespace tcfuzz::oracle
