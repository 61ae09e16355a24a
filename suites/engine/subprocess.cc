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

// The reaper: the forked child that runs the command as its own child and, being a child
// subreaper, inherits every descendant the command leaves behind, including those that called
// setsid and left the process group. When the command ends (or the reaper is told to stop) it
// kills them all, so nothing a command started outlives it. Everything here runs between fork
// and _exit in a possibly multi-threaded parent: system calls only, no allocation.
volatile sig_atomic_t g_reaper_stop = 0;
extern "C" void OnReaperStop(int) { g_reaper_stop = 1; }

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
  struct sigaction sa = {};
  sa.sa_handler = OnReaperStop;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);  // no SA_RESTART: waitpid returns to look at the flag
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
    if (g_reaper_stop) ::kill(command, SIGKILL);
    int st = 0;
    const pid_t w = ::waitpid(-1, &st, 0);
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
  std::vector<char*>
      args;  // built before fork: the child may only call async-signal-safe functions
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_text;  // the inherited environment with options.env over it
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const std::string key = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [k, v] : options.env) replaced = replaced || k == key;
    if (!replaced) env_text.push_back(entry);
  }
  for (const auto& [k, v] : options.env) env_text.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  Pipe in, out, err;
  if (::pipe2(in.fd, O_CLOEXEC) != 0 || ::pipe2(out.fd, O_CLOEXEC) != 0 ||
      ::pipe2(err.fd, O_CLOEXEC) != 0) {
    r.error = Errno("pipe");
    return r;
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
    r.error = Errno("fork");
    return r;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    ::setpgid(0, 0);
    const int child_fds[3] = {in.fd[0], out.fd[1], err.fd[1]};
    RunReaper(args.data(), envp.data(), child_fds);
  }
  ::setpgid(pid, pid);  // also here, so the group exists before we might kill it
  r.started = true;
  in.Close(0), out.Close(1), err.Close(1);
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
      const ssize_t w = ::write(in.fd[1], stdin_text.data() + written, stdin_text.size() - written);
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

}  // namespace tcfuzz::suites
