#include "mech/zorua/memory_swap_path.h"

#include <algorithm>
#include <bit>

namespace warpsim::mech::zorua {

namespace {
constexpr uint32_t kLineBytes = 128;           // one warp-register: 32 lanes x 4 bytes
constexpr uint32_t kSetsPerWarp = 64;
constexpr uint32_t kSetBytes = kRegistersPerSet * kLineBytes;
constexpr uint64_t kPoison = 0xDEADBEEFDEADBEEFull;
}  // namespace

uint64_t SwapAddressing::registerSet(uint32_t slot, uint32_t set) const {
  return base + ((uint64_t{smId} * logicalWarps + slot) * kSetsPerWarp + set) * kSetBytes;
}

uint64_t SwapAddressing::scratchpadSet(uint32_t cta, uint32_t set) const {
  const uint64_t registers = uint64_t{numSms} * logicalWarps * kSetsPerWarp * kSetBytes;
  return base + registers + ((uint64_t{smId} * logicalCtas + cta) * kSetsPerWarp + set) * scratchpadSetBytes;
}

uint64_t SwapAddressing::warpState(uint32_t slot) const {
  const uint64_t registers = uint64_t{numSms} * logicalWarps * kSetsPerWarp * kSetBytes;
  const uint64_t shared = uint64_t{numSms} * logicalCtas * kSetsPerWarp * scratchpadSetBytes;
  return base + registers + shared + (uint64_t{smId} * logicalWarps + slot) * warpStateBytes;
}

MemorySwapPath::MemorySwapPath(const SwapAddressing& addressing, bool poison)
    : at_(addressing), poison_(poison) {}

void MemorySwapPath::attach(WarpGate& gate, Coordinator& coordinator) {
  gate_ = &gate;
  coordinator_ = &coordinator;
}

void MemorySwapPath::beginKernel() {
  // Moves of the previous kernel have completed (the SM drains its traffic before it is idle).
  moves_.clear();
  freeMoves_.clear();
  linesLoaded_ = linesStored_ = 0;
}

uint32_t MemorySwapPath::newMove(Kind kind, uint32_t owner, uint32_t generation, uint64_t sets,
                                 uint32_t lines) {
  uint32_t id;
  if (freeMoves_.empty()) {
    id = static_cast<uint32_t>(moves_.size());
    moves_.emplace_back();
  } else {
    id = freeMoves_.back();
    freeMoves_.pop_back();
  }
  moves_[id] = {kind, owner, generation, sets, lines};
  return id;
}

void MemorySwapPath::copyOut(uint32_t slot, uint64_t sets) {
  uint32_t count = 0;
  uint64_t* regs = gate_->warpRegisters(slot, &count);
  if (regs == nullptr) return;
  if (values_.empty()) values_.assign(size_t{at_.logicalWarps} * kSetsPerWarp * kRegistersPerSet * 32, 0);
  for (uint64_t m = sets; m != 0; m &= m - 1) {
    const auto set = static_cast<uint32_t>(std::countr_zero(m));
    for (uint32_t k = 0; k < kRegistersPerSet; ++k) {
      const uint32_t reg = set * kRegistersPerSet + k;
      if (reg >= count) break;
      uint64_t* lanes = regs + size_t{reg} * 32;
      uint64_t* saved = &values_[((size_t{slot} * kSetsPerWarp + set) * kRegistersPerSet + k) * 32];
      std::copy_n(lanes, 32, saved);
      if (poison_) std::fill_n(lanes, 32, kPoison);
    }
  }
}

void MemorySwapPath::copyIn(uint32_t slot, uint64_t sets) {
  uint32_t count = 0;
  uint64_t* regs = gate_->warpRegisters(slot, &count);
  if (regs == nullptr || values_.empty()) return;
  for (uint64_t m = sets; m != 0; m &= m - 1) {
    const auto set = static_cast<uint32_t>(std::countr_zero(m));
    for (uint32_t k = 0; k < kRegistersPerSet; ++k) {
      const uint32_t reg = set * kRegistersPerSet + k;
      if (reg >= count) break;
      const uint64_t* saved = &values_[((size_t{slot} * kSetsPerWarp + set) * kRegistersPerSet + k) * 32];
      std::copy_n(saved, 32, regs + size_t{reg} * 32);
    }
  }
}

void MemorySwapPath::spillRegisters(uint32_t slot, uint64_t sets, Cycle now) {
  (void)now;
  copyOut(slot, sets);
  const auto n = static_cast<uint32_t>(std::popcount(sets)) * kRegistersPerSet;
  const uint32_t id = newMove(Kind::Spill, slot, 0, sets, n);
  for (uint64_t m = sets; m != 0; m &= m - 1) {
    const auto set = static_cast<uint32_t>(std::countr_zero(m));
    for (uint32_t k = 0; k < kRegistersPerSet; ++k)
      gate_->moveData(at_.registerSet(slot, set) + k * kLineBytes, true, id);
  }
  linesStored_ += n;
}

void MemorySwapPath::fillRegisters(uint32_t slot, uint64_t sets, Cycle now) {
  (void)now;
  const auto n = static_cast<uint32_t>(std::popcount(sets)) * kRegistersPerSet;
  const uint32_t id = newMove(Kind::RegisterFill, slot, coordinator_->warpGeneration(slot), sets, n);
  for (uint64_t m = sets; m != 0; m &= m - 1) {
    const auto set = static_cast<uint32_t>(std::countr_zero(m));
    for (uint32_t k = 0; k < kRegistersPerSet; ++k)
      gate_->moveData(at_.registerSet(slot, set) + k * kLineBytes, false, id);
  }
  linesLoaded_ += n;
}

void MemorySwapPath::spillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) {
  (void)now;
  const uint32_t lines = at_.scratchpadSetBytes / kLineBytes;
  const uint32_t id = newMove(Kind::Spill, cta, 0, 0, count * lines);
  for (uint32_t s = first; s < first + count; ++s)
    for (uint32_t l = 0; l < lines; ++l) gate_->moveData(at_.scratchpadSet(cta, s) + l * kLineBytes, true, id);
  linesStored_ += uint64_t{count} * lines;
}

