#include "commands/forked_runs.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <vector>

#include "runtime/error.h"

namespace warpsim::app {

namespace {

struct Child {
  pid_t pid = -1;
  int resultFd = -1;  // read ends, -1 once at end of file
  int outputFd = -1;
  ForkedResult r;
};

void writeAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void runChild(size_t i, const std::function<std::string(size_t)>& task, int resultFd,
                           int outputFd) {
  ::dup2(outputFd, STDOUT_FILENO);
  ::dup2(outputFd, STDERR_FILENO);
  ::close(outputFd);
  int status = 0;
  try {
    writeAll(resultFd, task(i));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    status = 1;
  } catch (...) {
    std::fprintf(stderr, "an unknown exception\n");
    status = 1;
  }
  std::fflush(nullptr);
  ::_exit(status);  // no destructors or atexit handlers of the parent's state
}

runtime::Error systemError(const char* what) {
  return runtime::Error(std::string("run: cannot ") + what + ": " + std::strerror(errno));
}

Child start(size_t i, const std::function<std::string(size_t)>& task) {
  int result[2], output[2];
  if (::pipe2(result, O_CLOEXEC) != 0) throw systemError("create a pipe");
  if (::pipe2(output, O_CLOEXEC) != 0) {
    ::close(result[0]);
    ::close(result[1]);
    throw systemError("create a pipe");
  }
  std::fflush(nullptr);  // nothing buffered in this process is printed twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {result[0], result[1], output[0], output[1]}) ::close(fd);
    throw systemError("start a process");
  }
  if (pid == 0) {
    ::close(result[0]);
    ::close(output[0]);
    runChild(i, task, result[1], output[1]);
  }
  ::close(result[1]);
  ::close(output[1]);
  Child c;
  c.pid = pid;
  c.resultFd = result[0];
  c.outputFd = output[0];
  return c;
}

// Reads what is there; closes the descriptor (and sets it to -1) at end of file.
void drain(int& fd, std::string& into) {
  char buf[4096];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n > 0) {
    into.append(buf, static_cast<size_t>(n));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    ::close(fd);
    fd = -1;
  }
}

void reap(Child& c) {
  int status = 0;
  while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
  }
  c.r.waitStatus = status;
  c.r.returned = WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

void runForked(size_t count, unsigned jobs, const std::function<std::string(size_t)>& task,
               const std::function<void(size_t, const ForkedResult&)>& report) {
  if (jobs == 0) jobs = 1;
  std::map<size_t, Child> running;
  std::map<size_t, ForkedResult> ended;
  size_t next = 0, nextReport = 0;
  try {
    while (nextReport < count) {
      while (next < count && running.size() < jobs) {
        running.emplace(next, start(next, task));
        ++next;
      }
      std::vector<pollfd> fds;
      std::vector<std::pair<int*, std::string*>> streams;
      for (auto& [i, c] : running) {
        if (c.resultFd >= 0) {
          fds.push_back({c.resultFd, POLLIN, 0});
          streams.emplace_back(&c.resultFd, &c.r.result);
        }
        if (c.outputFd >= 0) {
          fds.push_back({c.outputFd, POLLIN, 0});
          streams.emplace_back(&c.outputFd, &c.r.output);
        }
      }
      if (!fds.empty() && ::poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        throw systemError("wait for the workloads' processes");
      }
      for (size_t k = 0; k < fds.size(); ++k) {
        if (fds[k].revents != 0) drain(*streams[k].first, *streams[k].second);
      }
      for (auto it = running.begin(); it != running.end();) {
        if (it->second.resultFd < 0 && it->second.outputFd < 0) {
          reap(it->second);
          ended.emplace(it->first, std::move(it->second.r));
          it = running.erase(it);
        } else {
          ++it;
        }
      }
      for (auto it = ended.find(nextReport); it != ended.end(); it = ended.find(nextReport)) {
        report(nextReport, it->second);
        ended.erase(it);
        ++nextReport;
      }
    }
  } catch (...) {
    for (auto& [i, c] : running) {
      ::kill(c.pid, SIGKILL);
      for (int fd : {c.resultFd, c.outputFd}) {
        if (fd >= 0) ::close(fd);
      }
      reap(c);
    }
    throw;
  }
}

}  // namespace warpsim::app
