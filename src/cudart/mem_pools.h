// The memory pools of the one device (the default pool, the current pool, pools the program
// created) and the graph allocations (memory allocation nodes), with the lookups cudaFree,
// cudaFreeAsync and the synchronisation calls need.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cudart/mem_pool.h"

namespace warpsim::cudart {

class MemPools;

// The memory of one memory-allocation node: made when the node is created, at an address that
// stays fixed while any graph or executable graph holds the node, and returned to the device
// when the last of them goes. `live` says whether it is allocated in stream order (between the
// allocation node's execution and the free).
struct GraphAllocation {
  MemPools* owner = nullptr;
  uint64_t address = 0, bytes = 0;
  bool live = false;
  ~GraphAllocation();
};

class MemPools {
 public:
  explicit MemPools(func::DeviceMemory& memory);
  ~MemPools();

  MemPool* defaultPool() { return &defaultPool_; }
  MemPool* current() { return current_; }
  void setCurrent(MemPool* pool) { current_ = pool; }
  MemPool* create(uint64_t maxBytes);
  bool isPool(const void* p) const;
  // Destroys a pool the program created: at once, or when its last allocation is freed. The
  // device's current pool falls back to the default pool.
  void destroy(MemPool* pool);
  // The pool holding a live piece at `address`, or nullptr.
  MemPool* ownerOf(uint64_t address);
  // Frees a pool piece (and a destroyed pool with it, once empty); false when `address` is none.
  bool free(uint64_t address);
  // A synchronisation: every pool releases memory above its threshold.
  void synchronize();

  // Graph allocations.
  std::shared_ptr<GraphAllocation> allocateForGraph(uint64_t bytes);
  GraphAllocation* graphAllocationAt(uint64_t address);
  void setLive(GraphAllocation& a, bool live);
  // cudaDeviceGetGraphMemAttribute: bytes allocated in stream order (used) and held by graphs
  // (reserved), with their high watermarks.
  uint64_t graphUsed() const { return graphUsed_; }
  uint64_t graphReserved() const { return graphReserved_; }
  uint64_t graphUsedHigh() const { return graphUsedHigh_; }
  uint64_t graphReservedHigh() const { return graphReservedHigh_; }
  void resetGraphUsedHigh() { graphUsedHigh_ = graphUsed_; }
  void resetGraphReservedHigh() { graphReservedHigh_ = graphReserved_; }

 private:
  friend struct GraphAllocation;
  void forget(GraphAllocation& a);

  func::DeviceMemory* memory_;
  MemPool defaultPool_;
  MemPool* current_;
  std::vector<std::unique_ptr<MemPool>> created_;
  std::vector<MemPool*> destroyed_;  // destroyed while allocations were outstanding
  std::unordered_map<uint64_t, GraphAllocation*> graphAllocations_;  // by address
  uint64_t graphUsed_ = 0, graphReserved_ = 0, graphUsedHigh_ = 0, graphReservedHigh_ = 0;
};

}  // namespace warpsim::cudart
