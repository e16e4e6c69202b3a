// Waiting for the events of a running sweep without signal handlers (and so without global
// state): SIGCHLD (a run ended), SIGINT and SIGTERM (stop) are blocked while the object lives
// and taken with sigtimedwait, so none is lost between two waits.
#pragma once
#include <signal.h>

namespace warpsim::sweep {

class SignalWaiter {
 public:
  SignalWaiter();   // blocks SIGCHLD, SIGINT and SIGTERM (those not ignored)
  ~SignalWaiter();  // restores the previous mask
  SignalWaiter(const SignalWaiter&) = delete;
  SignalWaiter& operator=(const SignalWaiter&) = delete;

  // Waits at most `seconds` for one of the three; returns its number, or 0 after the timeout.
  // A SIGINT or SIGTERM also sets stopRequested().
  int wait(double seconds);
  bool stopRequested() const { return stop_; }

 private:
  sigset_t blocked_;
  sigset_t previous_;
  bool stop_ = false;
};

}  // namespace warpsim::sweep
