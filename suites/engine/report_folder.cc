#include "suites/engine/report_folder.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace tcfuzz::suites {
namespace fs = std::filesystem;

bool IsReportEntry(const std::string& name) {
  static constexpr std::string_view kNames[] = {"summary.json", "junit.xml", "index.html",
                                                "reproducers",  "undefined", "unconfirmed",
                                                "runs"};  // a mutation matrix's campaigns
  for (std::string_view n : kNames) {
    if (name == n) return true;
  }
  return name.starts_with("journal-") && name.ends_with(".txt");
}

namespace {

// Takes the lock file at `path` without waiting: the descriptor, or -1 when another process holds
// it. A holder unlinks the file before it lets go, so a lock taken on a file no longer at `path`
// is retried on the new one.
int TakeLock(const std::string& path) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -2;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      return -1;
    }
    struct stat held = {}, now = {};
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
        held.st_dev == now.st_dev) {
      // The pid is only for another run's message: a lock without it still locks.
      const std::string pid = std::to_string(::getpid()) + "\n";
      const bool noted = ::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) ==
                                                        static_cast<ssize_t>(pid.size());
      (void)noted;
      return fd;
    }
    ::close(fd);
  }
  return -1;
}

// Staging folders of runs into `target` that died (SIGKILL, power loss) before switching theirs
// in: .NAME.tcfuzz-PID-N (and -N.old) whose PID is gone. One with a summary.json is a finished
// report whose switch failed, which tcfuzz said where it kept: it stays.
void RemoveDeadStaging(const fs::path& target) {
  const std::string prefix = "." + target.filename().string() + ".tcfuzz-";
  std::error_code ec;
  std::vector<fs::path> dead;
  for (fs::directory_iterator it(target.parent_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix) || name.ends_with("lock")) continue;
    const std::string rest = name.substr(prefix.size());
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)
      continue;
    if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
    if (fs::exists(it->path() / "summary.json", ec)) continue;
    dead.push_back(it->path());
  }
  for (const fs::path& d : dead) fs::remove_all(d, ec);
}

}  // namespace

oracle::Result<ReportFolder> ReportFolder::Open(const std::string& dir, bool keep_contents) {
  if (dir.empty()) return oracle::Error("--report: empty folder name");
  std::error_code ec;
  fs::path target(dir);
  const fs::file_status link = fs::symlink_status(target, ec);
  if (fs::is_symlink(link)) {
    target = fs::canonical(target, ec);  // the folder it names is the one replaced
    if (ec) return oracle::Error(dir + ": a symbolic link to nothing (" + ec.message() + ")");
  }
  target = fs::absolute(target, ec).lexically_normal();
  if (target.has_filename() == false) target = target.parent_path();
  const fs::file_status st = fs::status(target, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) return oracle::Error(dir + ": exists and is not a folder");
    for (fs::directory_iterator it(target, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!IsReportEntry(name))
        return oracle::Error(dir + ": holds '" + name +
                             "', which is not part of a tcfuzz report; give --report a new or "
                             "empty folder");
    }
    if (ec) return oracle::Error(dir + ": cannot list it (" + ec.message() + ")");
    // A mount point cannot be renamed: the switch at the end would fail after the whole run.
    struct stat self = {}, up = {};
    if (::stat(target.c_str(), &self) == 0 && ::stat(target.parent_path().c_str(), &up) == 0 &&
        self.st_dev != up.st_dev)
      return oracle::Error(dir + ": a mount point; give --report a folder inside it");
  } else if (keep_contents) {
    return oracle::Error(dir + ": no such report folder");
  }
  const fs::path parent = target.parent_path();
  fs::create_directories(parent, ec);
  if (ec) return oracle::Error(parent.string() + ": cannot create it (" + ec.message() + ")");
  ReportFolder f;
  f.lock_path_ = (parent / ("." + target.filename().string() + ".tcfuzz-lock")).string();
  f.lock_fd_ = TakeLock(f.lock_path_);
  if (f.lock_fd_ == -2) {
    return oracle::Error(dir + ": cannot lock it (" + f.lock_path_ + ": " + std::strerror(errno) +
                         ")");
  }
  if (f.lock_fd_ < 0) {
    std::string holder = "another tcfuzz process";
    if (FILE* in = std::fopen(f.lock_path_.c_str(), "r")) {
      long pid = 0;
      if (std::fscanf(in, "%ld", &pid) == 1 && pid > 0)
        holder = "tcfuzz process " + std::to_string(pid);
      std::fclose(in);
    }
    f.lock_path_.clear();  // not ours to remove
    return oracle::Error(dir + ": " + holder +
                         " is writing a report there; wait for it or give "
                         "--report another folder");
  }
  RemoveDeadStaging(target);
  static std::atomic<unsigned> counter{0};
  const fs::path work = parent / ("." + target.filename().string() + ".tcfuzz-" +
                                  std::to_string(::getpid()) + "-" + std::to_string(counter++));
  if (::mkdir(work.c_str(), 0777) != 0)
    return oracle::Error(dir + ": cannot write beside it in " + parent.string() + " (" +
                         std::strerror(errno) + ")");
  f.target_ = target.string();
  f.work_ = work.string();
  if (keep_contents && fs::exists(st)) {
    fs::copy(target, work, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (ec) return oracle::Error(dir + ": cannot copy it to continue it (" + ec.message() + ")");
  }
  return oracle::Result<ReportFolder>::Ok(std::move(f));
}

