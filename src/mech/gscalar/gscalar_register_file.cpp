#include "mech/gscalar/gscalar_register_file.h"

#include <bit>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mech/gscalar/instruction_traits.h"
#include "mech/gscalar/traits_pass.h"
#include "timing/plugin_registry.h"

namespace warpsim::mech::gscalar {

using timing::BankPorts;
using timing::Cycle;
using timing::ExecutionWidth;
using timing::RegisterRead;
using timing::RegisterWrite;

GScalarRegisterFile::GScalarRegisterFile(const Context& context)
    : params_(readGScalarParams(context.section, context.partitions)),
      smId_(context.smId),
      slots_(context.warpSlots),
      scalarBank_(static_cast<uint8_t>(params_.geometry.banksPer)),
      ports_(context.partitions,
             params_.geometry.banksPer + (params_.state.encoding == Encoding::Word && params_.scalarRfSingleBank ? 1 : 0),
             params_.geometry.collectorsPer, params_.geometry.readPorts, params_.geometry.writePorts) {
  ports_.shareBanks(context.storageBanks);
  decision_.assign(size_t{context.partitions} * params_.geometry.collectorsPer, Scalarity::Vector);
  if (context.passes) context.passes->require(kTraitsPass);
  beginKernel({1, nullptr});
}

void GScalarRegisterFile::beginKernel(const KernelInfo& kernel) {
  valueRegs_ = kernel.valueRegisters == 0 ? 1 : kernel.valueRegisters;
  traits_ = kernel.annotations ? kernel.annotations->find<InstructionTraits>(kTraitsPass) : nullptr;
  state_ = std::make_unique<RegisterState>(params_.state, slots_, 2 * valueRegs_);
  scalarResult_.assign(size_t{slots_} * 2 * valueRegs_, 0);
  ports_.reset();
  stats_ = GScalarStats{};
}

void GScalarRegisterFile::onWarpStart(uint32_t slot) {
  state_->resetSlot(slot);
  std::fill_n(scalarResult_.begin() + static_cast<std::ptrdiff_t>(size_t{slot} * 2 * valueRegs_), 2 * valueRegs_, 0);
}

bool GScalarRegisterFile::isScalarRegister(uint32_t slot, uint32_t reg, bool wide) const {
  for (unsigned word = 0; word <= static_cast<unsigned>(wide); ++word) {
    const Metadata& m = state_->meta(slot, phys(reg, word));
    if (!m.written || m.divergent || m.common[0] != 4) return false;
  }
  return true;
}

void GScalarRegisterFile::verifyRead(uint32_t slot, uint32_t p) const {
  uint32_t out[kLanes];
  state_->decompress(slot, p, out);
  const uint32_t* held = state_->values(slot, p);
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    if (out[lane] != held[lane]) {
      throw std::runtime_error(fmt::format(
          "gscalar: SM {} warp slot {} physical register {} lane {}: decompresses to {:#010x}, holds {:#010x}",
          smId_, slot, p, lane, out[lane], held[lane]));
    }
  }
}

