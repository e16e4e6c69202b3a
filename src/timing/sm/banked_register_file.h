// Baseline register file "banked": single-level, banked main register file with operand
// collectors (Fermi-style).
//
// Register r of warp slot w lives in bank (r + w * warp_stride) % banks_per_partition of the
// warp's partition. Port arbitration is BankPorts' (oldest collector first; a read that finds
// its bank's ports taken waits and counts a conflict; writes in submission order). A 64-bit
// register is one port access (the model does not split register pairs).
//
// Energy events (docs/energy.md): a bank holds each warp register in 8 SRAM arrays of 128 bits,
// array k holding lanes 4k..4k+3 (the paper's Fermi bank, digest gscalar s1.1). A read activates
// all 8 arrays and moves 128 bytes; a write activates the arrays holding a written lane and moves
// 4 bytes per written lane; a 64-bit register counts as two 32-bit registers.
//
// Keys ([sm.register_file]): banks, read_ports, write_ports, collectors, warp_stride.
// Counters: bank_reads, bank_writes, bank_conflicts, write_conflicts, collector_allocations,
// array_reads, array_writes, crossbar_bytes.
#pragma once
#include <memory>

#include "timing/sm/bank_ports.h"
#include "timing/sm/i_register_file.h"

namespace warpsim::timing {

// The bank geometry keys every banked model shares.
struct BankGeometry {
  uint32_t banksPer = 0, collectorsPer = 0, readPorts = 1, writePorts = 1, warpStride = 1;
  uint32_t bankOf(uint32_t slot, uint32_t reg) const { return (reg + slot * warpStride) % banksPer; }
};
BankGeometry readBankGeometry(config::Section& section, uint32_t partitions);

// Arrays of a lane-sliced bank (array k: lanes 4k..4k+3) holding a lane of `mask`.
inline unsigned laneSlicedArrays(uint32_t mask) {
  unsigned n = 0;
  for (unsigned k = 0; k < 8; ++k) n += ((mask >> (4 * k)) & 0xFu) != 0;
  return n;
}

class BankedRegisterFile final : public IRegisterFile {
 public:
  explicit BankedRegisterFile(const Context& context);

  void beginKernel(const KernelInfo& kernel) override;
  uint32_t collectorsPerPartition() const override { return geo_.collectorsPer; }
  bool canAllocate(uint32_t partition) const override { return ports_.canAllocate(partition); }
  uint32_t allocate(const RegisterRead& read, Cycle now) override;
  uint64_t ready(uint32_t partition, Cycle now) const override { return ports_.ready(partition, now); }
  void release(uint32_t collector) override { ports_.release(collector); }
  void write(const RegisterWrite& write, Cycle now) override;
  bool popWritten(uint32_t& tag) override { return ports_.popWritten(tag); }
  void cycle(Cycle now) override { ports_.cycle(now); }
  Cycle nextEvent(Cycle now) const override { return ports_.nextEvent(now); }
  void reportStats(nlohmann::json& out) const override;

  uint32_t bankOf(uint32_t slot, uint32_t reg) const { return geo_.bankOf(slot, reg); }

 private:
  BankGeometry geo_;
  BankPorts ports_;
  uint64_t arrayReads_ = 0, arrayWrites_ = 0, crossbarBytes_ = 0;
};

std::unique_ptr<IRegisterFile> makeBankedRegisterFile(const IRegisterFile::Context& context);

}  // namespace warpsim::timing
