// Register-file model "gscalar": G-Scalar's compressed register file with generalised scalar
// execution, and, by configuration, the comparators the paper measures against (BDI register
// compression, the prior word-level scalar register file). See README.md.
//
// Timing: the baseline's banks, ports and collectors (BankPorts) plus extra_read_cycles of
// pipelined latency (reported through executionWidth: the metadata read and decompression do
// not hold the collector) and extra_write_cycles before a result is written. With
// encoding = "word", scalar registers live in one extra single-ported scalar bank per partition
// (their reads and writes serialise there). A divergent write to a compressed register first
// moves it, uncompressed, to itself: one more read of the destination's bank before dispatch and
// one more (silent) write.
// Values: every write runs through RegisterState (metadata, arrays, costs); each program
// instruction's scalar decision is taken at operand collection from the sources' metadata and
// reported to the SM through executionWidth().
#pragma once
#include <memory>
#include <vector>

#include "mech/gscalar/gscalar_params.h"
#include "mech/gscalar/gscalar_stats.h"
#include "mech/gscalar/instruction_traits.h"
#include "mech/gscalar/register_state.h"
#include "timing/sm/bank_ports.h"
#include "timing/sm/i_register_file.h"

namespace warpsim::mech::gscalar {

class GScalarRegisterFile final : public timing::IRegisterFile {
 public:
  explicit GScalarRegisterFile(const Context& context);

  void beginKernel(const KernelInfo& kernel) override;
  uint32_t collectorsPerPartition() const override { return params_.geometry.collectorsPer; }
  bool canAllocate(uint32_t partition) const override { return ports_.canAllocate(partition); }
  uint32_t allocate(const timing::RegisterRead& read, timing::Cycle now) override;
  uint64_t ready(uint32_t partition, timing::Cycle now) const override { return ports_.ready(partition, now); }
  void release(uint32_t collector) override { ports_.release(collector); }
  timing::ExecutionWidth executionWidth(uint32_t collector) const override;
  void write(const timing::RegisterWrite& write, timing::Cycle now) override;
  bool popWritten(uint32_t& tag) override { return ports_.popWritten(tag); }
  void cycle(timing::Cycle now) override { ports_.cycle(now); }
  timing::Cycle nextEvent(timing::Cycle now) const override { return ports_.nextEvent(now); }
  void onWarpStart(uint32_t slot) override;
  void reportStats(nlohmann::json& out) const override;

 private:
  // Physical 32-bit register of word `word` (0: low, 1: high) of value register `reg`.
  uint32_t phys(uint32_t reg, unsigned word) const { return reg + word * valueRegs_; }
  uint8_t bankOf(uint32_t slot, uint32_t reg) const { return static_cast<uint8_t>(params_.geometry.bankOf(slot, reg)); }
  bool isScalarRegister(uint32_t slot, uint32_t reg, bool wide) const;
  void countInstruction(const timing::RegisterRead& read, uint32_t collector);
  void verifyRead(uint32_t slot, uint32_t physReg) const;

  GScalarParams params_;
  uint32_t smId_, slots_, valueRegs_ = 0;
  uint8_t scalarBank_;                        // word encoding: index of the scalar bank
  timing::BankPorts ports_;
  std::unique_ptr<RegisterState> state_;
  std::vector<Scalarity> decision_;           // per collector
  std::vector<uint8_t> scalarResult_;         // per slot x physical register: the pending write
                                              // is a scalar execution's result
  const timing::AnnotationTable<InstructionTraits>* traits_ = nullptr;  // "gscalar-traits"
  GScalarStats stats_;
};

}  // namespace warpsim::mech::gscalar
