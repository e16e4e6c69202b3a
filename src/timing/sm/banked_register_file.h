// Baseline register file "banked": single-level, banked main register file with operand
// collectors (Fermi-style).
//
// Register r of warp slot w lives in bank (r + w * warp_stride) % banks_per_partition of the
// warp's partition. Each bank serves read_ports reads and write_ports writes per cycle. Every
// cycle, collectors with operands to read are served oldest first; a read that finds its bank's
// ports taken waits for the next cycle and counts one bank conflict. Writes are served in the
// order they were submitted; an instruction's result counts as written once all its
// destination registers are (denied write ports count write_conflicts). A 64-bit register is
// one access (the model does not split register pairs).
//
// Keys ([sm.register_file]): banks, read_ports, write_ports, collectors, warp_stride.
// Counters: bank_reads, bank_writes, bank_conflicts, write_conflicts, collector_allocations.
#pragma once
#include <memory>
#include <vector>

#include "timing/sm/i_register_file.h"

namespace warpsim::timing {

class BankedRegisterFile final : public IRegisterFile {
 public:
  explicit BankedRegisterFile(const Context& context);

  void beginKernel() override;
  uint32_t collectorsPerPartition() const override { return collectorsPer_; }
  bool canAllocate(uint32_t partition) const override { return parts_[partition].freeMask != 0; }
  uint32_t allocate(const RegisterRead& read, Cycle now) override;
  uint64_t ready(uint32_t partition, Cycle now) const override;
  void release(uint32_t collector) override;
  void write(const RegisterWrite& write, Cycle now) override;
  bool popWritten(uint32_t& tag) override;
  void cycle(Cycle now) override;
  Cycle nextEvent(Cycle now) const override;
  void reportStats(nlohmann::json& out) const override;

  uint32_t bankOf(uint32_t slot, uint32_t reg) const { return (reg + slot * warpStride_) % banksPer_; }

 private:
  struct Collector {
    uint8_t numReads = 0;      // reads still to do
    uint8_t reads[6] = {};     // their banks
    Cycle readyAt = 0;
  };
  struct Partition {
    uint64_t freeMask = 0;     // free collectors (bit i: collector p * per + i)
    uint64_t doneMask = 0;     // allocated, every operand read
    std::vector<uint32_t> readQueue;  // collectors with reads to do, oldest first
  };
  struct PendingWrite {
    uint32_t tag, partition;
    uint8_t numLeft;
    uint8_t banks[4];
  };

  uint32_t partitions_, banksPer_, collectorsPer_, readPorts_, writePorts_, warpStride_;
  std::vector<Collector> collectors_;
  std::vector<Partition> parts_;
  std::vector<uint8_t> readBudget_, writeBudget_;   // per partition * bank, this cycle
  std::vector<PendingWrite> writes_;                // in submission order
  std::vector<uint32_t> written_;                   // tags written, not yet popped
  size_t writtenHead_ = 0;
  uint64_t bankReads_ = 0, bankWrites_ = 0, bankConflicts_ = 0, writeConflicts_ = 0,
           allocations_ = 0;
};

std::unique_ptr<IRegisterFile> makeBankedRegisterFile(const IRegisterFile::Context& context);

}  // namespace warpsim::timing
