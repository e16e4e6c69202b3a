// The memory hierarchy's baseline implementations of its extension points (registered by
// registerMemoryBaselines; constructed directly by tests).
#pragma once
#include "timing/mem/i_cache_policy.h"
#include "timing/mem/i_local_memory_path.h"
#include "timing/mem/i_memory_compression.h"

namespace warpsim::timing::mem {

// "lru-allocate": allocate on every miss, insert at MRU, pin nothing, prefetch nothing.
class LruAllocatePolicy final : public ICachePolicy {
 public:
  bool bypass(const CacheAccessInfo&) override { return false; }
  InsertPosition insertion(const CacheAccessInfo&) override { return InsertPosition::Mru; }
  PinKind pin(const CacheAccessInfo&) override { return PinKind::None; }
  uint32_t prefetch(const CacheAccessInfo&, uint64_t*, uint32_t) override { return 0; }
};

// "none" compression: one burst per sector.
class NoCompression final : public IMemoryCompression {
 public:
  CompressedTransfer transfer(uint64_t, uint32_t sectors, bool) override;
};

// "none" local path: every local access goes to the L1.
class NoLocalMemoryPath final : public ILocalMemoryPath {
 public:
  Outcome access(const Access&, Cycle) override { return {}; }
};

}  // namespace warpsim::timing::mem
