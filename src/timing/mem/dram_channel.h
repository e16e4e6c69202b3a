// One DRAM channel, in DRAM cycles: banks with row buffers (open-page policy), a request queue
// and an FR-FCFS (or FCFS) scheduler issuing at most one command per cycle.
//
// Commands and the timing they obey (dram.t_*):
//   ACT  bank closed; >= tRP after the bank's PRE, >= tRC after its previous ACT, >= tRRD after
//        any ACT of the channel.            Opens the row; column commands >= tRCD later.
//   PRE  bank open on another row; >= tRAS after its ACT, >= tWR after the end of its last
//        write data, >= one burst after its last read command (read-to-precharge).
//   RD   row open; data on the bus tCL cycles later for bursts x burst_cycles cycles.
//   WR   row open; data on the bus tWL cycles later, likewise.
// The data bus carries one burst at a time, so a column command waits until its data would not
// overlap the previous one; each 32-byte burst occupies it burst_cycles cycles (busy_cycles).
// A read completes dram.return_latency cycles after its last burst has crossed the bus (the
// memory controller's and PHY's fixed delay on the way back to the L2).
//
// FR-FCFS: the oldest request whose row is open and whose column command can issue now goes
// first; otherwise the oldest request that needs its bank precharged or activated gets that
// command, but a bank is not precharged while requests for its open row wait. FCFS: only the
// oldest request is considered.
//
// A request that caused its own ACT is a row miss, every other one a row hit.
//
// dram.ideal_row_buffer (the upper bound of any row-buffer optimisation, as the XMem study's
// "Ideal"): every request finds its row open, so no ACT or PRE is ever issued, column commands
// wait only for their bank's previous bursts and the data bus (tCL / tWL before the data), and
// every request counts as a row hit. With every request a row hit, plain FR-FCFS would serve the
// oldest request that can issue, and since tWL < tCL a read issued right after a write leaves
// the bus idle up to tCL - tWL cycles: reads and writes would interleave (nothing holds reads back
// as row misses do with real rows) and a write-heavy stream could take longer than with real rows.
// So the ideal scheduler picks the request whose data could be on the bus first and waits for it;
// on a tie the one whose command issues first (a write after a read leaves no gap), then the
// oldest. Reads go first while they keep the bus busy, writes when it would otherwise wait, and a
// write that has the bus is followed by the writes waiting before the next read (the write
// batching a real controller does with its write queue). Off, this costs one test per column
// command.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "timing/clock_domain.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/mem_stats.h"
#include "timing/mem/ring_buffer.h"
#include "timing/sm_memory.h"

namespace warpsim::timing::mem {

struct DramRequest {
  uint64_t line = 0;     // L2 line address
  uint32_t sectors = 0;  // L2 sectors moved
  uint32_t bursts = 1;
  uint32_t bank = 0, row = 0;
  uint32_t tag = 0;    // the L2's name for a read (returned with its completion)
  Cycle sent = 0;      // the L2 cycle the read was sent (returned with its completion)
  uint32_t delay = 0;  // L2 cycles the slice adds when the data is back (decompression)
  uint16_t slice = 0;  // slice of this channel that waits for the read
  bool write = false;
  bool activated = false;  // internal: this request opened its row
};

struct DramCompletion {
  Cycle cycle = 0;      // DRAM cycle at which the data is back at the L2
  Cycle visibleAt = 0;  // first cycle of the receiver's clock at or after it (see
                        // setReceiverClock; equal to `cycle` without one)
  uint64_t line = 0;
  uint32_t sectors = 0;
  uint32_t tag = 0;
  uint32_t delay = 0;
  Cycle sent = 0;  // DramRequest::sent
};

class DramChannel {
 public:
  DramChannel(const DramParams& params, uint32_t slices);
  // The clocks of this channel and of the slices that take its completions: each completion
  // then carries the slice cycle at which it is visible (converted once, not at every look).
  void setReceiverClock(const ClockDomain* own, const ClockDomain* receiver) {
    ownClock_ = own;
    receiverClock_ = receiver;
  }

  // Room for `reads` reads for `slice` and `writes` writes.
  bool canAccept(uint32_t slice, uint32_t reads, uint32_t writes) const;
  void enqueue(const DramRequest& request);

  void cycle(Cycle now);
  // The earliest cycle at which a command may issue (timing constraints of the waiting
  // requests), kNever when the queue is empty.
  Cycle nextWorkCycle(Cycle now) const { return queue_.empty() ? kNever : std::max(now, hint_); }
  bool empty() const { return queue_.empty(); }

  // Reads of `slice` that are done or will be, in completion order.
  RingBuffer<DramCompletion>& completions(uint32_t slice) { return done_[slice]; }
  bool completionsEmpty() const;

  const DramStats& stats() const { return stats_; }
  // A read's data reached the L2 `l2Cycles` after it was sent (counted by the slice that waited).
  void countReadLatency(uint64_t l2Cycles) {
    ++stats_.readsReturned;
    stats_.readLatencyL2Cycles += l2Cycles;
  }
  void resetStats() { stats_ = DramStats{}; }

 private:
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    Cycle actAllowed = 0, columnAllowed = 0, prechargeAllowed = 0;
  };
  // Each returns whether it issued; otherwise `earliest` is lowered to when its kind of command
  // could issue for some request.
  bool tryColumn(Cycle now, Cycle& earliest);
  bool tryRowCommand(Cycle now, Cycle& earliest);
  // The ideal row buffer's scheduler: the request whose data could be on the bus first, issued
  // when it can (ties: see the header comment).
  bool tryColumnEarliestData(Cycle now, Cycle& earliest);
  void issueColumn(size_t index, Cycle now);

  const DramParams params_;
  std::vector<DramRequest> queue_;  // oldest first; reserved, never grows past depth
  std::vector<Bank> banks_;
  std::vector<uint8_t> openRowWanted_;  // per bank, scratch of tryRowCommand
  std::vector<RingBuffer<DramCompletion>> done_;
  std::vector<uint32_t> queuedReads_;  // per slice
  Cycle actAllowed_ = 0;               // tRRD
  Cycle busFree_ = 0;
  Cycle hint_ = 0;  // no command can issue before this cycle
  const ClockDomain* ownClock_ = nullptr;
  const ClockDomain* receiverClock_ = nullptr;
  DramStats stats_;
};

}  // namespace warpsim::timing::mem
