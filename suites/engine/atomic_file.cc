#include "suites/engine/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace tcfuzz::suites {

using oracle::Result;

namespace {

std::string Errno() { return std::strerror(errno); }

// The descriptor a path names when it is one of this process's streams: "-" (stdout),
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N; else -1. Such a target is the stream
// itself: following its link would rename a temporary file over whatever stdout is (a file: the
// command's own output lost) or fail (a pipe).
int StreamDescriptor(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view n = path.substr(prefix.size());
    if (n.empty() || n.size() > 4 || n.find_first_not_of("0123456789") != n.npos) return -1;
    return std::stoi(std::string(n));
  }
  return -1;
}

// The file a path names once its symbolic links are followed (up to 40, as the kernel does); a
// dangling link names the file it would create.
Result<std::string> FollowLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (StreamDescriptor(p) >= 0) return Result<std::string>::Ok(p);  // a link to /dev/stdout
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return Result<std::string>::Ok(p);
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n < 0) return Result<std::string>::Fail(path + ": cannot read the link: " + Errno());
    const std::string target(buf, static_cast<std::size_t>(n));
    const std::filesystem::path parent = std::filesystem::path(p).parent_path();
    // A relative target is relative to the link's folder ("./-" for a link to "-" here: the
    // file of that name, never standard output).
    p = target.starts_with('/')
            ? target
            : ((parent.empty() ? std::filesystem::path(".") : parent) / target).string();
  }
  return Result<std::string>::Fail(path + ": too many levels of symbolic links");
}

Result<bool> WriteAll(int fd, std::string_view content, const std::string& what) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Result<bool>::Fail("cannot write " + what + ": " + Errno());
    done += static_cast<std::size_t>(n);
  }
  return Result<bool>::Ok(true);
}

// A character device or a FIFO the user named: written as it is, never replaced. A FIFO without
// a reader is an error at once rather than a hang.
Result<bool> WriteSpecial(const std::string& path, std::string_view content, bool fifo) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (fifo ? O_NONBLOCK : 0));
  if (fd < 0) {
    if (fifo && errno == ENXIO) return Result<bool>::Fail(path + ": a FIFO with no reader");
    return Result<bool>::Fail("cannot write " + path + ": " + Errno());
  }
  if (fifo) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const Result<bool> w = WriteAll(fd, content, path);
  ::close(fd);
  return w;
}

// The stream `path` names, by name or through links, or whose very file it is (stdout sent to
// that file): renaming over it would lose what the command printed there. -1 for none.
int OwnStream(const std::string& path) {
  const Result<std::string> resolved = FollowLinks(path);
  if (!resolved.ok()) return -1;
  if (const int fd = StreamDescriptor(resolved.value()); fd >= 0) return fd;
  struct stat st, out;
  if (::stat(resolved.value().c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      ::fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st.st_dev && out.st_ino == st.st_ino)
    return STDOUT_FILENO;
  return -1;
}

}  // namespace

bool NamesOwnStream(const std::string& path) { return OwnStream(path) >= 0; }

Result<bool> WriteFileAtomic(const std::string& requested, std::string_view content) {
  namespace fs = std::filesystem;
  if (const int fd = OwnStream(requested); fd >= 0) {
    std::cout.flush();  // what the command printed before comes first
    std::cerr.flush();
    std::fflush(nullptr);
    return WriteAll(fd, content, requested);
  }
  const Result<std::string> resolved = FollowLinks(requested);
  if (!resolved.ok()) return Result<bool>::Fail(resolved.error());
  const std::string& path = resolved.value();
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Result<bool>::Fail(requested + ": is a folder, not a file");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
      return WriteSpecial(path, content, S_ISFIFO(st.st_mode));
    if (!S_ISREG(st.st_mode))
      return Result<bool>::Fail(requested + ": not a regular file, a terminal or a FIFO");
    if (st.st_nlink > 1) {
      // A hard link: renaming over it would leave the other names with the old text, so it is
      // rewritten in place (every name sees the new text; not atomic).
      const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      if (fd < 0) return Result<bool>::Fail("cannot write " + requested + ": " + Errno());
      Result<bool> w = WriteAll(fd, content, requested);
      if (w.ok() && ::fsync(fd) != 0)
        w = Result<bool>::Fail("cannot flush " + requested + ": " + Errno());
      ::close(fd);
      return w;
    }
  }
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return Result<bool>::Fail("cannot create folder for " + requested + ": " + ec.message());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Result<bool>::Fail("cannot write " + tmp + ": " + Errno());
  const Result<bool> w = WriteAll(fd, content, tmp);
  if (!w.ok()) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return w;
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return Result<bool>::Fail("cannot flush " + tmp + ": " + Errno());
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = Errno();
    ::unlink(tmp.c_str());
    return Result<bool>::Fail("cannot rename " + tmp + " to " + path + ": " + err);
  }
  return Result<bool>::Ok(true);
}

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes, Links links) {
  // Standard input is the one input that is not a regular file; anything else (a FIFO, a device,
  // a folder) is refused at once: it could hang or never end.
  const bool stdin_path = path == "-";
  int fd = 0;
  if (!stdin_path) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
                                  (links == Links::kRefuse ? O_NOFOLLOW : 0));
    if (fd < 0 && links == Links::kRefuse && errno == ELOOP)
      return Result<std::string>::Fail(path + ": a link (links are not followed)");
    if (fd < 0) return Result<std::string>::Fail(path + ": cannot open: " + Errno());
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      const bool dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
      ::close(fd);
      return Result<std::string>::Fail(
          path + (dir ? ": is a folder, not a file" : ": not a regular file (a FIFO or a device)"));
    }
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      ::close(fd);
      return Result<std::string>::Fail(path + ": larger than " + std::to_string(max_bytes) +
                                       " bytes");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  }
  std::string data;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string err = Errno();
      if (!stdin_path) ::close(fd);
      return Result<std::string>::Fail(path + ": cannot read: " + err);
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > max_bytes) {
      if (!stdin_path) ::close(fd);
      return Result<std::string>::Fail(path + ": larger than " + std::to_string(max_bytes) +
                                       " bytes");
    }
  }
  if (!stdin_path) ::close(fd);
  return Result<std::string>::Ok(std::move(data));
}

}  // namespace tcfuzz::suites
