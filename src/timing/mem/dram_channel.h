// One DRAM channel, in DRAM cycles: banks with row buffers (open-page policy), a request queue
// and an FR-FCFS (or FCFS) scheduler issuing at most one command per cycle.
//
// Commands and the timing they obey (dram.t_*):
//   ACT  bank closed; >= tRP after the bank's PRE, >= tRC after its previous ACT, >= tRRD after
//        any ACT of the channel, >= tFAW after the fourth-last ACT of the channel (at most four
//        ACTs in any window of tFAW cycles).  Opens the row; column commands >= tRCD later.
//   PRE  bank open on another row; >= tRAS after its ACT, >= tWR after the end of its last
//        write data, >= one burst after its last read command (read-to-precharge).
//   RD   row open; data on the bus tCL cycles later for bursts x burst_cycles cycles;
//        >= tWTR after the end of the channel's last write data (write-to-read turnaround).
//   WR   row open; data on the bus tWL cycles later, likewise; >= tRTW after the channel's last
//        RD command (read-to-write turnaround, one explicit minimum spacing).
//   REF  all banks closed; >= tRP after each bank's PRE and >= tRC after its ACT (as an ACT).
//        Every bank can be activated again tRFC cycles later.
// The data bus carries one burst at a time, so a column command waits until its data would not
// overlap the previous one; each 32-byte burst occupies it burst_cycles cycles (busy_cycles).
// A read completes dram.return_latency cycles after its last burst has crossed the bus (the
// memory controller's and PHY's fixed delay on the way back to the L2).
// tWTR, tRTW and tFAW of 0 mean "not modelled" (no constraint; tWTR = 0 is not "a read may issue
// at the end of write data", which would be stricter than the bus alone).
//
// All-bank refresh (dram.t_refi > 0): refresh k is due at cycle k x tREFI (k >= 1, every channel
// at once, not randomised). From its due cycle the channel issues no ACT and no column command;
// it precharges its open banks, lowest-numbered first as each PRE is allowed (tRAS, tWR, read-to-
// precharge), then issues REF; tRFC cycles after REF every bank may be activated again and
// service resumes (all rows closed: the next access to a row open before is a row miss). A
// channel is cycled only while it has requests, so the refresh commands of cycles in which its
// queue was empty are issued when it is next cycled (or its statistics are read), at the cycles
// they would have had: the result is the same as cycling it every cycle. `refreshes` counts REF
// commands, `refresh_cycles` the cycles from each refresh's due cycle to the end of its tRFC
// (counted when REF issues).
//
// Per-bank refresh (dram.refresh = per_bank, HBM's single-bank REFSB): refresh k is due at cycle
// k x (tREFI / banks) and refreshes bank (k - 1) mod banks, so each bank once per tREFI. From its
// due cycle that bank takes no ACT and no column command (the other banks serve as usual); it is
// precharged if open (as each PRE is allowed), then REFpb issues once the bank could take an ACT,
// and the bank may be activated again tRFCpb later. A refresh command has the cycle's command
// slot before the scheduler. Refreshes are issued in order: one not yet issued delays the next.
// Idle stretches are settled as for all-bank refresh. Counters as above, per REFpb (its
// refresh_cycles are one bank's). Not modelled: tRREFD (REFpb to an ACT of another bank).
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
// wait only for their bank's previous bursts, the data bus (tCL / tWL before the data) and the
// bus turnarounds tWTR / tRTW; refresh and tFAW do not apply (they concern rows). Every request
// counts as a row hit. With every request a row hit, plain FR-FCFS would serve the
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
  // The statistics including the refreshes due before `now` that an idle channel has not issued
  // yet (stats() counts them once the channel is next cycled).
  DramStats statsAt(Cycle now) const;
  // Issues the refresh commands of the cycles before `now` in which the channel was not cycled
  // (call before resetStats at a kernel boundary, so each kernel counts its own refreshes).
  void settleRefresh(Cycle now) {
    if (now > refreshDue_) refreshUpTo(now);
  }
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
  // Refresh commands (PRE of open banks, then REF) of the cycles [max(due, cursor), to) while a
  // refresh is due; returns the next cycle one could issue (>= to: kept in refreshNext_) and
  // whether one issued at to - 1.
  bool refreshUpTo(Cycle to);
  // One refresh command at `now` if allowed; otherwise `earliest` is when one could issue.
  bool refreshCommand(Cycle now, Cycle& earliest);
  // Per-bank refresh: PRE of the bank due (refreshBank_) if open, then its REFpb.
  bool refreshBankCommand(Cycle now, Cycle& earliest);
  bool allBanksActivatableAt(Cycle c) const;
  void precharge(Bank& b, Cycle now);
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
  Cycle actAllowed_ = 0;               // tRRD and tFAW
  Cycle fawAllowed_[4] = {0, 0, 0, 0};  // ACT cycle + tFAW of the last four ACTs (a ring)
  uint32_t fawHead_ = 0;                // the oldest of them
  Cycle busFree_ = 0;
  Cycle columnTurn_[2] = {0, 0};  // RD: end of write data + tWTR; WR: last RD + tRTW
  uint32_t openBanks_ = 0;
  // Refresh (kNever: not modelled). refreshCursor_: cycles before it have been examined for
  // refresh commands. banksIdle_: no ACT since the last REF (every bank's actAllowed is
  // refreshEnd_), so the refreshes of an idle stretch can be counted at once.
  Cycle refreshDue_ = kNever, refreshCursor_ = 0, refreshEnd_ = 0, refreshNext_ = 0;
  bool banksIdle_ = false;
  // Per-bank refresh: refresh k refreshes bank (k - 1) mod banks; refreshBank_ is the bank of
  // the next (due at refreshDue_). refreshingBank_: during cycle(), the bank whose refresh is
  // due and not yet issued (it takes no ACT and no column command), else kNoBank.
  static constexpr uint32_t kNoBank = ~0u;
  const bool perBank_ = params_.refresh == DramRefresh::PerBank;
  Cycle refreshInterval_ = 0;  // tREFI, or tREFI / banks per bank
  uint32_t refreshBank_ = 0, refreshingBank_ = kNoBank;
  Cycle hint_ = 0;  // no command can issue before this cycle
  const ClockDomain* ownClock_ = nullptr;
  const ClockDomain* receiverClock_ = nullptr;
  DramStats stats_;
};

}  // namespace warpsim::timing::mem
