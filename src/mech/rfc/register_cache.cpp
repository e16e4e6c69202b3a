#include "mech/rfc/register_cache.h"

#include <stdexcept>

namespace warpsim::mech::rfc {

RegisterCache::RegisterCache(uint32_t slots, uint32_t capacityWords, Replacement policy)
    : capacity_(capacityWords), policy_(policy) {
  if (capacityWords == 0 || capacityWords > kMaxEntries) {
    throw std::invalid_argument("register cache: 1 to 16 entries per thread");
  }
  entries_.assign(size_t{slots} * kMaxEntries, CachedRegister{});
  count_.assign(slots, 0);
  words_.assign(slots, 0);
}

CachedRegister* RegisterCache::find(uint32_t slot, uint32_t reg) {
  CachedRegister* e = begin(slot);
  for (uint32_t i = 0; i < count_[slot]; ++i)
    if (e[i].reg == reg) return &e[i];
  return nullptr;
}

const CachedRegister* RegisterCache::find(uint32_t slot, uint32_t reg) const {
  const CachedRegister* e = begin(slot);
  for (uint32_t i = 0; i < count_[slot]; ++i)
    if (e[i].reg == reg) return &e[i];
  return nullptr;
}

void RegisterCache::touch(uint32_t, CachedRegister& entry) {
  if (policy_ == Replacement::Lru) entry.stamp = ++clock_;
}

bool RegisterCache::remove(uint32_t slot, uint32_t reg) {
  const CachedRegister* e = begin(slot);
  for (uint32_t i = 0; i < count_[slot]; ++i) {
    if (e[i].reg == reg) {
      erase(slot, i);
      return true;
    }
  }
  return false;
}

uint32_t RegisterCache::usedWords(uint32_t slot) const { return words_[slot]; }

void RegisterCache::erase(uint32_t slot, uint32_t index) {
  CachedRegister* e = begin(slot);
  words_[slot] = static_cast<uint8_t>(words_[slot] - e[index].words);
  e[index] = e[--count_[slot]];
}

uint32_t RegisterCache::victim(uint32_t slot) const {
  const CachedRegister* e = begin(slot);
  uint32_t best = 0;
  for (uint32_t i = 1; i < count_[slot]; ++i)
    if (e[i].stamp < e[best].stamp) best = i;
  return best;
}

}  // namespace warpsim::mech::rfc
