// Lines of an input stream for the batch commands (`oracle dot`, `explain batch`, `encode
// batch`): bounded in length, so a line of a gigabyte is an error naming it rather than a
// gigabyte of memory, and a stream that fails to read (stdin a folder) is an error, not the end.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace tcfuzz::suites {

class LineReader {
 public:
  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

  explicit LineReader(std::istream& in, std::size_t max_bytes = kMaxLineBytes)
      : in_(in), max_(max_bytes) {}

  // The next line (without its '\n'); false at the end of the input or on an error (error()).
  bool Next(std::string& line);
  int line_no() const { return line_no_; }
  // "" at a clean end; else one line: "line 7 is longer than 1048576 bytes", "reading stdin: ...".
  const std::string& error() const { return error_; }

 private:
  std::istream& in_;
  std::size_t max_;
  int line_no_ = 0;
  std::string error_;
};

}  // namespace tcfuzz::suites
