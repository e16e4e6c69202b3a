#include "func/allocation_layout.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace warpsim::func {
namespace {

uint64_t alignUp(uint64_t x, uint64_t align) { return (x + align - 1) & ~(align - 1); }

}  // namespace

AllocationLayout::AllocationLayout(uint64_t base) { relocate(base); }

bool AllocationLayout::relocate(uint64_t base) {
  if (!allocs_.empty()) return false;
  base_ = alignUp(base, kChunkBytes);
  chunks_.clear();
  addChunk(base_, base_ + kDriverBytes);
  next_ = base_ + kDriverBytes;
  openStart_ = openNext_ = 0;
  return true;
}

void AllocationLayout::addChunk(uint64_t start, uint64_t end) {
  // Chunks are created at ever higher addresses: appending keeps the vector sorted.
  chunks_.push_back({start, end, 0});
}

void AllocationLayout::unmap(Chunk* c, Chunk* unmapped) {
  *unmapped = *c;
  chunks_.erase(chunks_.begin() + (c - chunks_.data()));
}

uint64_t AllocationLayout::place(uint64_t bytes, uint64_t align, Chunk* unmapped) {
  *unmapped = Chunk{};
  if (align == 0 || (align & (align - 1)) != 0)
    throw std::invalid_argument(fmt::format("device allocation alignment {} is not a power of two", align));
  align = std::max(align, kMinAlign);
  const uint64_t rounded = alignUp(std::max<uint64_t>(bytes, 1), kMinAlign);
  uint64_t addr = 0;
  if (rounded < kChunkBytes && align < kChunkBytes) {
    // Small: packed into the open chunk, or into a new one when it does not fit.
    if (openStart_ != 0 && alignUp(openNext_, align) + rounded <= openStart_ + kChunkBytes) {
      addr = alignUp(openNext_, align);
    } else {
      // The chunk being closed goes when nothing lives in it any more.
      if (Chunk* old = openStart_ != 0 ? chunkAt(openStart_) : nullptr; old && old->live == 0) unmap(old, unmapped);
      addChunk(next_, next_ + kChunkBytes);
      openStart_ = addr = next_;
      next_ += kChunkBytes;
    }
    openNext_ = addr + rounded;
  } else {
    // Large: chunks of its own.
    addr = alignUp(next_, std::max(align, kChunkBytes));
    addChunk(addr, addr + alignUp(rounded, kChunkBytes));
    next_ = addr + alignUp(rounded, kChunkBytes);
  }
  chunkAt(addr)->live++;
  auto it = std::lower_bound(allocs_.begin(), allocs_.end(), addr,
                             [](const Allocation& a, uint64_t x) { return a.base < x; });
  allocs_.insert(it, {addr, std::max<uint64_t>(bytes, 1)});
  return addr;
}

bool AllocationLayout::remove(uint64_t addr, Allocation* removed, Chunk* unmapped) {
  *unmapped = Chunk{};
  auto it = std::lower_bound(allocs_.begin(), allocs_.end(), addr,
                             [](const Allocation& a, uint64_t x) { return a.base < x; });
  if (it == allocs_.end() || it->base != addr) return false;
  *removed = *it;
  allocs_.erase(it);
  Chunk* c = chunkAt(addr);
  if (--c->live == 0 && c->start != openStart_ && c->start != base_) unmap(c, unmapped);
  return true;
}

const AllocationLayout::Chunk* AllocationLayout::chunkAt(uint64_t addr) const {
  auto it = std::upper_bound(chunks_.begin(), chunks_.end(), addr,
                             [](uint64_t x, const Chunk& c) { return x < c.start; });
  if (it == chunks_.begin()) return nullptr;
  const Chunk& c = *std::prev(it);
  return addr < c.end ? &c : nullptr;
}

AllocationLayout::Chunk* AllocationLayout::chunkAt(uint64_t addr) {
  return const_cast<Chunk*>(static_cast<const AllocationLayout*>(this)->chunkAt(addr));
}

bool AllocationLayout::isMapped(uint64_t addr, uint64_t n) const {
  if (n == 0) n = 1;
  if (addr + n < addr) return false;
  uint64_t at = addr;
  // Walk touching chunks until the range is covered (an access rarely spans more than one).
  while (const Chunk* c = chunkAt(at)) {
    if (addr + n <= c->end) return true;
    at = c->end;
  }
  return false;
}

const AllocationLayout::Allocation* AllocationLayout::allocationOf(uint64_t addr, uint64_t n) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t x, const Allocation& a) { return x < a.base; });
  if (it == allocs_.begin()) return nullptr;
  const Allocation& a = *std::prev(it);
  return a.contains(addr, n) ? &a : nullptr;
}

void AllocationLayout::neighbours(uint64_t addr, const Allocation** below, const Allocation** above) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t x, const Allocation& a) { return x < a.base; });
  *above = it != allocs_.end() ? &*it : nullptr;
  *below = it != allocs_.begin() ? &*std::prev(it) : nullptr;
}

}  // namespace warpsim::func
