#include "suites/engine/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "oracle/core/text_format.h"

namespace tcfuzz::suites {
namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int& f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  void Close(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// write() to a child's stdin, where a child that stopped reading (it crashed, exited, never
// reads) is EPIPE and nothing else: the SIGPIPE it raises is held blocked in this thread and
// taken back, so it never reaches a run's handler, which reads SIGPIPE as its own stdout closing
// and stops the whole run as interrupted (a crashing tiler did, now and then).
ssize_t WriteToChild(int fd, const char* data, std::size_t size) {
  sigset_t pipe, old;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  sigset_t pending;
  sigemptyset(&pending);
  ::sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  ::pthread_sigmask(SIG_BLOCK, &pipe, &old);
  const ssize_t w = ::write(fd, data, size);
  const int saved = errno;
  if (w < 0 && saved == EPIPE && !was_pending) {
    const timespec now = {0, 0};
    while (::sigtimedwait(&pipe, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return w;
}

// The reaper: the forked child that runs the command as its own child and, being a child
// subreaper, inherits every descendant the command leaves behind, including those that called
// setsid and left the process group. When the command ends (or the reaper is told to stop) it
// kills them all, so nothing a command started outlives it. Everything here runs between fork
// and _exit in a possibly multi-threaded parent: system calls only, no allocation.
volatile sig_atomic_t g_reaper_stop = 0;
extern "C" void OnReaperStop(int) { g_reaper_stop = 1; }
// Wakes the reaper's wait once a second to ask whether tcfuzz still lives: killed outright
// (SIGKILL, a CI job's timeout), it cannot end its commands itself, and the reaper, adopted by
// another process, must end them. (PR_SET_PDEATHSIG would fire when the forking thread ends, and
// a long-lived command is started from a thread that does not outlive it.)
extern "C" void OnReaperAlarm(int) {}

// SIGKILL to every process whose parent is `self`; returns how many there were.
int KillChildrenOf(pid_t self) {
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  int found = 0;
  alignas(8) char buf[8192];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
      unsigned short reclen = 0;
      std::memcpy(&reclen, buf + off + 16, sizeof reclen);
      const char* name = buf + off + 19;
      off += reclen;
      long pid = 0;
      const char* c = name;
      for (; *c >= '0' && *c <= '9' && pid < (1L << 30); ++c) pid = pid * 10 + (*c - '0');
      if (*c != '\0' || c == name) continue;
      char path[48] = "/proc/";
      char digits[24];
      int nd = 0;
      for (long v = pid; v > 0 && nd < 23; v /= 10) digits[nd++] = static_cast<char>('0' + v % 10);
      int len = 6;
      while (nd > 0) path[len++] = digits[--nd];
      for (const char* tail = "/stat"; *tail != '\0'; ++tail) path[len++] = *tail;
      path[len] = '\0';
      const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char stat[512];
      const ssize_t got = ::read(fd, stat, sizeof stat - 1);
      ::close(fd);
      if (got <= 0) continue;
      stat[got] = '\0';
      // "pid (comm) S ppid ...": comm may hold ')' itself, so the last one ends it.
      const char* rp = std::strrchr(stat, ')');
      if (rp == nullptr || rp[1] == '\0' || rp[2] == '\0' || rp[3] == '\0') continue;
      long ppid = 0;
      for (const char* q = rp + 4; *q >= '0' && *q <= '9'; ++q) ppid = ppid * 10 + (*q - '0');
      // Counted only when the signal went: one we may not kill (EPERM) must not keep the
      // caller waiting for it.
      if (ppid == self && ::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++found;
    }
  }
  ::close(dir);
  return found;
}

[[noreturn]] void RunReaper(char* const* args, char* const* envp, const int child_fds[3]) {
  // Only the command's three pipe ends, as 0, 1 and 2: this fork never execs, so close-on-exec
  // protects nothing, and every other descriptor of the parent (another command's pipes, when
  // commands run from several threads) would stay open as long as this command runs.
  for (int i = 0; i < 3; ++i) {
    if (child_fds[i] != i) ::dup2(child_fds[i], i);
  }
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
    for (int fd = 3; fd < 65536; ++fd) ::close(fd);
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t owner = ::getppid();
  struct sigaction sa = {};
  sa.sa_handler = OnReaperStop;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);  // no SA_RESTART: waitpid returns to look at the flag
  sa.sa_handler = OnReaperAlarm;
  ::sigaction(SIGALRM, &sa, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // The command starts only once the reaper has let go of the pipes (EOF on `go` when the
  // reaper closes its end), so from its first instruction only the command holds them.
  int go[2] = {-1, -1};
  const bool wait_for_go = ::pipe2(go, O_CLOEXEC) == 0;
  const pid_t command = ::fork();
  if (command == 0) {
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGPIPE, SIG_DFL);
    if (wait_for_go) {
      ::close(go[1]);
      char c = 0;
      while (::read(go[0], &c, 1) < 0 && errno == EINTR) {
      }
    }
    ::execve(args[0], args, envp);
    ::_exit(127);
  }
  for (int i = 0; i < 3; ++i) ::close(i);  // only the command holds the pipes
  if (wait_for_go) ::close(go[0]), ::close(go[1]);
  if (command < 0) ::_exit(127);
  int status = 0;
  for (;;) {
    if (g_reaper_stop || ::getppid() != owner) ::kill(command, SIGKILL);
    int st = 0;
    ::alarm(1);
    const pid_t w = ::waitpid(-1, &st, 0);
    ::alarm(0);
    if (w == command) {
      status = st;
      break;
    }
    if (w < 0 && errno != EINTR) break;
  }
  // Whatever the command left running is now ours: kill it until none is left. A killed child's
  // own children come to us in turn, so the scan repeats.
  const pid_t self = ::getpid();
  for (int round = 0; round < 10000; ++round) {
    const int found = KillChildrenOf(self);
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (found == 0) break;  // none left that a signal can reach
    const timespec pause = {0, 1000000};
    ::nanosleep(&pause, nullptr);
  }
  if (WIFSIGNALED(status)) {
    // End the way the command ended (without a core file of our own).
    const struct rlimit no_core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::signal(WTERMSIG(status), SIG_DFL);
    ::kill(self, WTERMSIG(status));
    ::_exit(128 + WTERMSIG(status));
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

// argv and the inherited environment with `env` over it, as execve takes them. Built before fork:
// the child may only call async-signal-safe functions.
struct ExecArgs {
  std::vector<std::string> argv_text, env_text;  // owned: the pointers below point into them
  std::vector<char*> args, envp;
  ExecArgs(const std::vector<std::string>& argv,
           const std::vector<std::pair<std::string, std::string>>& env)
      : argv_text(argv) {
    for (std::string& a : argv_text) args.push_back(a.data());
    args.push_back(nullptr);
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string entry(*e);
      const std::string key = entry.substr(0, entry.find('='));
      bool replaced = false;
      for (const auto& [k, v] : env) replaced = replaced || k == key;
      if (!replaced) env_text.push_back(entry);
    }
    for (const auto& [k, v] : env) env_text.push_back(k + "=" + v);
    for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
  }
  ExecArgs(const ExecArgs&) = delete;  // the pointers point into this object's strings
  ExecArgs& operator=(const ExecArgs&) = delete;
};

// Starts `a` in its own process group under the reaper, its stdin, stdout and stderr the three
// pipes (the child's ends closed here). The reaper's pid, or -1 with `error` set.
pid_t Spawn(ExecArgs& a, Pipe& in, Pipe& out, Pipe& err, std::string& error) {
  // A child that exits without reading its stdin must not kill tcfuzz; a handler already there
  // (a run's stop request on a closed pipe, stop_signals.h) stays, as it kills nothing either.
  struct sigaction old = {};
  if (::sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
    ::signal(SIGPIPE, SIG_IGN);
  if (::pipe2(in.fd, O_CLOEXEC) != 0 || ::pipe2(out.fd, O_CLOEXEC) != 0 ||
      ::pipe2(err.fd, O_CLOEXEC) != 0) {
    error = Errno("pipe");
    return -1;
  }
  // If this process started with 0, 1 or 2 closed, a pipe end may have landed there and the
  // child's dup2 calls would clobber each other: keep every end at 3 or above.
  for (Pipe* pp : {&in, &out, &err}) {
    for (int& fd : pp->fd) {
      if (fd < 3) {
        const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
        ::close(fd);
        fd = moved;
      }
    }
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = Errno("fork");
    return -1;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    ::setpgid(0, 0);
    const int child_fds[3] = {in.fd[0], out.fd[1], err.fd[1]};
    RunReaper(a.args.data(), a.envp.data(), child_fds);
  }
  ::setpgid(pid, pid);  // also here, so the group exists before we might kill it
  in.Close(0), out.Close(1), err.Close(1);
  return pid;
}

// Ends the reaper `pid` (which kills the command and all it started) and reaps it: asked with
// SIGTERM until it has, then the whole group killed after 2 s as the last resort.
int StopReaper(pid_t pid) {
  int status = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (std::chrono::steady_clock::now() >= give_up) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    ::kill(pid, SIGTERM);
    ::usleep(2000);
  }
  return status;
}

}  // namespace

std::string ShellQuote(std::string_view word) {
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string ToolCommand() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.filename() != "tcfuzz") return "tcfuzz";
  const std::string path = exe.string();
  // A plain path reads better unquoted; anything a shell would split or expand is quoted.
  const bool plain = path.find_first_not_of(
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-") ==
                     std::string::npos;
  return plain ? path : ShellQuote(path);
}

std::string CommandResult::Describe(std::chrono::milliseconds timeout) const {
  if (!started) return "not started: " + error;
  if (timed_out) return "timed out after " + std::to_string(timeout.count()) + " ms";
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

CommandResult RunCommand(const std::string& command, const std::string& stdin_text,
                         const CommandOptions& options) {
  return RunArgv({"/bin/sh", "-c", command}, stdin_text, options);
}

CommandResult RunArgv(const std::vector<std::string>& argv, const std::string& stdin_text,
                      const CommandOptions& options) {
  CommandResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  ExecArgs exec(argv, options.env);
  Pipe in, out, err;
  const pid_t pid = Spawn(exec, in, out, err, r.error);
  if (pid < 0) return r;
  r.started = true;
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  // Feed stdin without blocking: a child that never reads must still time out.
  ::fcntl(in.fd[1], F_SETFL, O_NONBLOCK);
  std::size_t written = 0;
  if (stdin_text.empty()) in.Close(1);
  std::string* sinks[2] = {&r.out, &r.err};
  int fds[2] = {out.fd[0], err.fd[0]};
  char buf[65536];
  int status = 0;
  bool reaped = false;
  // Once the child has exited, output still in flight is read for a short grace period: a
  // grandchild that keeps the pipes open must not turn a finished answer into a hang.
  std::chrono::steady_clock::time_point drain_until{};
  while (fds[0] >= 0 || fds[1] >= 0 || (in.fd[1] >= 0 && !reaped)) {
    const auto now = std::chrono::steady_clock::now();
    if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) {
      reaped = true;
      drain_until = now + std::chrono::milliseconds(200);
      in.Close(1);
    }
    if (reaped && now >= drain_until) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        (reaped ? drain_until : deadline) - now);
    if (!reaped && left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p[3];
    int n = 0;
    for (int i = 0; i < 2; ++i) {
      if (fds[i] >= 0) p[n++] = {fds[i], POLLIN, 0};
    }
    const int in_slot = n;
    if (in.fd[1] >= 0) p[n++] = {in.fd[1], POLLOUT, 0};
    // Short polls: the child's exit is noticed by waitpid above, not by the pipes closing.
    const int ready = ::poll(p, static_cast<nfds_t>(n),
                             static_cast<int>(std::clamp<int64_t>(left.count(), 1, 50)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (in_slot < n && p[in_slot].revents) {
      const ssize_t w =
          WriteToChild(in.fd[1], stdin_text.data() + written, stdin_text.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      if (w < 0 && errno != EAGAIN && errno != EINTR)
        written = stdin_text.size();  // EPIPE: it stopped reading
      if (written == stdin_text.size()) in.Close(1);
    }
    for (int j = 0; j < in_slot; ++j) {
      if (!p[j].revents) continue;
      const int i = p[j].fd == fds[0] ? 0 : 1;
      const ssize_t got = ::read(fds[i], buf, sizeof buf);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        fds[i] = -1;  // EOF; the Pipe closes it
        continue;
      }
      std::string& sink = *sinks[i];
      const std::size_t room =
          options.max_output > sink.size() ? options.max_output - sink.size() : 0;
      sink.append(buf, std::min(room, static_cast<std::size_t>(got)));
      if (static_cast<std::size_t>(got) > room && i == 0) r.out_truncated = true;
    }
  }
  // Still running here: timed out, or the pipes closed while it runs on. Either way the
  // deadline holds: wait for it no longer than that, then kill the group.
  while (!reaped) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      reaped = true;
      break;
    }
    if (r.timed_out || std::chrono::steady_clock::now() >= deadline) {
      r.timed_out = true;
      // The reaper kills the command and all it started; told again until it has (a stop can
      // land just before it waits), then the whole group as the last resort.
      status = StopReaper(pid);
      reaped = true;
      break;
    }
    ::usleep(5000);
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (!r.timed_out) ::kill(-pid, SIGKILL);  // leftovers of the group (background children)
  return r;
}

LineSession::LineSession(const std::string& command, const CommandOptions& options)
    : max_output_(options.max_output) {
  ExecArgs exec({"/bin/sh", "-c", command}, options.env);
  Pipe in, out, err;
  pid_ = Spawn(exec, in, out, err, error_);
  if (pid_ < 0) return;
  std::swap(in_, in.fd[1]), std::swap(out_, out.fd[0]), std::swap(err_, err.fd[0]);
  for (const int fd : {in_, out_, err_}) ::fcntl(fd, F_SETFL, O_NONBLOCK);
}

LineSession::~LineSession() { End(); }

void LineSession::End() {
  for (int* fd : {&in_, &out_, &err_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  if (pid_ < 0) return;
  // Its stdin closed, a tiler that reads to the end exits by itself; the reaper is stopped
  // (and the command with all it started killed) if it has not within 100 ms.
  int status = 0;
  for (int i = 0; i < 20 && ::waitpid(pid_, &status, WNOHANG) != pid_; ++i) ::usleep(5000);
  if (::waitpid(pid_, &status, WNOHANG) == 0) StopReaper(pid_);
  pid_ = -1;
}

oracle::Result<std::string> LineSession::Ask(const std::string& line,
                                             std::chrono::milliseconds timeout) {
  using R = oracle::Result<std::string>;
  if (pid_ < 0) {
    if (failure_ == Failure::kNone) failure_ = Failure::kEnded;
    return R::Fail(error_.empty() ? "the session has ended" : error_);
  }
  const auto fail = [&](Failure kind, std::string why) {
    End();
    failure_ = kind;
    error_ = why;
    return R::Fail(why);
  };
  err_tail_.clear();  // a crash is named by what it said while answering this line
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const std::string request = line + "\n";
  std::size_t written = 0;
  char buf[65536];
  for (;;) {
    if (const std::size_t nl = pending_.find('\n'); nl != std::string::npos) {
      std::string answer = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (written == request.size()) return R::Ok(std::move(answer));
      return fail(Failure::kGarbage,
                  "answered before it was asked: " + oracle::OneLine(answer, 200));
    }
    if (pending_.size() > max_output_)
      return fail(Failure::kGarbage,
                  "an answer longer than " + std::to_string(max_output_) + " bytes");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return fail(Failure::kTimeout, "no answer within " + std::to_string(timeout.count()) + " ms");
    }
    pollfd p[3] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}, {in_, POLLOUT, 0}};
    const nfds_t n = written < request.size() ? 3 : 2;
    const int ready = ::poll(p, n, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return fail(Failure::kEnded, Errno("poll"));
    if (ready <= 0) continue;
    if (n == 3 && p[2].revents) {
      const ssize_t w = WriteToChild(in_, request.data() + written, request.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      // EPIPE: it stopped reading. Its end (or its silence until the deadline) says the rest.
      if (w < 0 && errno != EAGAIN && errno != EINTR) written = request.size();
    }
    if (p[1].revents) {
      const ssize_t got = ::read(err_, buf, sizeof buf);
      if (got > 0) {
        err_tail_.append(buf, static_cast<std::size_t>(got));
        if (err_tail_.size() > 4096) err_tail_.erase(0, err_tail_.size() - 4096);
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        ::close(err_);  // its stderr ended (2>/dev/null): out of the poll, which ignores -1
        err_ = -1;
      }
    }
    if (p[0].revents) {
      const ssize_t got = ::read(out_, buf, sizeof buf);
      if (got > 0) {
        pending_.append(buf, static_cast<std::size_t>(got));
        continue;
      }
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      // Its stdout ended: it exited (or closed it). How, from the reaper within a second.
      CommandResult r;
      r.started = true;
      int status = 0;
      bool reaped = false;
      for (int i = 0; i < 200 && !reaped; ++i) {
        reaped = ::waitpid(pid_, &status, WNOHANG) == pid_;
        if (!reaped) ::usleep(5000);
      }
      if (reaped) {
        pid_ = -1;
        if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
      }
      std::string last = err_tail_;
      while (!last.empty() && last.back() == '\n') last.pop_back();
      last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
      const std::string how = reaped ? r.Describe(timeout) : "closed its stdout";
      return fail(Failure::kEnded, how + (last.empty() ? "" : ": " + oracle::OneLine(last, 200)));
    }
  }
}

}  // namespace tcfuzz::suites
