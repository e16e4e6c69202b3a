#include "cudart/mem_pools.h"

#include <algorithm>

#include "func/device_memory.h"

namespace warpsim::cudart {

GraphAllocation::~GraphAllocation() {
  if (owner != nullptr) owner->forget(*this);
}

MemPools::MemPools(func::DeviceMemory& memory)
    : memory_(&memory), defaultPool_(memory, 0), current_(&defaultPool_) {}

MemPools::~MemPools() {
  // Graph allocations that outlive this (held by graphs destroyed later) no longer report back.
  for (auto& [address, a] : graphAllocations_) a->owner = nullptr;
}

MemPool* MemPools::create(uint64_t maxBytes) {
  created_.push_back(std::make_unique<MemPool>(*memory_, maxBytes));
  return created_.back().get();
}

bool MemPools::isPool(const void* p) const {
  if (p == &defaultPool_) return true;
  return std::any_of(created_.begin(), created_.end(), [&](const auto& q) {
    return q.get() == p &&
           std::find(destroyed_.begin(), destroyed_.end(), q.get()) == destroyed_.end();
  });
}

void MemPools::destroy(MemPool* pool) {
  if (current_ == pool) current_ = &defaultPool_;
  if (pool->liveAllocations() != 0) {
    destroyed_.push_back(pool);
    return;
  }
  created_.erase(std::find_if(created_.begin(), created_.end(),
                              [&](const auto& q) { return q.get() == pool; }));
}

MemPool* MemPools::ownerOf(uint64_t address) {
  if (defaultPool_.owns(address)) return &defaultPool_;
  for (const auto& p : created_) {
    if (p->owns(address)) return p.get();
  }
  return nullptr;
}

bool MemPools::free(uint64_t address) {
  MemPool* pool = ownerOf(address);
  if (pool == nullptr) return false;
  pool->free(address);
  auto gone = std::find(destroyed_.begin(), destroyed_.end(), pool);
  if (gone != destroyed_.end() && pool->liveAllocations() == 0) {
    destroyed_.erase(gone);
    created_.erase(std::find_if(created_.begin(), created_.end(),
                                [&](const auto& q) { return q.get() == pool; }));
  }
  return true;
}

void MemPools::synchronize() {
  defaultPool_.synchronize();
  for (const auto& p : created_) p->synchronize();
}

std::shared_ptr<GraphAllocation> MemPools::allocateForGraph(uint64_t bytes) {
  uint64_t address = memory_->allocate(bytes);
  if (address == 0) return nullptr;
  auto a = std::make_shared<GraphAllocation>();
  a->owner = this;
  a->address = address;
  a->bytes = (std::max<uint64_t>(bytes, 1) + MemPool::kGranularity - 1) &
             ~(MemPool::kGranularity - 1);
  graphAllocations_[address] = a.get();
  graphReserved_ += a->bytes;
  graphReservedHigh_ = std::max(graphReservedHigh_, graphReserved_);
  return a;
}

GraphAllocation* MemPools::graphAllocationAt(uint64_t address) {
  auto it = graphAllocations_.find(address);
  return it == graphAllocations_.end() ? nullptr : it->second;
}

void MemPools::setLive(GraphAllocation& a, bool live) {
  if (a.live == live) return;
  a.live = live;
  if (live) {
    graphUsed_ += a.bytes;
    graphUsedHigh_ = std::max(graphUsedHigh_, graphUsed_);
  } else {
    graphUsed_ -= a.bytes;
  }
}

void MemPools::forget(GraphAllocation& a) {
  setLive(a, false);
  graphReserved_ -= a.bytes;
  graphAllocations_.erase(a.address);
  memory_->release(a.address);
}

}  // namespace warpsim::cudart
