#include "cudart/mem_pool.h"

#include <algorithm>

#include "func/device_memory.h"

namespace warpsim::cudart {

MemPool::MemPool(func::DeviceMemory& memory, uint64_t maxBytes)
    : memory_(&memory), maxBytes_(maxBytes) {}

MemPool::~MemPool() {
  for (const Chunk& c : chunks_) memory_->release(c.base);
}

uint64_t MemPool::takeFrom(Chunk& c, uint64_t bytes) {
  for (auto it = c.free.begin(); it != c.free.end(); ++it) {
    if (it->second < bytes) continue;
    uint64_t address = it->first, left = it->second - bytes;
    c.free.erase(it);
    if (left != 0) c.free.emplace(address + bytes, left);
    return address;
  }
  return 0;
}

uint64_t MemPool::allocate(uint64_t bytes) {
  const uint64_t rounded = (std::max<uint64_t>(bytes, 1) + kGranularity - 1) & ~(kGranularity - 1);
  if (rounded < bytes) return 0;
  uint64_t address = 0;
  for (Chunk& c : chunks_) {
    if ((address = takeFrom(c, rounded)) != 0) break;
  }
  if (address == 0) {
    const uint64_t chunk = (rounded + kChunkBytes - 1) & ~(kChunkBytes - 1);
    if (maxBytes_ != 0 && reserved_ + chunk > maxBytes_) return 0;
    const uint64_t base = memory_->allocate(chunk, kGranularity);
    if (base == 0) return 0;
    Chunk& c = chunks_.emplace_back();
    c.base = base;
    c.bytes = chunk;
    c.free.emplace(base, chunk);
    reserved_ += chunk;
    reservedHigh_ = std::max(reservedHigh_, reserved_);
    address = takeFrom(c, rounded);
  }
  live_.emplace(address, rounded);
  used_ += rounded;
  usedHigh_ = std::max(usedHigh_, used_);
  return address;
}

bool MemPool::free(uint64_t address) {
  auto piece = live_.find(address);
  if (piece == live_.end()) return false;
  uint64_t start = address, bytes = piece->second;
  used_ -= bytes;
  live_.erase(piece);
  auto c = std::find_if(chunks_.begin(), chunks_.end(), [&](const Chunk& k) {
    return address >= k.base && address - k.base < k.bytes;
  });
  // Coalesce with the free neighbours on both sides.
  auto next = c->free.lower_bound(start);
  if (next != c->free.end() && next->first == start + bytes) {
    bytes += next->second;
    next = c->free.erase(next);
  }
  if (next != c->free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      bytes += prev->second;
      c->free.erase(prev);
    }
  }
  c->free.emplace(start, bytes);
  return true;
}

void MemPool::releaseAbove(uint64_t keep) {
  for (size_t i = chunks_.size(); i-- > 0 && reserved_ > keep;) {
    Chunk& c = chunks_[i];
    bool empty = c.free.size() == 1 && c.free.begin()->second == c.bytes;
    if (!empty || reserved_ - c.bytes < keep) continue;
    memory_->release(c.base);
    reserved_ -= c.bytes;
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace warpsim::cudart
