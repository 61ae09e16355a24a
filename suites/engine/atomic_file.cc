#include "suites/engine/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tcfuzz::suites {

using oracle::Result;

Result<bool> WriteFileAtomic(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return Result<bool>::Fail("cannot create folder for " + path + ": " + ec.message());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Result<bool>::Fail("cannot write " + tmp + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string err = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return Result<bool>::Fail("cannot write " + tmp + ": " + err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return Result<bool>::Fail("cannot flush " + tmp + ": " + std::strerror(errno));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Result<bool>::Fail("cannot rename " + tmp + " to " + path + ": " + err);
  }
  return Result<bool>::Ok(true);
}

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Result<std::string>::Fail(path + ": is a folder, not a file");
  }
  if (path == "-" ||
      (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))) {
    // A pipe (or "-" for stdin): no size to ask for, so read until EOF or past the cap.
    std::ifstream pipe_in(path == "-" ? "/dev/stdin" : path, std::ios::binary);
    if (!pipe_in) return Result<std::string>::Fail(path + ": cannot open: " + std::strerror(errno));
    std::string data;
    char buf[65536];
    while (pipe_in.read(buf, sizeof buf) || pipe_in.gcount() > 0) {
      data.append(buf, static_cast<std::size_t>(pipe_in.gcount()));
      if (data.size() > max_bytes) {
        return Result<std::string>::Fail(path + ": larger than " + std::to_string(max_bytes) +
                                         " bytes");
      }
    }
    return Result<std::string>::Ok(std::move(data));
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Result<std::string>::Fail(path + ": cannot open: " + ec.message());
  if (size > max_bytes) {
    return Result<std::string>::Fail(path + ": larger than " + std::to_string(max_bytes) +
                                     " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::string>::Fail(path + ": cannot open: " + std::strerror(errno));
  std::string data(static_cast<std::size_t>(size), '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return Result<std::string>::Ok(std::move(data));
}

}  // namespace tcfuzz::suites
