#include "sweep/point_id.h"

#include <fmt/format.h>

namespace warpsim::sweep {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string pointId(const std::vector<std::string>& argv, std::string_view version) {
  const std::string_view nul("\0", 1);
  uint64_t hash = fnv1a64(nul, fnv1a64(version));
  for (const std::string& a : argv) hash = fnv1a64(nul, fnv1a64(a, hash));
  return fmt::format("{:016x}", hash);
}

}  // namespace warpsim::sweep
