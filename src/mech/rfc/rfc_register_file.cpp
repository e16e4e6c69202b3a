#include "mech/rfc/rfc_register_file.h"

#include <bit>

#include <nlohmann/json.hpp>

#include "timing/plugin_registry.h"

namespace warpsim::mech::rfc {

using timing::Cycle;
using timing::RegisterRead;
using timing::RegisterWrite;
using timing::UnitClass;

namespace {

constexpr uint32_t kFullMask = 0xFFFFFFFFu;
constexpr unsigned kLanes = 32;  // lane words a whole-register write-back moves

// The ALUs (integer, fp32, fp64) sit beside a lane's upper-level banks; SFU, load/store and
// tensor units are the shared datapath, reached over the operand routing (and never the LRF).
bool sharedDatapath(UnitClass u) { return u != UnitClass::Alu && u != UnitClass::Fp64; }

bool isFrameChange(const func::ExecRecord* r) {
  return r != nullptr && (r->instr->op == ir::Op::Call || r->instr->op == ir::Op::Ret);
}
bool isControl(const func::ExecRecord* r) {
  if (r == nullptr) return false;
  const ir::Op op = r->instr->op;
  return op == ir::Op::Bra || op == ir::Op::Call || op == ir::Op::Ret || op == ir::Op::Exit;
}

}  // namespace

RfcRegisterFile::RfcRegisterFile(const Context& context)
    : params_(readRfcParams(context.section, context.partitions)),
      slots_(context.warpSlots),
      partitions_(context.partitions),
      ports_(context.partitions, params_.geometry.banksPer, params_.geometry.collectorsPer,
             params_.geometry.readPorts, params_.geometry.writePorts),
      rfc_(context.warpSlots, params_.entries, params_.policy),
      lrf_(context.warpSlots, 1, Replacement::Fifo) {
  ports_.shareBanks(context.storageBanks);
  if (params_.liveness && context.passes) context.passes->require(timing::kLastReads);
  done_.reserve(256);
  beginKernel({1, nullptr});
}

void RfcRegisterFile::beginKernel(const KernelInfo& kernel) {
  regs_ = kernel.valueRegisters == 0 ? 1 : kernel.valueRegisters;
  stale_.assign(size_t{slots_} * regs_, 0);
  for (uint32_t s = 0; s < slots_; ++s) drop(s);
  ports_.reset();
  done_.clear();
  doneHead_ = 0;
  lastReads_ = params_.liveness && kernel.annotations
                   ? kernel.annotations->find<timing::LastReads>(timing::kLastReads)
                   : nullptr;
  stats_ = RfcStats{};
  usage_.resize(slots_, regs_);
}

uint32_t RfcRegisterFile::allocate(const RegisterRead& r, Cycle now) {
  const bool shared = sharedDatapath(r.unit);
  const uint32_t slot = r.warpSlot;
  uint8_t dead = 0;
  if (lastReads_ && r.record) dead = lastReads_->at(r.record->function, r.record->pc).deadAfter;
  uint8_t banks[timing::BankPorts::kMaxReads];
  unsigned fromMrf = 0;
  for (unsigned i = 0; i < r.numSrc; ++i) {
    const uint32_t reg = r.srcRegs[i];
    const uint8_t words = static_cast<uint8_t>((r.wideMask >> i & 1u) + 1);
    const bool lastRead = (dead >> i & 1u) != 0;
    if (CachedRegister* e = lrf_.find(slot, reg); e && shared) {
      // The shared datapath cannot reach the LRF: the value moves to the RFC first.
      ++stats_.sharedFromLrf;
      const CachedRegister moved = *e;
      lrf_.remove(slot, reg);
      retireLrfEntry(slot, r.partition, moved, false, now);
    }
    if (CachedRegister* e = lrf_.find(slot, reg)) {
      stats_.lrf.read(words, shared);
      e->dead = e->dead || lastRead;
      continue;
    }
    if (CachedRegister* e = rfc_.find(slot, reg)) {
      stats_.rfc.read(words, shared);
      rfc_.touch(slot, *e);
      e->dead = e->dead || lastRead;
      continue;
    }
    stats_.mrf.read(words, shared);
    if (stale(slot, reg)) ++stats_.invalidReads;
    banks[fromMrf++] = bankOf(slot, reg);
    if (params_.readsAllocate && !lastRead) {
      insertRfc(slot, r.partition, reg, words, false, now);
      stats_.rfc.fillWrites += words;
      stats_.rfc.arrayWrites += 8 * words;
    }
  }
  if (r.record) {
    usage_.instruction(slot, r.srcRegs, r.numSrc, r.record->dstRegs, r.record->numDstRegs);
    ++stats_.instructions;
    ++stats_.mrfOperandHistogram[fromMrf < 3 ? fromMrf : 3];
  }
  if (isFrameChange(r.record)) flush(slot, now);
  const Cycle extra = isControl(r.record) ? params_.tagStageCycles : 0;
  return ports_.allocate(r.partition, banks, fromMrf, extra);
}

void RfcRegisterFile::write(const RegisterWrite& w, Cycle now) {
  const uint32_t slot = w.warpSlot;
  const bool shared = sharedDatapath(w.unit);
  uint8_t banks[timing::BankPorts::kMaxWrites];
  unsigned toMrf = 0;
  for (unsigned i = 0; i < w.numDst; ++i) {
    const uint32_t reg = w.dstRegs[i];
    const uint8_t words = static_cast<uint8_t>((w.wideMask >> i & 1u) + 1);
    const bool resident = lrf_.find(slot, reg) != nullptr || rfc_.find(slot, reg) != nullptr;
    const bool bypass = w.longLatency && params_.bypassLongLatency;
    const bool partial = w.activeMask != kFullMask;
    if (bypass || (partial && !resident)) {
      // Straight to the MRF; an older cached copy is superseded.
      lrf_.remove(slot, reg);
      rfc_.remove(slot, reg);
      stats_.mrf.result(words, w.activeMask, shared);
      setStale(slot, reg, false);
      banks[toMrf++] = bankOf(slot, reg);
      ++(bypass ? stats_.bypassedWrites : stats_.partialWriteArounds);
      continue;
    }
    // A partial write merges into the cached copy where it is; a full one replaces it. Either
    // way the value is new: it takes the newest place in replacement order.
    const bool intoLrf = partial ? lrf_.find(slot, reg) != nullptr : params_.lrf && !shared && words == 1;
    if (intoLrf) {
      rfc_.remove(slot, reg);
      stats_.lrf.result(words, w.activeMask, shared);
      lrf_.insert(slot, reg, words, true,
                  [&](const CachedRegister& out) { retireLrfEntry(slot, w.partition, out, false, now); });
    } else {
      lrf_.remove(slot, reg);
      stats_.rfc.result(words, w.activeMask, shared);
      insertRfc(slot, w.partition, reg, words, true, now);
    }
  }
  if (toMrf > 0) {
    ports_.write(w.tag, w.partition, banks, toMrf, now);
  } else {
    done_.push_back(w.tag);
  }
}

bool RfcRegisterFile::popWritten(uint32_t& tag) {
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

Cycle RfcRegisterFile::nextEvent(Cycle now) const {
  return doneHead_ < done_.size() ? now : ports_.nextEvent(now);
}

void RfcRegisterFile::insertRfc(uint32_t slot, uint32_t partition, uint32_t reg, uint8_t words, bool dirty,
                                Cycle now) {
  rfc_.insert(slot, reg, words, dirty, [&](const CachedRegister& out) {
    ++stats_.evictions;
    retireRfcEntry(slot, partition, out, now);
  });
}

void RfcRegisterFile::retireRfcEntry(uint32_t slot, uint32_t partition, const CachedRegister& e, Cycle now) {
  if (!e.dirty) return;
  if (e.dead) {
    ++stats_.deadDrops;
    setStale(slot, e.reg, true);
    return;
  }
  stats_.rfc.writebackReads += e.words;
  stats_.rfc.arrayReads += 8 * e.words;
  mrfWriteback(slot, partition, e.reg, e.words, now);
}

void RfcRegisterFile::retireLrfEntry(uint32_t slot, uint32_t partition, const CachedRegister& e, bool toMrf,
                                     Cycle now) {
  if (!e.dirty) return;
  if (e.dead) {
    ++stats_.deadDrops;
    setStale(slot, e.reg, true);
    return;
  }
  stats_.lrf.writebackReads += e.words;
  stats_.lrf.arrayReads += 8 * e.words;
  if (toMrf) {
    mrfWriteback(slot, partition, e.reg, e.words, now);
    return;
  }
  stats_.rfc.fillWrites += e.words;
  stats_.rfc.arrayWrites += 8 * e.words;
  insertRfc(slot, partition, e.reg, e.words, true, now);
}

void RfcRegisterFile::mrfWriteback(uint32_t slot, uint32_t partition, uint32_t reg, uint8_t words, Cycle now) {
  stats_.mrf.writebackWrites += words;
  stats_.mrf.arrayWrites += 8 * words;
  stats_.mrf.wirePrivate += kLanes * words;
  setStale(slot, reg, false);
  const uint8_t bank = bankOf(slot, reg);
  ports_.write(0, partition, &bank, 1, now, /*silent=*/true);
}

void RfcRegisterFile::flush(uint32_t slot, Cycle now) {
  const uint32_t partition = partitionOf(slot);
  ++stats_.flushes;
  lrf_.drain(slot, [&](const CachedRegister& e) {
    ++stats_.flushedEntries;
    retireLrfEntry(slot, partition, e, true, now);
  });
  rfc_.drain(slot, [&](const CachedRegister& e) {
    ++stats_.flushedEntries;
    retireRfcEntry(slot, partition, e, now);
  });
}

void RfcRegisterFile::onWarpExit(uint32_t slot) {
  usage_.endWarp(slot);
  drop(slot);
}

void RfcRegisterFile::drop(uint32_t slot) {
  lrf_.drain(slot, [](const CachedRegister&) {});
  rfc_.drain(slot, [](const CachedRegister&) {});
  if (!stale_.empty()) std::fill_n(stale_.begin() + static_cast<std::ptrdiff_t>(size_t{slot} * regs_), regs_, 0);
}

void RfcRegisterFile::reportStats(nlohmann::json& out) const {
  // The baseline's names, for the MRF (its energy keys price them).
  out["bank_reads"] = ports_.reads();
  out["bank_writes"] = ports_.writes();
  out["bank_conflicts"] = ports_.readConflicts();
  out["conflicted_collectors"] = ports_.conflictedCollectors();
  out["write_conflicts"] = ports_.writeConflicts();
  out["collector_allocations"] = ports_.allocations();
  out["array_reads"] = stats_.mrf.arrayReads;
  out["array_writes"] = stats_.mrf.arrayWrites;
  out["crossbar_bytes"] = 4 * (stats_.mrf.wirePrivate + stats_.mrf.wireShared);
  stats_.report(out["hierarchy"]);
  usage_.report(out["hierarchy"]["value_usage"]);
}

}  // namespace warpsim::mech::rfc

namespace warpsim::timing {

// Called by the generated registerMechanisms() (src/mech/CMakeLists.txt).
void registerMechanism_rfc(PluginRegistry& registry) {
  registry.add<IRegisterFile>("rfc",
                              "hardware register file cache (FIFO/LRU, liveness hints, long-latency "
                              "bypass, optional hardware LRF) over the banked main register file",
                              [](const IRegisterFile::Context& context) {
                                return std::make_unique<mech::rfc::RfcRegisterFile>(context);
                              });
}

}  // namespace warpsim::timing