uint32_t GScalarRegisterFile::allocate(const RegisterRead& r, Cycle now) {
  uint8_t banks[BankPorts::kMaxReads];
  unsigned numBanks = 0;
  SourceView views[12];
  const uint32_t* values[12];
  unsigned numViews = 0;
  const uint32_t mask = r.activeMask;
  const bool word = params_.state.encoding == Encoding::Word && params_.scalarRfSingleBank;
  for (unsigned i = 0; i < r.numSrc; ++i) {
    const uint32_t reg = r.srcRegs[i];
    const bool wide = (r.wideMask >> i) & 1u;
    banks[numBanks++] = word && isScalarRegister(r.warpSlot, reg, wide) ? scalarBank_ : bankOf(r.warpSlot, reg);
    for (unsigned w = 0; w <= static_cast<unsigned>(wide); ++w) {
      const uint32_t p = phys(reg, w);
      ReadKind kind = ReadKind::Bytes0;
      stats_.addCost(state_->read(r.warpSlot, p, mask, &kind), true);
      if (r.record) ++stats_.operandReads[static_cast<unsigned>(kind)];
      if (params_.verify) verifyRead(r.warpSlot, p);
      views[numViews] = SourceView{&state_->meta(r.warpSlot, p)};
      values[numViews++] = state_->values(r.warpSlot, p);
    }
  }
  Scalarity decision = Scalarity::Vector;
  if (r.record) {
    if (traits_ == nullptr) {
      throw std::logic_error("gscalar: an instruction was read without the \"gscalar-traits\" pass's table");
    }
    const InstructionTraits t = traitsOf(traits_->at(r.record->function, r.record->pc), *r.record);
    const Encoding enc = params_.state.encoding;
    const bool half = params_.state.halfRegister;
    decision = decideScalar(views, numViews, mask, t.cls, t.uniformInputs, enc, half, params_.scalar);
    const Scalarity detected = decideScalar(views, numViews, mask, t.cls, t.uniformInputs, enc, half, ScalarSwitches{});
    const Scalarity oracle = oracleScalar(values, numViews, mask, t.cls, t.uniformInputs);
    ++stats_.instructions;
    if (mask != kFullMask) ++stats_.divergent;
    switch (t.cls) {
      case ScalarClass::Alu: ++stats_.alu; break;
      case ScalarClass::Sfu: ++stats_.sfu; break;
      case ScalarClass::Mem: ++stats_.mem; break;
      default: ++stats_.other; break;
    }
    auto count = [&](uint64_t* table, Scalarity s) {
      const Category c = categoryOf(s, t.cls);
      if (c != Category::kCount) ++table[static_cast<unsigned>(c)];
    };
    count(stats_.executed, decision);
    count(stats_.detected, detected);
    count(stats_.oracle, oracle);
    // Destinations: the special move before a divergent write to a compressed register, and
    // scalar results (written to the BVR without the compressor).
    const bool scalarResult = decision == Scalarity::Full || decision == Scalarity::Divergent;
    for (unsigned d = 0; d < r.record->numDstRegs; ++d) {
      const uint32_t reg = r.record->dstRegs[d];
      bool moved = false;
      for (unsigned w = 0; w < 2; ++w) {
        const uint32_t p = phys(reg, w);
        if (scalarResult) scalarResult_[size_t{r.warpSlot} * 2 * valueRegs_ + p] = 1;
        if (!state_->needsSpecialMove(r.warpSlot, p, mask)) continue;
        ReadKind kind;
        const AccessCost before = state_->read(r.warpSlot, p, kFullMask, &kind);
        AccessCost move = state_->specialMove(r.warpSlot, p);
        stats_.addCost(before, true);
        move.arrays = static_cast<uint8_t>(move.arrays - before.arrays);
        move.crossbarBytes = static_cast<uint16_t>(move.crossbarBytes - before.crossbarBytes);
        stats_.addCost(move, false);
        ++stats_.specialMoves;
        moved = true;
      }
      if (moved) {
        const uint8_t bank = bankOf(r.warpSlot, reg);
        if (numBanks < BankPorts::kMaxReads) banks[numBanks++] = bank;
        ports_.write(0, r.partition, &bank, 1, now + 1, true);
      }
    }
  }
  const uint32_t id = ports_.allocate(r.partition, banks, numBanks, 0);
  decision_[id] = decision;
  return id;
}

// The metadata read and decompression stages are pipelined (digest s1.9: throughput unchanged),
// so their cycles lengthen the instruction's latency instead of holding its collector.
ExecutionWidth GScalarRegisterFile::executionWidth(uint32_t collector) const {
  const uint32_t shortOccupancy = params_.oneCycleScalar ? 1 : 0;
  const uint32_t extra = params_.extraReadCycles;
  switch (decision_[collector]) {
    case Scalarity::Full: case Scalarity::Divergent: return {1, shortOccupancy, extra};
    case Scalarity::HalfBoth: return {2, shortOccupancy, extra};
    case Scalarity::HalfLow: case Scalarity::HalfHigh: return {17, 0, extra};
    default: return {ExecutionWidth::kAllActive, 0, extra};
  }
}

