// Write-through stores an SM's store listener holds before they leave (timing/sm_memory.h,
// StoreListener): each by a ticket while held, then, once released with its form and size, in
// a queue of writes to send as the SM's request port has room.
#pragma once
#include <cstdint>

#include "timing/mem/ring_buffer.h"
#include "timing/mem/sm_port.h"
#include "timing/mem/ticket_table.h"

namespace warpsim::timing::mem {

class HeldStores {
 public:
  // The most stores pending (held or waiting for the port) at once; the SM sends a store as it
  // is when that many are pending.
  static constexpr uint32_t kCapacity = 64;
  HeldStores() : toSend_(kCapacity) { held_.reserve(kCapacity); }

  struct Write {
    uint64_t line = 0;
    uint32_t sectors = 0, bytes = 0;
    RequestOrigin origin;
    uint8_t format = 0;
  };

  bool full() const { return pending() >= kCapacity; }
  // A ticket for a store about to be offered to the listener (the caller checked !full()).
  uint32_t reserve(const Write& w) { return held_.put(w); }
  // The listener did not hold it, or released it: it waits for the port, `bytes` long in
  // `format`.
  void release(uint32_t ticket, uint8_t format, uint32_t bytes) {
    Write w;
    if (!held_.take(ticket, w)) return;
    w.format = format;
    w.bytes = bytes;
    toSend_.push(w);
  }
  // Sends what waits while the port has room.
  void send(SmPort& port) {
    while (!toSend_.empty() && port.room() != 0) {
      const Write& w = toSend_.front();
      port.send(PacketKind::Write, w.line, w.sectors, w.bytes, ReplyTo::None, 0, w.origin, 1,
                w.format);
      toSend_.pop();
    }
    if (!toSend_.empty()) port.noteStall();
  }
  // Stores not sent yet (held or waiting for the port).
  uint32_t pending() const { return held_.live() + static_cast<uint32_t>(toSend_.size()); }
  bool waitingForPort() const { return !toSend_.empty(); }

 private:
  TicketTable<Write> held_;
  RingBuffer<Write> toSend_;
};

}  // namespace warpsim::timing::mem
