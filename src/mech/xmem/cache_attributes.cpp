#include "mech/xmem/cache_attributes.h"

namespace warpsim::mech::xmem {

uint32_t lineHash(uint64_t line) {
  // splitmix64's finaliser: every address bit reaches the 16 bits taken.
  uint64_t z = line + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<uint32_t>(z >> 48);
}

}  // namespace warpsim::mech::xmem
