// Front end: instruction fetch through the instruction cache into the per-warp instruction
// buffers. Each scheduler fetches for one of its warps per cycle (round robin among those with
// room in their buffer); one fetch fills the free entries with consecutive instructions of the
// same cache line. An instruction fetched in cycle t can issue in t + decode_latency, or that
// long after its line arrives on a miss. After a control-flow instruction, or any instruction
// after which the warp does not continue at the next pc (reconvergence), the buffer is emptied
// and refilled from the warp's new pc in a later cycle.
#include <bit>

#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

void Sm::Impl::updateFetchNeed(uint32_t slot) {
  const WarpSlot& w = slots[slot];
  const bool need = w.live && !w.exited && w.ibCount < params.ibufferEntries && w.fetchPc < decoded.size(w.fn);
  const uint64_t bit = uint64_t{1} << slot;
  needFetch = need ? (needFetch | bit) : (needFetch & ~bit);
}

void Sm::Impl::flushIbuffer(WarpSlot& w) {
  w.ibCount = 0;
  w.ibHead = 0;
  w.fn = w.warp->function();
  w.fetchPc = w.warp->pc();
}

void Sm::Impl::fetch(Cycle now) {
  for (uint32_t s = 0; s < params.schedulers; ++s) {
    const uint64_t mask = needFetch & schedulerMask[s];
    if (mask == 0) continue;
    // Round robin: the first candidate at or after fetchNext[s], wrapping around.
    const uint64_t after = fetchNext[s] >= 64 ? 0 : mask & (~uint64_t{0} << fetchNext[s]);
    const auto slot = static_cast<uint32_t>(std::countr_zero(after != 0 ? after : mask));
    fetchWarp(slot, now);
    fetchNext[s] = slot + 1;
  }
}

void Sm::Impl::fetchWarp(uint32_t slot, Cycle now) {
  WarpSlot& w = slots[slot];
  const uint32_t size = decoded.size(w.fn);
  const uint64_t base = decoded.base(w.fn);
  const uint32_t bytes = params.instructionBytes;
  uint64_t addr = base + uint64_t{w.fetchPc} * bytes;
  const Cycle ready = icache.access(addr, now) + params.decodeLatency;
  const uint64_t lineEnd = (addr / icache.lineBytes() + 1) * icache.lineBytes();
  while (w.ibCount < params.ibufferEntries && w.fetchPc < size && addr < lineEnd) {
    uint32_t tail = w.ibHead + w.ibCount;
    if (tail >= kMaxIbuffer) tail -= kMaxIbuffer;
    w.ibPc[tail] = w.fetchPc;
    w.ibReady[tail] = ready;
    ++w.ibCount;
    ++w.fetchPc;
    addr += bytes;
  }
  updateFetchNeed(slot);
  blocked &= ~(uint64_t{1} << slot);
  progress = true;
}

}  // namespace warpsim::timing
