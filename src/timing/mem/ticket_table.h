// Values kept by ticket while something outside the memory pipeline works on them (a listener
// holding a reply or a store): a ticket is reused once its value is taken, and the table grows
// only to the most values kept at once.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

template <class T>
class TicketTable {
 public:
  // The ticket the next put() returns (a listener is told it before the value is kept).
  uint32_t nextTicket() const {
    return freeTickets_.empty() ? static_cast<uint32_t>(slots_.size()) : freeTickets_.back();
  }
  uint32_t put(const T& value) {
    const uint32_t t = nextTicket();
    if (freeTickets_.empty()) {
      slots_.emplace_back();
    } else {
      freeTickets_.pop_back();
    }
    slots_[t] = Slot{value, true};
    ++live_;
    return t;
  }
  // Takes the value of `ticket` and frees the ticket; false when it holds none.
  bool take(uint32_t ticket, T& value) {
    if (ticket >= slots_.size() || !slots_[ticket].live) return false;
    slots_[ticket].live = false;
    value = slots_[ticket].value;
    freeTickets_.push_back(ticket);
    --live_;
    return true;
  }
  uint32_t live() const { return live_; }
  void reserve(uint32_t n) {
    slots_.reserve(n);
    freeTickets_.reserve(n);
  }

 private:
  struct Slot {
    T value{};
    bool live = false;
  };
  std::vector<Slot> slots_;
  std::vector<uint32_t> freeTickets_;
  uint32_t live_ = 0;
};

}  // namespace warpsim::timing::mem
