#include "sweep/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "sweep/error.h"

namespace warpsim::sweep {

namespace {

std::vector<char*> argvOf(const std::string& program, std::vector<std::string>& storage) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

// In the child, before exec: defaults for what the sweep changed (only async-signal-safe calls).
void resetSignals() {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
}

void writeAll(int fd, const char* text) { (void)!::write(fd, text, std::strlen(text)); }

[[noreturn]] void execOrExit(const std::string& program, char* const* argv) {
  execv(program.c_str(), argv);
  const char* why = std::strerror(errno);
  writeAll(2, "sweep: cannot run ");
  writeAll(2, program.c_str());
  writeAll(2, ": ");
  writeAll(2, why);
  writeAll(2, "\n");
  _exit(127);
}

}  // namespace

pid_t spawnChild(const std::string& program, const std::vector<std::string>& args,
                 const std::filesystem::path& stdoutFile, const std::filesystem::path& stderrFile) {
  std::vector<std::string> storage = args;
  std::vector<char*> argv = argvOf(program, storage);
  const std::string out = stdoutFile.string(), err = stderrFile.string();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("sweep: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the sweep died before the line above
    resetSignals();
    const int in = open("/dev/null", O_RDONLY);
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || o < 0 || e < 0) _exit(126);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    close(in);
    close(o);
    close(e);
    execOrExit(program, argv.data());
  }
  setpgid(pid, pid);  // also here, so that killGroup works even before the child ran
  return pid;
}

void killGroup(pid_t pid) {
  if (::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
}

Captured captureOutput(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> storage = args;
  std::vector<char*> argv = argvOf(program, storage);
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0) throw Error(std::string("sweep: pipe: ") + std::strerror(errno));
  if (pipe2(errPipe, O_CLOEXEC) != 0) {
    close(outPipe[0]);
    close(outPipe[1]);
    throw Error(std::string("sweep: pipe: ") + std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("sweep: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    resetSignals();
    const int in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, 0);
    dup2(outPipe[1], 1);
    dup2(errPipe[1], 2);
    execOrExit(program, argv.data());
  }
  close(outPipe[1]);
  close(errPipe[1]);
  Captured c;
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&c.out, &c.err};
  int open = 2;
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  while (waitpid(pid, &c.waitStatus, 0) < 0 && errno == EINTR) {
  }
  return c;
}

std::string findExecutable(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace warpsim::sweep