ReportFolder::ReportFolder(ReportFolder&& other) noexcept
    : target_(std::move(other.target_)),
      work_(std::move(other.work_)),
      committed_(other.committed_),
      lock_path_(std::move(other.lock_path_)),
      lock_fd_(other.lock_fd_) {
  other.committed_ = true;  // the moved-from folder owns nothing
  other.lock_path_.clear();
  other.lock_fd_ = -1;
}

ReportFolder::~ReportFolder() {
  if (!committed_ && !work_.empty()) {
    std::error_code ec;
    fs::remove_all(work_, ec);
  }
  if (lock_fd_ >= 0) {  // unlinked while still held: the next run takes a fresh file
    if (!lock_path_.empty()) ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
  }
}

oracle::Result<bool> ReportFolder::Commit() {
  std::error_code ec;
  const bool had_target = fs::exists(fs::symlink_status(target_, ec));
  if (!had_target) {
    if (::rename(work_.c_str(), target_.c_str()) != 0) {
      committed_ = true;  // kept where it is: a finished report is never thrown away
      return oracle::Error(target_ + ": cannot move the report there (" + std::strerror(errno) +
                           "); it is in " + work_);
    }
    committed_ = true;
    return oracle::Result<bool>::Ok(true);
  }
  // One atomic exchange: the old report ends up under the work folder's name, then goes.
  if (::renameat2(AT_FDCWD, work_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0) {
    // A file system without the exchange: move the old report aside first.
    const std::string aside = work_ + ".old";
    if (::rename(target_.c_str(), aside.c_str()) != 0) {
      committed_ = true;  // kept where it is: a finished report is never thrown away
      return oracle::Error(target_ + ": cannot switch the new report in (" + std::strerror(errno) +
                           "); it is in " + work_);
    }
    if (::rename(work_.c_str(), target_.c_str()) != 0) {
      const int err = errno;
      ::rename(aside.c_str(), target_.c_str());  // the previous report back
      committed_ = true;
      return oracle::Error(target_ + ": cannot switch the new report in (" + std::strerror(err) +
                           "); it is in " + work_);
    }
    fs::remove_all(aside, ec);
    committed_ = true;
    return oracle::Result<bool>::Ok(true);
  }
  committed_ = true;
  // The previous report, now under the work folder's name: its report entries go; anything else
  // put there during the run stays (the folder then stays too, under that name).
  for (fs::directory_iterator it(work_, ec), end; !ec && it != end; it.increment(ec)) {
    if (IsReportEntry(it->path().filename().string())) fs::remove_all(it->path(), ec);
  }
  ::rmdir(work_.c_str());
  return oracle::Result<bool>::Ok(true);
}

}  // namespace tcfuzz::suites