void GScalarRegisterFile::write(const RegisterWrite& w, Cycle now) {
  uint8_t banks[BankPorts::kMaxWrites];
  const uint32_t mask = w.activeMask;
  const bool wordEnc = params_.state.encoding == Encoding::Word;
  const bool scalarBank = wordEnc && params_.scalarRfSingleBank;
  for (unsigned i = 0; i < w.numDst; ++i) {
    const uint32_t reg = w.dstRegs[i];
    const bool wide = (w.wideMask >> i) & 1u;
    for (unsigned word = 0; word < 2; ++word) {
      const uint32_t p = phys(reg, word);
      uint8_t& scalar = scalarResult_[size_t{w.warpSlot} * 2 * valueRegs_ + p];
      const bool isScalar = scalar != 0;
      scalar = 0;
      if (word == 1 && !wide) continue;
      if (!w.values[i]) {  // an assist-warp result: no values, written uncompressed
        stats_.arrayWrites += 8;
        stats_.crossbarBytes += 4u * static_cast<uint32_t>(std::popcount(mask));
        continue;
      }
      uint32_t lanes[kLanes];
      for (unsigned lane = 0; lane < kLanes; ++lane) lanes[lane] = static_cast<uint32_t>(w.values[i][lane] >> (32 * word));
      if (state_->needsSpecialMove(w.warpSlot, p, mask)) {  // not seen at issue (no record)
        stats_.addCost(state_->specialMove(w.warpSlot, p), false);
        ++stats_.specialMoves;
      }
      if (isScalar && mask != 0) {
        const uint32_t value = lanes[std::countr_zero(mask)];
        if (params_.verify) {
          for (uint32_t m = mask; m != 0; m &= m - 1) {
            if (lanes[std::countr_zero(m)] != value) {
              throw std::runtime_error(fmt::format(
                  "gscalar: SM {} warp slot {}: scalar execution of the instruction at PTX line {} "
                  "produced different lane values",
                  smId_, w.warpSlot, w.instr ? w.instr->line : 0));
            }
          }
        }
        stats_.addCost(state_->writeScalar(w.warpSlot, p, value, mask), false);
      } else {
        stats_.addCost(state_->write(w.warpSlot, p, lanes, mask), false);
        if (wordEnc && mask == kFullMask) ++stats_.compressions;  // the word comparator's use
      }
      const RegisterState::Stored s = state_->stored(w.warpSlot, p);
      stats_.uncompressedBytes += 128;
      stats_.arrayBytes += s.arrayBytes;
      stats_.baseBytes += s.baseBytes;
      stats_.metadataBits += s.metadataBits;
    }
    banks[i] = scalarBank && isScalarRegister(w.warpSlot, reg, wide) ? scalarBank_ : bankOf(w.warpSlot, reg);
  }
  ports_.write(w.tag, w.partition, banks, w.numDst, now + params_.extraWriteCycles);
}

void GScalarRegisterFile::reportStats(nlohmann::json& out) const {
  out["bank_reads"] = ports_.reads();
  out["bank_writes"] = ports_.writes();
  out["bank_conflicts"] = ports_.readConflicts();
  out["conflicted_collectors"] = ports_.conflictedCollectors();
  out["write_conflicts"] = ports_.writeConflicts();
  out["collector_allocations"] = ports_.allocations();
  stats_.report(out);
}

}  // namespace warpsim::mech::gscalar

namespace warpsim::timing {

// Called by the generated registerMechanisms() (src/mech/CMakeLists.txt).
void registerMechanism_gscalar(PluginRegistry& registry) {
  registry.add<IIrPass>(mech::gscalar::kTraitsPass,
                        "G-Scalar: every instruction's static scalar-execution traits, for the gscalar "
                        "register file",
                        [](const IIrPass::Context&) { return mech::gscalar::makeTraitsPass(); });
  registry.add<IRegisterFile>("gscalar",
                              "G-Scalar: byte-wise register compression with generalised scalar execution "
                              "(also BDI and word-level scalar register file comparators)",
                              [](const IRegisterFile::Context& context) {
                                return std::make_unique<mech::gscalar::GScalarRegisterFile>(context);
                              });
}

}  // namespace warpsim::timing
