#include "timing/mem/page_placements.h"

#include <stdexcept>

namespace warpsim::timing::mem {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t RandomPagePlacement::frameFor(uint64_t, uint64_t) {
  const uint64_t f = pool_.nextFree(splitmix64(state_) % pool_.frames());
  if (f == FramePool::kNone) throw std::runtime_error("page placement: no free frame left");
  pool_.take(f);
  return f;
}

}  // namespace warpsim::timing::mem
