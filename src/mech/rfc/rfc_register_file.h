// Register-file model "rfc": the hardware-managed register file cache of the register-file
// hierarchy studies (digest rf-hierarchy s5), optionally with a hardware last-result file in
// front of it (s5.3, three levels), over the banked main register file (MRF).
//
// Per warp slot, `entries` 32-bit entries per thread hold recently produced registers. Results
// are written into the RFC (or the LRF) instead of the MRF, except long-latency results with
// bypass_long_latency; operands that hit are read from it and take no MRF bank port; misses read
// the MRF banks as the baseline does. An evicted dirty value is written back to the MRF (a read
// of the RFC plus an MRF write through the bank's write port), unless a liveness hint marked it
// dead. Leaving the two-level scheduler's active set, or changing register frame (call/return),
// flushes the warp's entries; a warp that exits drops them. See README.md for every choice.
//
// Timing: hits skip the MRF banks (fewer bank conflicts), write-backs take MRF write ports, and
// control instructions wait tag_stage_cycles more before dispatch (the tag-check stage adds a
// cycle to branch resolution). Energy: counters per level (rfc_stats.h); the MRF's also fill the
// baseline's array_reads / array_writes / crossbar_bytes, so the baseline energy keys price the
// MRF and the configuration's energy.extra entries price the upper levels.
#pragma once
#include <memory>
#include <vector>

#include "mech/rfc/register_cache.h"
#include "mech/rfc/rfc_params.h"
#include "mech/rfc/rfc_stats.h"
#include "timing/sm/bank_ports.h"
#include "timing/sm/i_register_file.h"
#include "timing/sm/last_reads.h"
#include "timing/sm/value_usage.h"

namespace warpsim::mech::rfc {

class RfcRegisterFile final : public timing::IRegisterFile {
 public:
  explicit RfcRegisterFile(const Context& context);

  void beginKernel(const KernelInfo& kernel) override;
  uint32_t collectorsPerPartition() const override { return params_.geometry.collectorsPer; }
  bool canAllocate(uint32_t partition) const override { return ports_.canAllocate(partition); }
  uint32_t allocate(const timing::RegisterRead& read, timing::Cycle now) override;
  uint64_t ready(uint32_t partition, timing::Cycle now) const override { return ports_.ready(partition, now); }
  void release(uint32_t collector) override { ports_.release(collector); }
  void write(const timing::RegisterWrite& write, timing::Cycle now) override;
  bool popWritten(uint32_t& tag) override;
  void cycle(timing::Cycle now) override { ports_.cycle(now); }
  timing::Cycle nextEvent(timing::Cycle now) const override;
  void onWarpStart(uint32_t slot) override { drop(slot); }
  void onWarpExit(uint32_t slot) override;
  void onWarpDescheduled(uint32_t slot, timing::Cycle now) override { flush(slot, now); }
  void reportStats(nlohmann::json& out) const override;

  const RfcStats& stats() const { return stats_; }

 private:
  uint8_t bankOf(uint32_t slot, uint32_t reg) const {
    return static_cast<uint8_t>(params_.geometry.bankOf(slot, reg));
  }
  // Writes every dirty, live entry of `slot` back to the MRF and empties its upper levels.
  void flush(uint32_t slot, timing::Cycle now);
  // Empties the slot's upper levels without writing anything back (the warp's values are gone).
  void drop(uint32_t slot);
  // An entry leaves the RFC: written back to the MRF if dirty and live, else (dirty, dead)
  // dropped.
  void retireRfcEntry(uint32_t slot, uint32_t partition, const CachedRegister& e, timing::Cycle now);
  // An entry leaves the LRF: a dirty live value goes to the RFC (toMrf: straight to the MRF).
  void retireLrfEntry(uint32_t slot, uint32_t partition, const CachedRegister& e, bool toMrf, timing::Cycle now);
  void insertRfc(uint32_t slot, uint32_t partition, uint32_t reg, uint8_t words, bool dirty, timing::Cycle now);
  void mrfWriteback(uint32_t slot, uint32_t partition, uint32_t reg, uint8_t words, timing::Cycle now);
  bool stale(uint32_t slot, uint32_t reg) const { return stale_[size_t{slot} * regs_ + reg] != 0; }
  void setStale(uint32_t slot, uint32_t reg, bool v) { stale_[size_t{slot} * regs_ + reg] = v ? 1 : 0; }

  RfcParams params_;
  uint32_t partitionOf(uint32_t slot) const { return slot % partitions_; }

  uint32_t slots_, partitions_;
  timing::BankPorts ports_;
  RegisterCache rfc_, lrf_;
  std::vector<uint8_t> stale_;            // slot x register: the MRF copy is older than a dropped value
  uint32_t regs_ = 1;
  std::vector<uint32_t> done_;            // writes that needed no MRF port, not yet popped
  size_t doneHead_ = 0;
  const timing::AnnotationTable<timing::LastReads>* lastReads_ = nullptr;
  RfcStats stats_;
  timing::ValueUsage usage_;              // the value-usage characterisation (reads, lifetimes)
};

}  // namespace warpsim::mech::rfc
