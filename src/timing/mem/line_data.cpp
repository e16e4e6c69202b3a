#include "timing/mem/line_data.h"

#include <algorithm>
#include <cstring>

#include "func/device_memory.h"

namespace warpsim::timing::mem {

void readLineData(const func::DeviceMemory& memory, uint64_t addr, uint32_t bytes, uint8_t* out) {
  std::memset(out, 0, bytes);
  const auto& allocs = memory.allocations();  // sorted by base, disjoint
  const uint64_t end = addr + bytes;
  auto it = std::upper_bound(
      allocs.begin(), allocs.end(), addr,
      [](uint64_t a, const func::DeviceMemory::Allocation& x) { return a < x.base; });
  if (it != allocs.begin()) --it;
  for (; it != allocs.end() && it->base < end; ++it) {
    const uint64_t lo = std::max(addr, it->base);
    const uint64_t hi = std::min(end, it->base + it->size);
    if (lo < hi) memory.read(lo, out + (lo - addr), hi - lo);
  }
}

}  // namespace warpsim::timing::mem
