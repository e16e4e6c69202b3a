#include "runtime/cache_warmer.h"

#include <bit>

#include "func/address_space.h"
#include "timing/gpu.h"

namespace warpsim::runtime {

void CacheWarmer::onExec(const func::ExecRecord& r) {
  if (r.accessBytes != 0 && (r.space == ir::Space::Global || r.space == ir::Space::Generic)) {
    const bool write = r.isStore || r.isAtomic;
    // Neighbouring lanes mostly touch the previous lane's 32-byte sector: warmed once.
    uint64_t lastSector = ~uint64_t{0};
    for (uint32_t m = r.execMask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      const uint64_t a = r.addr[lane];
      if (r.space == ir::Space::Generic && func::genericSpace(a) != ir::Space::Global) continue;
      const uint64_t first = a >> 5, end = (a + r.accessBytes - 1) >> 5;
      if (first == lastSector && end == lastSector) continue;
      lastSector = end;
      gpu_.warm(a, r.accessBytes, write);
    }
  }
  if (next_ != nullptr) next_->onExec(r);
}

}  // namespace warpsim::runtime
