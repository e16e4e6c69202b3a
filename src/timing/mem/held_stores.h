// Write-through stores an SM's store listener holds before they leave (timing/sm_memory.h,
// StoreListener): each by a ticket while held, then, once released with its form and size, in
// a queue of writes to send as the SM's request port has room. Tickets are reused; nothing is
// allocated once the table has grown to the most stores held at once.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/ring_buffer.h"
#include "timing/mem/sm_port.h"

namespace warpsim::timing::mem {

class HeldStores {
 public:
  // The most stores pending (held or waiting for the port) at once; the SM sends a store as it
  // is when that many are pending.
  static constexpr uint32_t kCapacity = 64;
  HeldStores() : toSend_(kCapacity) { table_.reserve(kCapacity); }

  struct Write {
    uint64_t line = 0;
    uint32_t sectors = 0, bytes = 0;
    RequestOrigin origin;
    uint8_t format = 0;
  };

  bool full() const { return pending() >= kCapacity; }
  // A ticket for a store about to be offered to the listener (the caller checked !full()).
  uint32_t reserve(const Write& w) {
    uint32_t t;
    if (freeTickets_.empty()) {
      t = static_cast<uint32_t>(table_.size());
      table_.emplace_back();
    } else {
      t = freeTickets_.back();
      freeTickets_.pop_back();
    }
    table_[t] = Entry{w, true};
    ++held_;
    return t;
  }
  // The listener did not hold it, or released it: it waits for the port, `bytes` long in
  // `format`.
  void release(uint32_t ticket, uint8_t format, uint32_t bytes) {
    if (ticket >= table_.size() || !table_[ticket].live) return;
    Entry& e = table_[ticket];
    e.live = false;
    e.write.format = format;
    e.write.bytes = bytes;
    toSend_.push(e.write);
    freeTickets_.push_back(ticket);
    --held_;
  }
  // Sends what waits while the port has room; the count of writes sent.
  uint32_t send(SmPort& port) {
    uint32_t sent = 0;
    while (!toSend_.empty() && port.room() != 0) {
      const Write& w = toSend_.front();
      port.send(PacketKind::Write, w.line, w.sectors, w.bytes, ReplyTo::None, 0, w.origin, 1,
                w.format);
      toSend_.pop();
      ++sent;
    }
    if (!toSend_.empty()) port.noteStall();
    return sent;
  }
  // Stores not sent yet (held or waiting for the port).
  uint32_t pending() const { return held_ + static_cast<uint32_t>(toSend_.size()); }
  bool waitingForPort() const { return !toSend_.empty(); }

 private:
  struct Entry {
    Write write;
    bool live = false;
  };
  std::vector<Entry> table_;
  std::vector<uint32_t> freeTickets_;
  RingBuffer<Write> toSend_;
  uint32_t held_ = 0;
};

}  // namespace warpsim::timing::mem
