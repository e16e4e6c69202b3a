// One direction of the interconnect: a crossbar from `inputs` ports to `outputs` ports (SMs to
// L2 slices for requests, slices to SMs for replies), in interconnect cycles.
//
// Each input port has a queue of icnt.input_queue packets; a sender that finds it full must
// wait (back-pressure; it counts a stall cycle). An input requests the outputs of the first
// icnt.lookahead packets of its queue (1: the head only, a FIFO whose head packet for a busy
// output holds the packets behind it: head-of-line blocking). Every cycle each output grants one
// requesting input, round-robin from the input after the last one it granted, provided the
// output and the input are free and the output has a credit (room in its ejection queue of
// icnt.ejection_queue packets, counting packets on their way). The granted packet is the
// oldest of those first lookahead packets for that output, so packets from one input to one
// output keep their order. The outputs grant one after another, starting at output
// (now mod outputs) and going up round-robin, so that no output always comes first; an input
// sends one packet at a time, so once an output has granted it, the later outputs of the cycle
// pass it by and grant their next requesting input, if any. A packet of f flits holds its input
// and output for ceil(f / icnt.flits_per_cycle) cycles and arrives in the ejection queue
// icnt.latency cycles after its last flit left: granted at cycle t, it arrives at
// t + ceil(f / flits_per_cycle) - 1 + latency. The receiver pops it from there.
//
// Packet size: header (icnt.header_bytes) plus payload bytes, in flits of icnt.flit_bytes.
//
// On a GPU of several modules (setModules) the crossbar also has one port per module towards the
// inter-module links (outputs from linkOutBase) and one from them (inputs from the link inputs'
// base): a packet injected at an input of module m for an output of another module goes to
// module m's link port instead (the packet keeps its final destination in slice / sm). Ports may
// be wider than icnt.flits_per_cycle (setWidth; the link ports are as wide as the link): an
// input is held ceil(f / its width) cycles, an output ceil(f / its width), and the packet
// arrives after the longer of the two (with equal widths: the rule above).
//
// Partitions (setPartitions; the L2 of A100/H100-class GPUs in two halves, l2.partitions): every
// input and output belongs to a partition, and a packet between two partitions arrives
// `farLatency` cycles later than one within a partition (the link between them, whose bandwidth
// is not modelled). Far packets wait in a queue of their own per output, so a near packet granted
// after a far one to the same output is not held behind it.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/mem_params.h"
#include "timing/mem/mem_stats.h"
#include "timing/mem/packet.h"
#include "timing/mem/ring_buffer.h"
#include "timing/sm_memory.h"

namespace warpsim::timing::mem {

class Crossbar {
 public:
  Crossbar(uint32_t inputs, uint32_t outputs, const IcntParams& params, PacketPool& pool);

  // Sender side. inject() sets the packet's flits from its payload; packet.port names the output.
  bool canInject(uint32_t input) const { return !in_[input].full(); }
  uint32_t inputRoom(uint32_t input) const { return in_[input].freeSlots(); }
  void inject(uint32_t input, uint32_t packet);
  void noteStall() { ++stats_.stallCycles; }

  // One interconnect cycle: arrivals, then arbitration.
  void cycle(Cycle now);
  // `now` while packets wait at inputs, the next arrival while some are only on their way,
  // kNever when empty.
  Cycle nextWorkCycle(Cycle now) const;
  bool empty() const { return queued_ == 0 && inFlight_ == 0; }

  // Receiver side.
  bool hasPacket(uint32_t output) const { return !eject_[output].empty(); }
  uint32_t front(uint32_t output) const { return eject_[output].front(); }
  void pop(uint32_t output) { eject_[output].pop(); }
  bool ejectionEmpty() const;
  // Whether the last cycle moved a packet into an ejection queue.
  bool delivered() const { return delivered_; }

  // Modules: the module of every input and output; packets between modules go to output
  // linkOutBase + (the input's module).
  void setModules(std::vector<uint16_t> inputModule, std::vector<uint16_t> outputModule,
                  uint32_t linkOutBase);
  void setWidth(bool output, uint32_t port, uint32_t flitsPerCycle);
  // Partitions: the partition of every input and output and the extra latency between two.
  void setPartitions(std::vector<uint8_t> inputPartition, std::vector<uint8_t> outputPartition,
                     uint32_t farLatency);

  const IcntStats& stats() const { return stats_; }
  void resetStats() { stats_ = IcntStats{}; }
  uint64_t moved() const { return moved_; }  // packets granted since construction

 private:
  struct Flight {
    uint32_t packet;
    Cycle arrival;
  };
  void grant(Cycle now, uint32_t input, uint32_t output);

  const IcntParams params_;
  PacketPool& pool_;
  uint32_t inputs_, outputs_, inWords_, outWords_;
  std::vector<RingBuffer<uint32_t>> in_;
  std::vector<RingBuffer<Flight>> flight_;
  std::vector<RingBuffer<Flight>> farFlight_;          // packets between partitions (if any)
  std::vector<uint8_t> inPartition_, outPartition_;    // empty: one partition
  uint32_t farLatency_ = 0;
  std::vector<RingBuffer<uint32_t>> eject_;
  std::vector<Cycle> inputFree_, outputFree_;
  std::vector<uint32_t> inWidth_, outWidth_;        // flits per cycle of each port
  std::vector<uint16_t> inModule_, outModule_;      // empty: one module
  uint32_t linkOutBase_ = 0;
  std::vector<uint32_t> roundRobin_;
  std::vector<uint64_t> nonEmpty_;   // bitset of inputs with queued packets
  std::vector<uint64_t> wants_;      // per output: bitset of requesting inputs
  std::vector<uint64_t> requested_;  // bitset of outputs with a request this cycle
  std::vector<uint64_t> grantedNow_; // bitset of inputs granted this cycle
  uint64_t queued_ = 0, inFlight_ = 0, moved_ = 0;
  bool delivered_ = false;
  IcntStats stats_;
};

}  // namespace warpsim::timing::mem
