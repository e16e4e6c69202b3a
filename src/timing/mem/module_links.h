// The links between the modules of a multi-module GPU, in interconnect cycles.
//
// Each module has one port onto the package network, with module_link.gbps of bandwidth in
// each direction: out of the module (its SMs' requests to other zones and its slices' replies to
// other modules' SMs share it) and into it. A packet crossing from module m to module m' holds
// m's out-direction and m''s in-direction for bytes / bandwidth (header plus payload bytes; the
// link runs at a fractional rate, so it carries exactly its bandwidth over time), then arrives
// module_link.latency cycles after its last byte left. Granted at cycle t with the link free,
// it arrives at t + ceil(bytes / bytes_per_cycle) - 1 + latency (the crossbar's convention).
//
// Packets wait for the link in their network's link port at the source (the crossbar's
// ejection queue of that port: icnt.ejection_queue packets, so senders feel back-pressure
// through the crossbar's credits). At the destination each network has a buffer of
// module_link.queue packets per module, counting packets on their way (a grant needs a free
// slot: back-pressure across the link); from there packets enter the destination module's
// crossbar at its link input as soon as that input has room, addressed to their final port
// (the slice for requests, the SM for replies). Requests and replies never wait for each other
// except on the wire (separate buffers), so replies cannot be blocked behind requests.
//
// Each cycle: arrivals enter the crossbars; then out-ports are served starting from a module that
// rotates every cycle, each taking, while it is free during this cycle, the head of its two
// networks' queues in alternation whose destination in-port is free and has a buffer slot. A
// cycle in which a module had a packet waiting and sent nothing counts as a stall cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/crossbar.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"
#include "timing/mem/ring_buffer.h"

namespace warpsim::timing::mem {

struct ModuleLinkStats {
  std::vector<uint64_t> outBytes, inBytes;  // per module
  uint64_t requestBytes = 0, replyBytes = 0, packets = 0, stallCycles = 0;
};

// One network as the links see it.
struct LinkNetwork {
  Crossbar* net = nullptr;
  uint32_t outBase = 0;  // the net's output port towards module 0's link
  uint32_t inBase = 0;   // the net's input port from module 0's link
  uint32_t targetsPerModule = 1;  // slices (requests) or SMs (replies) per module
  bool replies = false;
};

class ModuleLinks {
 public:
  // headerBytes: icnt.header_bytes, added to every packet's payload on the wire.
  ModuleLinks(uint32_t modules, const ModuleLinkParams& params, double icntMhz,
              uint32_t headerBytes, PacketPool& pool, const LinkNetwork& requests,
              const LinkNetwork& replies);

  void cycle(Cycle now);
  Cycle nextWorkCycle(Cycle now) const;
  bool empty() const { return inFlight_ == 0 && !waiting(); }
  uint64_t moved() const { return moved_; }
  const ModuleLinkStats& stats() const { return stats_; }
  void resetStats();
  // The link's width in flits of `flitBytes` (what its crossbar ports are given).
  uint32_t flitsPerCycle(uint32_t flitBytes) const;

 private:
  struct Flight {
    uint32_t packet;
    Cycle arrival;
  };
  static constexpr uint32_t kFrac = 16;  // link times in 1/65536 of a cycle
  bool waiting() const;
  uint32_t destinationOf(uint32_t k, uint32_t packet) const;
  bool trySend(uint32_t m, Cycle now);
  void deliver(Cycle now);

  const ModuleLinkParams params_;
  PacketPool& pool_;
  LinkNetwork nets_[2];
  uint32_t modules_, headerBytes_;
  uint64_t rate_;  // bytes per cycle << kFrac
  std::vector<uint64_t> outFree_, inFree_;   // when each direction is free, << kFrac
  std::vector<RingBuffer<Flight>> arrive_;   // [module * 2 + net]
  std::vector<uint8_t> nextNet_;             // per module: the network served first
  uint32_t firstModule_ = 0;
  uint64_t inFlight_ = 0, moved_ = 0;
  ModuleLinkStats stats_;
};

}  // namespace warpsim::timing::mem
