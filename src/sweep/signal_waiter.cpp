#include "sweep/signal_waiter.h"

#include <cerrno>
#include <cmath>
#include <ctime>
#include <initializer_list>

namespace warpsim::sweep {

SignalWaiter::SignalWaiter() {
  sigemptyset(&blocked_);
  sigaddset(&blocked_, SIGCHLD);
  // A stop signal the sweep was started ignoring (a background job of a script ignores SIGINT)
  // stays ignored: Linux would queue it once blocked.
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaddset(&blocked_, sig);
  }
  sigprocmask(SIG_BLOCK, &blocked_, &previous_);
}

SignalWaiter::~SignalWaiter() { sigprocmask(SIG_SETMASK, &previous_, nullptr); }

int SignalWaiter::wait(double seconds) {
  if (seconds < 0) seconds = 0;
  timespec timeout;
  timeout.tv_sec = static_cast<time_t>(seconds);
  timeout.tv_nsec = static_cast<long>((seconds - std::floor(seconds)) * 1e9);
  while (true) {
    const int sig = sigtimedwait(&blocked_, nullptr, &timeout);
    if (sig == SIGINT || sig == SIGTERM) stop_ = true;
    if (sig > 0) return sig;
    if (errno == EAGAIN) return 0;
    if (errno != EINTR) return 0;
  }
}

}  // namespace warpsim::sweep
