#include "mech/orf_lrf/orf_lrf_register_file.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "mech/orf_lrf/allocation_pass.h"
#include "timing/plugin_registry.h"

namespace warpsim::mech::orf_lrf {

using timing::Cycle;
using timing::RegisterRead;
using timing::RegisterWrite;
using timing::UnitClass;

namespace {
bool sharedDatapath(UnitClass u) { return u != UnitClass::Alu && u != UnitClass::Fp64; }
uint32_t lrfBanks(LrfMode m) { return m == LrfMode::Split ? 3 : m == LrfMode::Unified ? 1 : 0; }
}  // namespace

OrfLrfRegisterFile::OrfLrfRegisterFile(const Context& context)
    : params_(readOrfParams(context.section)),
      geometry_([&] {
        config::Section s = context.section;
        return timing::readBankGeometry(s, context.partitions);
      }()),
      slots_(context.warpSlots),
      slotEntries_(params_.entries + lrfBanks(params_.lrf)),
      ports_(context.partitions, geometry_.banksPer, geometry_.collectorsPer, geometry_.readPorts,
             geometry_.writePorts) {
  ports_.shareBanks(context.storageBanks);
  if (context.passes) context.passes->require(kPlacementTable);
  allMrf_.dstMrfMask = 0xF;
  entries_.resize(size_t{slots_} * slotEntries_);
  done_.reserve(256);
  beginKernel({1, nullptr});
}

void OrfLrfRegisterFile::beginKernel(const KernelInfo& kernel) {
  regs_ = kernel.valueRegisters == 0 ? 1 : kernel.valueRegisters;
  onlyAbove_.assign(size_t{slots_} * regs_, 0);
  for (Entry& e : entries_) e.reg.fill(kNoReg);
  ports_.reset();
  done_.clear();
  doneHead_ = 0;
  placement_ = kernel.annotations ? kernel.annotations->find<OperandPlacement>(kPlacementTable) : nullptr;
  mrf_ = orf_ = lrf_ = {};
  instructions_ = strandStarts_ = descheduleInvalidations_ = invalidReads_ = 0;
  std::fill(std::begin(mrfOperandHistogram_), std::end(mrfOperandHistogram_), 0);
}

void OrfLrfRegisterFile::invalidate(uint32_t slot) {
  if (!params_.check) return;  // the entries serve the check only
  for (uint32_t e = 0; e < slotEntries_; ++e) entries_[(size_t{slot} * slotEntries_) + e].reg.fill(kNoReg);
}

void OrfLrfRegisterFile::onWarpDescheduled(uint32_t slot, Cycle) {
  ++descheduleInvalidations_;
  invalidate(slot);
}

// Both loops run over all 32 lanes without branches (the compiler vectorises them).
void OrfLrfRegisterFile::writeEntry(Entry& e, uint32_t reg, uint32_t lanes) {
  if (!params_.check) return;
  for (unsigned l = 0; l < 32; ++l) e.reg[l] = (lanes >> l & 1u) ? reg : e.reg[l];
}

void OrfLrfRegisterFile::checkEntry(const Entry& e, uint32_t reg, uint32_t lanes) {
  if (!params_.check) return;
  uint32_t other = 0;  // lanes holding another register
  for (unsigned l = 0; l < 32; ++l) other |= static_cast<uint32_t>(e.reg[l] != reg) << l;
  if ((other & lanes) != 0) ++invalidReads_;
}

uint32_t OrfLrfRegisterFile::allocate(const RegisterRead& r, Cycle) {
  const uint32_t slot = r.warpSlot;
  const bool shared = sharedDatapath(r.unit);
  const OperandPlacement* p = &allMrf_;
  if (r.record) {
    if (placement_ == nullptr) {
      throw std::logic_error("orf-lrf: an instruction was read without the \"orf-lrf\" pass's table");
    }
    p = &placement_->at(r.record->function, r.record->pc);
    ++instructions_;
  }
  if (p->strandStart) {
    ++strandStarts_;
    invalidate(slot);
  }
  uint8_t banks[timing::BankPorts::kMaxReads];
  unsigned fromMrf = 0;
  for (unsigned i = 0; i < r.numSrc; ++i) {
    const uint32_t reg = r.srcRegs[i];
    const unsigned words = (r.wideMask >> i & 1u) + 1;
    switch (p->srcLevel[i]) {
      case Level::Orf:
        orf_.read(words, shared);
        for (unsigned w = 0; w < words; ++w) checkEntry(orf(slot, p->srcEntry[i] + w), reg, r.activeMask);
        break;
      case Level::Lrf:
        lrf_.read(words, shared);
        checkEntry(lrf(slot, p->srcEntry[i]), reg, r.activeMask);
        break;
      case Level::Mrf:
        mrf_.read(words, shared);
        if (params_.check && reg < regs_ && (onlyAbove(slot, reg) & r.activeMask) != 0) ++invalidReads_;
        banks[fromMrf++] = static_cast<uint8_t>(geometry_.bankOf(slot, reg));
        break;
    }
  }
  // Read-operand deposits after every read of the instruction (an entry may be read for the last
  // time by the same instruction that refills it).
  for (unsigned i = 0; i < r.numSrc; ++i) {
    if ((p->depositMask >> i & 1u) == 0) continue;
    const unsigned words = (r.wideMask >> i & 1u) + 1;
    orf_.fillWrites += words;
    orf_.arrayWrites += size_t{timing::laneSlicedArrays(r.activeMask)} * words;
    for (unsigned w = 0; w < words; ++w) writeEntry(orf(slot, p->srcEntry[i] + w), r.srcRegs[i], r.activeMask);
  }
  if (r.record) ++mrfOperandHistogram_[std::min(fromMrf, 3u)];
  return ports_.allocate(r.partition, banks, fromMrf, 0);
}

void OrfLrfRegisterFile::write(const RegisterWrite& w, Cycle now) {
  const uint32_t slot = w.warpSlot;
  const bool shared = sharedDatapath(w.unit);
  const OperandPlacement* p = &allMrf_;
  if (w.instr != nullptr && placement_ != nullptr) p = &placement_->at(w.function, w.pc);
  uint8_t banks[timing::BankPorts::kMaxWrites];
  unsigned toMrf = 0;
  for (unsigned j = 0; j < w.numDst; ++j) {
    const uint32_t reg = w.dstRegs[j];
    const unsigned words = (w.wideMask >> j & 1u) + 1;
    const bool mrf = (p->dstMrfMask >> j & 1u) != 0 || p->dstLevel[j] == Level::Mrf;
    if (p->dstLevel[j] == Level::Orf) {
      orf_.result(words, w.activeMask, shared);
      for (unsigned k = 0; k < words; ++k) writeEntry(orf(slot, p->dstEntry[j] + k), reg, w.activeMask);
    } else if (p->dstLevel[j] == Level::Lrf) {
      lrf_.result(words, w.activeMask, shared);
      writeEntry(lrf(slot, p->dstEntry[j]), reg, w.activeMask);
    }
    if (mrf) {
      mrf_.result(words, w.activeMask, shared);
      banks[toMrf++] = static_cast<uint8_t>(geometry_.bankOf(slot, reg));
      if (reg < regs_) onlyAbove(slot, reg) &= ~w.activeMask;
    } else if (reg < regs_) {
      onlyAbove(slot, reg) |= w.activeMask;
    }
  }
  if (toMrf > 0) {
    ports_.write(w.tag, w.partition, banks, toMrf, now);
  } else {
    done_.push_back(w.tag);
  }
}

bool OrfLrfRegisterFile::popWritten(uint32_t& tag) {
  if (doneHead_ < done_.size()) {
    tag = done_[doneHead_++];
    if (doneHead_ == done_.size()) {
      done_.clear();
      doneHead_ = 0;
    }
    return true;
  }
  return ports_.popWritten(tag);
}

Cycle OrfLrfRegisterFile::nextEvent(Cycle now) const {
  return doneHead_ < done_.size() ? now : ports_.nextEvent(now);
}

void OrfLrfRegisterFile::reportStats(nlohmann::json& out) const {
  out["bank_reads"] = ports_.reads();
  out["bank_writes"] = ports_.writes();
  out["bank_conflicts"] = ports_.readConflicts();
  out["conflicted_collectors"] = ports_.conflictedCollectors();
  out["write_conflicts"] = ports_.writeConflicts();
  out["collector_allocations"] = ports_.allocations();
  out["array_reads"] = mrf_.arrayReads;
  out["array_writes"] = mrf_.arrayWrites;
  out["crossbar_bytes"] = 4 * (mrf_.wirePrivate + mrf_.wireShared);
  nlohmann::json& h = out["hierarchy"];
  mrf_.report(h["mrf"]);
  orf_.report(h["orf"]);
  lrf_.report(h["lrf"]);
  h["instructions"] = instructions_;
  h["mrf_operands_per_instruction"] = {mrfOperandHistogram_[0], mrfOperandHistogram_[1], mrfOperandHistogram_[2],
                                       mrfOperandHistogram_[3]};
  h["strand_starts"] = strandStarts_;
  h["deschedule_invalidations"] = descheduleInvalidations_;
  h["invalid_reads"] = invalidReads_;
}

}  // namespace warpsim::mech::orf_lrf

namespace warpsim::timing {

// Called by the generated registerMechanisms() (src/mech/CMakeLists.txt).
void registerMechanism_orf_lrf(PluginRegistry& registry) {
  registry.add<IIrPass>(mech::orf_lrf::kPlacementTable,
                        "software register-file hierarchy: strands and the ORF/LRF allocation of every "
                        "operand, for the orf-lrf register file",
                        [](const IIrPass::Context& context) { return mech::orf_lrf::makeAllocationPass(context.tree); });
  registry.add<IRegisterFile>("orf-lrf",
                              "software-managed operand register file and last result file over the banked "
                              "main register file (compiler-allocated per operand)",
                              [](const IRegisterFile::Context& context) {
                                return std::make_unique<mech::orf_lrf::OrfLrfRegisterFile>(context);
                              });
}

}  // namespace warpsim::timing
