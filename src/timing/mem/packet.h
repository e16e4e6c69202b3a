// The unit of traffic below the SMs: one request (and later its reply, reusing the same slot)
// for some sectors of one line. Packets live in a PacketPool and are named by index, so
// queues, MSHR waiter lists and the interconnect hold 32-bit indices, never pointers.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/types.h"

namespace warpsim::timing::mem {

inline constexpr uint32_t kNoPacket = UINT32_MAX;

enum class PacketKind : uint8_t {
  Read,       // fetch `sectors` (reply: ReadReply with their data)
  Write,      // write-through store data (reply: WriteAck)
  Writeback,  // dirty sectors evicted from an L1 (no reply)
  Atomic,     // atom: performed at L2 (reply: AtomicReply with the old values)
  Reduction,  // red: performed at L2 (reply: WriteAck)
  ReadReply,
  WriteAck,
  AtomicReply,
  WriteRefused,  // reply to a Write the L2 would not merge into the form it holds the line in
                 // (memory_compression's refusesWrite): it carries the whole line in that form
                 // (`format`), for the SM to merge and write again whole
};

// Who on the SM side waits for the reply.
enum class ReplyTo : uint8_t { None, L1Mshr, ConstMshr, Slot };

struct Packet {
  uint64_t addr = 0;          // the requester's line address (aligned to its line size)
  uint32_t sectors = 0;       // 32-byte sectors of that line, bit i = bytes [32i, 32i + 32)
  uint32_t bytes = 0;         // payload bytes (store data, reply data); the header is extra
  uint32_t tag = 0;           // requester's tag: MSHR index or in-flight instruction slot
  uint32_t next = kNoPacket;  // intrusive list link while waiting in an L2 MSHR
  uint32_t pc = 0;            // what the requester knew, for the cache-policy hooks below it
  uint32_t cta = 0;
  uint16_t sm = 0;
  uint16_t slice = 0;  // L2 slice the request goes to
  uint16_t port = 0;   // destination port on the network it is crossing
  uint16_t flits = 1;
  uint16_t atomicOps = 1;  // atomic unit passes (lanes serialised on one word)
  PacketKind kind = PacketKind::Read;
  ReplyTo replyTo = ReplyTo::None;
  ir::Space space = ir::Space::Global;
  uint8_t warp = 0;
  uint8_t warpSlot = 0;  // the requesting warp's slot on its SM
  uint8_t format = 0;    // read reply or write: 0 plain data, else the compression's tag of
                         // its form
};

// Slots are reused through a free list; the pool grows (rarely, while warming up) only when
// every slot is in flight.
class PacketPool {
 public:
  explicit PacketPool(uint32_t initial = 1024) {
    packets_.reserve(initial);
    free_.reserve(initial);
  }
  uint32_t allocate() {
    if (free_.empty()) {
      packets_.emplace_back();
      ++live_;
      return static_cast<uint32_t>(packets_.size() - 1);
    }
    const uint32_t i = free_.back();
    free_.pop_back();
    packets_[i] = Packet{};
    ++live_;
    return i;
  }
  void release(uint32_t i) {
    free_.push_back(i);
    --live_;
  }
  Packet& operator[](uint32_t i) { return packets_[i]; }
  const Packet& operator[](uint32_t i) const { return packets_[i]; }
  uint32_t live() const { return live_; }

 private:
  std::vector<Packet> packets_;
  std::vector<uint32_t> free_;
  uint32_t live_ = 0;
};

}  // namespace warpsim::timing::mem
