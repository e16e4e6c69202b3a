#include "timing/sm/scoreboard.h"

#include <algorithm>

namespace warpsim::timing {

namespace {

inline bool testPlane(const uint64_t* words, uint32_t reg, unsigned plane) {
  return (words[(reg >> 6) * 3 + plane] >> (reg & 63)) & 1;
}

inline void setPlane(uint64_t* words, uint32_t reg, unsigned plane) {
  words[(reg >> 6) * 3 + plane] |= uint64_t{1} << (reg & 63);
}

inline void clearAll(uint64_t* words, uint32_t reg) {
  const uint64_t m = ~(uint64_t{1} << (reg & 63));
  uint64_t* w = &words[(reg >> 6) * 3];
  w[0] &= m;
  w[1] &= m;
  w[2] &= m;
}

}  // namespace

void Scoreboard::resize(uint32_t slots, uint32_t regs, uint32_t preds) {
  regWords_ = (std::max<uint32_t>(regs, 1) + 63) / 64;
  predWords_ = (std::max<uint32_t>(preds, 1) + 63) / 64;
  regs_.assign(size_t{slots} * regWords_ * 3, 0);
  preds_.assign(size_t{slots} * predWords_ * 3, 0);
  pending_.assign(slots, 0);
  pendingMem_.assign(slots, 0);
}

void Scoreboard::clearSlot(uint32_t slot) {
  std::fill_n(regWords(slot), regWords_ * 3, 0);
  std::fill_n(predWords(slot), predWords_ * 3, 0);
  pending_[slot] = pendingMem_[slot] = 0;
}

Stall Scoreboard::check(uint32_t slot, const DecodedInstr& d, bool* longLatency) const {
  if (pending_[slot] == 0) return Stall::Issued;
  const uint64_t* r = regWords(slot);
  const uint64_t* p = predWords(slot);
  bool hazard = false, mem = false, lng = false;
  auto look = [&](const uint64_t* w, uint32_t reg) {
    if (!testPlane(w, reg, kPending)) return;
    hazard = true;
    mem = mem || testPlane(w, reg, kMem);
    lng = lng || testPlane(w, reg, kLong);
  };
  for (unsigned i = 0; i < d.numSrc; ++i) look(r, d.src[i]);
  for (unsigned i = 0; i < d.numDst; ++i) look(r, d.dst[i]);
  for (unsigned i = 0; i < d.numPredSrc; ++i) look(p, d.predSrc[i]);
  for (unsigned i = 0; i < d.numPredDst; ++i) look(p, d.predDst[i]);
  if (longLatency) *longLatency = lng;
  if (!hazard) return Stall::Issued;
  return mem ? Stall::Memory : Stall::Scoreboard;
}

void Scoreboard::reserve(uint32_t slot, const DecodedInstr& d) {
  uint64_t* r = regWords(slot);
  uint64_t* p = predWords(slot);
  const bool mem = d.has(DecodedInstr::kMemory);
  const bool lng = d.has(DecodedInstr::kLongLatency);
  auto mark = [&](uint64_t* w, uint32_t reg) {
    setPlane(w, reg, kPending);
    if (mem) setPlane(w, reg, kMem);
    if (lng) setPlane(w, reg, kLong);
  };
  for (unsigned i = 0; i < d.numDst; ++i) mark(r, d.dst[i]);
  for (unsigned i = 0; i < d.numPredDst; ++i) mark(p, d.predDst[i]);
  const uint32_t n = d.numDst + d.numPredDst;
  pending_[slot] += n;
  if (mem) pendingMem_[slot] += n;
}

void Scoreboard::release(uint32_t slot, const DecodedInstr& d) {
  uint64_t* r = regWords(slot);
  uint64_t* p = predWords(slot);
  for (unsigned i = 0; i < d.numDst; ++i) clearAll(r, d.dst[i]);
  for (unsigned i = 0; i < d.numPredDst; ++i) clearAll(p, d.predDst[i]);
  const uint32_t n = d.numDst + d.numPredDst;
  pending_[slot] -= n;
  if (d.has(DecodedInstr::kMemory)) pendingMem_[slot] -= n;
}

bool Scoreboard::firstHazard(uint32_t slot, const DecodedInstr& d, uint32_t* reg, bool* isPred,
                             bool* memory) const {
  const uint64_t* r = regWords(slot);
  const uint64_t* p = predWords(slot);
  auto hit = [&](const uint64_t* w, uint32_t x, bool pred) {
    if (!testPlane(w, x, kPending)) return false;
    *reg = x;
    *isPred = pred;
    *memory = testPlane(w, x, kMem);
    return true;
  };
  for (unsigned i = 0; i < d.numSrc; ++i) if (hit(r, d.src[i], false)) return true;
  for (unsigned i = 0; i < d.numDst; ++i) if (hit(r, d.dst[i], false)) return true;
  for (unsigned i = 0; i < d.numPredSrc; ++i) if (hit(p, d.predSrc[i], true)) return true;
  for (unsigned i = 0; i < d.numPredDst; ++i) if (hit(p, d.predDst[i], true)) return true;
  return false;
}

}  // namespace warpsim::timing
