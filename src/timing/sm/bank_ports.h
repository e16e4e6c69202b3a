// Port arbitration of a banked register file with operand collectors, shared by register-file
// models that differ in where a register lives and what an access costs (the baseline "banked"
// model, value-compressing models in src/mech/). Knows banks, collectors and ports, nothing of
// register numbering or values.
//
// Reads: allocate() takes a collector and the banks of the operands it must read; every cycle the
// collectors are served oldest first, each bank granting `read_ports` reads (a read that finds its
// bank's ports taken waits and counts a conflict). A collector is ready the cycle after its last
// read plus `extraDelay` cycles (pipeline stages a model adds between the banks and dispatch).
// Writes: served in submission order from their `earliest` cycle on, `write_ports` per bank per
// cycle; a write's tag is reported by popWritten once all its banks are written (silent writes,
// the model's own register moves, are not reported).
#pragma once
#include <cstdint>
#include <vector>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class StorageBanks;

class BankPorts {
 public:
  static constexpr unsigned kMaxReads = 8, kMaxWrites = 4;
  BankPorts(uint32_t partitions, uint32_t banksPerPartition, uint32_t collectorsPerPartition,
            uint32_t readPorts, uint32_t writePorts);

  void reset();   // empties every collector and queue and clears the counters
  // Claims each granted port in `banks` (nullptr: the banks are the register file's own).
  void shareBanks(StorageBanks* banks) { shared_ = banks; }
  uint32_t collectorsPerPartition() const { return collectorsPer_; }
  bool canAllocate(uint32_t partition) const { return parts_[partition].freeMask != 0; }
  // `banks`: bank index within the partition of each read (n <= kMaxReads).
  uint32_t allocate(uint32_t partition, const uint8_t* banks, unsigned n, Cycle extraDelay);
  uint64_t ready(uint32_t partition, Cycle now) const;
  void release(uint32_t collector);
  void write(uint32_t tag, uint32_t partition, const uint8_t* banks, unsigned n, Cycle earliest,
             bool silent = false);
  bool popWritten(uint32_t& tag);
  void cycle(Cycle now);
  Cycle nextEvent(Cycle now) const;

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t readConflicts() const { return readConflicts_; }
  uint64_t writeConflicts() const { return writeConflicts_; }
  uint64_t allocations() const { return allocations_; }
  // Collectors whose reads waited for a bank at least once.
  uint64_t conflictedCollectors() const { return conflictedCollectors_; }

 private:
  struct Collector {
    uint8_t numReads = 0;      // reads still to do
    uint8_t reads[kMaxReads] = {};
    Cycle extraDelay = 0;
    Cycle readyAt = 0;
    bool waited = false;       // a read found its bank's ports taken
  };
  struct Partition {
    uint64_t freeMask = 0;     // free collectors (bit i: collector p * per + i)
    uint64_t doneMask = 0;     // allocated, every operand read
    std::vector<uint32_t> readQueue;  // collectors with reads to do, oldest first
  };
  struct PendingWrite {
    uint32_t tag, partition;
    Cycle earliest;
    uint8_t numLeft;
    bool silent;
    uint8_t banks[kMaxWrites];
  };

  uint32_t partitions_, banksPer_, collectorsPer_, readPorts_, writePorts_;
  std::vector<Collector> collectors_;
  std::vector<Partition> parts_;
  std::vector<uint8_t> readBudget_, writeBudget_;   // per partition * bank, this cycle
  std::vector<PendingWrite> pending_;               // in submission order
  std::vector<uint32_t> written_;                   // tags written, not yet popped
  size_t writtenHead_ = 0;
  StorageBanks* shared_ = nullptr;
  uint64_t reads_ = 0, writes_ = 0, readConflicts_ = 0, writeConflicts_ = 0, allocations_ = 0,
           conflictedCollectors_ = 0;
};

}  // namespace warpsim::timing
