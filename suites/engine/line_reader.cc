#include "suites/engine/line_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

namespace tcfuzz::suites {

bool LineReader::Next(std::string& line) {
  if (!error_.empty()) return false;
  if (line_no_ == 0 && &in_ == &std::cin) {  // a folder reads as an empty stream: say so
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0 && S_ISDIR(st.st_mode)) {
      error_ = "stdin is a folder";
      return false;
    }
  }
  line.clear();
  std::streambuf* const buf = in_.rdbuf();
  bool any = false;
  try {  // libstdc++'s filebuf throws on a read error (stdin unsynced from stdio)
    for (;;) {
      const int c = buf == nullptr ? EOF : buf->sbumpc();
      if (c == EOF) break;
      any = true;
      if (c == '\n') break;
      if (line.size() == max_) {
        error_ = "line " + std::to_string(line_no_ + 1) + " is longer than " +
                 std::to_string(max_) + " bytes";
        return false;
      }
      line.push_back(static_cast<char>(c));
    }
  } catch (const std::exception& e) {
    error_ = std::string("reading the input: ") + e.what();
    return false;
  }
  if (!any) {
    if (&in_ == &std::cin && std::ferror(stdin)) {
      error_ = std::string("reading stdin: ") + std::strerror(errno);
    } else if (in_.bad()) {
      error_ = "reading the input failed";
    }
    return false;
  }
  ++line_no_;
  return true;
}

}  // namespace tcfuzz::suites