void MemorySwapPath::fillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle now) {
  const uint32_t lines = at_.scratchpadSetBytes / kLineBytes;
  const uint32_t id = newMove(Kind::SharedFill, cta, coordinator_->ctaGeneration(cta), 0, count * lines);
  for (uint32_t s = first; s < first + count; ++s)
    for (uint32_t l = 0; l < lines; ++l) gate_->moveData(at_.scratchpadSet(cta, s) + l * kLineBytes, false, id);
  linesLoaded_ += uint64_t{count} * lines;
  if (count == 0) moved(id, now);
}

void MemorySwapPath::saveWarp(uint32_t slot, Cycle now) {
  (void)now;
  const uint32_t lines = std::max(at_.warpStateBytes / kLineBytes, 1u);
  const uint32_t id = newMove(Kind::Spill, slot, 0, 0, lines);
  for (uint32_t l = 0; l < lines; ++l) gate_->moveData(at_.warpState(slot) + l * kLineBytes, true, id);
  linesStored_ += lines;
}

void MemorySwapPath::restoreWarp(uint32_t slot, Cycle now) {
  (void)now;
  const uint32_t lines = std::max(at_.warpStateBytes / kLineBytes, 1u);
  const uint32_t id = newMove(Kind::Restore, slot, coordinator_->warpGeneration(slot), 0, lines);
  for (uint32_t l = 0; l < lines; ++l) gate_->moveData(at_.warpState(slot) + l * kLineBytes, false, id);
  linesLoaded_ += lines;
}

void MemorySwapPath::moved(uint32_t tag, Cycle now) {
  Move& m = moves_[tag];
  if (m.remaining > 1) {
    --m.remaining;
    return;
  }
  const Move done = m;
  freeMoves_.push_back(tag);
  switch (done.kind) {
    case Kind::Spill: break;
    case Kind::RegisterFill:
      if (coordinator_->warpGeneration(done.owner) != done.generation) break;
      copyIn(done.owner, done.sets);
      coordinator_->registersFilled(done.owner, done.sets, now);
      break;
    case Kind::SharedFill:
      if (coordinator_->ctaGeneration(done.owner) == done.generation) coordinator_->sharedFilled(done.owner, now);
      break;
    case Kind::Restore:
      if (coordinator_->warpGeneration(done.owner) == done.generation) coordinator_->warpRestored(done.owner, now);
      break;
  }
}

}  // namespace warpsim::mech::zorua
