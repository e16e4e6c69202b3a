// Register-file model "orf-lrf": the software-managed hierarchy (digest rf-hierarchy s6): a
// per-lane operand register file (ORF, `entries` per thread) and optionally a last result file
// (LRF: one entry, or one per operand slot when split) above the banked main register file
// (MRF). Nothing is decided in hardware: the compiler pass "orf-lrf" (allocation_pass.h) names,
// per instruction, the level each operand is read from and the levels each result is written to
// (one upper level and/or the MRF), and where strands begin.
//
// At a strand start, when its warp leaves the two-level scheduler's active set, and when it
// starts or exits, a warp's upper-level entries become invalid (the compiler put every value
// needed later in the MRF: there is no write-back). Operands read from the ORF or LRF take no
// MRF bank port; results written only above take no MRF write port.
//
// Check (`check`, on by default): each upper-level entry remembers, lane by lane, which register
// it holds (entries are per lane and writes masked: the lanes of one arm of a divergent branch
// may hold another register than the other arm's), and each register remembers the lanes whose
// latest value was written only above the MRF; a read of an entry that does not hold the
// register for all its active lanes, or an MRF read of lanes whose value was never written to
// the MRF, is counted in invalid_reads (0 on the whole suite, tested).
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "mech/orf_lrf/orf_params.h"
#include "mech/orf_lrf/placement.h"
#include "timing/sm/bank_ports.h"
#include "timing/sm/banked_register_file.h"
#include "timing/sm/i_register_file.h"
#include "timing/sm/register_level_counters.h"

namespace warpsim::mech::orf_lrf {

class OrfLrfRegisterFile final : public timing::IRegisterFile {
 public:
  explicit OrfLrfRegisterFile(const Context& context);

  void beginKernel(const KernelInfo& kernel) override;
  uint32_t collectorsPerPartition() const override { return geometry_.collectorsPer; }
  bool canAllocate(uint32_t partition) const override { return ports_.canAllocate(partition); }
  uint32_t allocate(const timing::RegisterRead& read, timing::Cycle now) override;
  uint64_t ready(uint32_t partition, timing::Cycle now) const override { return ports_.ready(partition, now); }
  void release(uint32_t collector) override { ports_.release(collector); }
  void write(const timing::RegisterWrite& write, timing::Cycle now) override;
  bool popWritten(uint32_t& tag) override;
  void cycle(timing::Cycle now) override { ports_.cycle(now); }
  timing::Cycle nextEvent(timing::Cycle now) const override;
  void onWarpStart(uint32_t slot) override { invalidate(slot); }
  void onWarpExit(uint32_t slot) override { invalidate(slot); }
  void onWarpDescheduled(uint32_t slot, timing::Cycle) override;
  void reportStats(nlohmann::json& out) const override;

 private:
  struct Entry {
    std::array<uint32_t, 32> reg;  // per lane: the register it holds (kNoReg: none)
  };
  static constexpr uint32_t kNoReg = UINT32_MAX;
  Entry& orf(uint32_t slot, uint32_t e) { return entries_[(size_t{slot} * slotEntries_) + e]; }
  Entry& lrf(uint32_t slot, uint32_t bank) { return entries_[(size_t{slot} * slotEntries_) + params_.entries + bank]; }
  void invalidate(uint32_t slot);
  void writeEntry(Entry& e, uint32_t reg, uint32_t lanes);
  void checkEntry(const Entry& e, uint32_t reg, uint32_t lanes);
  uint32_t& onlyAbove(uint32_t slot, uint32_t reg) { return onlyAbove_[size_t{slot} * regs_ + reg]; }

  OrfParams params_;
  OperandPlacement allMrf_;              // assist-warp instructions: every operand in the MRF
  timing::BankGeometry geometry_;
  uint32_t slots_, slotEntries_;
  timing::BankPorts ports_;
  std::vector<Entry> entries_;           // per slot: ORF entries, then LRF banks
  std::vector<uint32_t> onlyAbove_;      // slot x register: lanes whose value is not in the MRF
  uint32_t regs_ = 1;
  std::vector<uint32_t> done_;
  size_t doneHead_ = 0;
  const timing::AnnotationTable<OperandPlacement>* placement_ = nullptr;
  timing::RegisterLevelCounters mrf_, orf_, lrf_;
  uint64_t instructions_ = 0, mrfOperandHistogram_[4] = {};
  uint64_t strandStarts_ = 0, descheduleInvalidations_ = 0, invalidReads_ = 0;
};

}  // namespace warpsim::mech::orf_lrf
