// A stream-ordered memory pool (cudaMemPool_t): the memory behind cudaMallocAsync and
// cudaMallocFromPoolAsync.
//
// The pool reserves device memory in chunks of 2 MiB (the driver's allocation granularity; a
// larger request gets a chunk of its own, rounded up to 2 MiB) and hands it out in pieces rounded
// up to 256 bytes (cudaMalloc's alignment), first fit in chunk order, so a freed piece is reused
// by the next request it fits. Every operation completes when issued (context.h), so a free
// takes effect at once, in stream order. Memory goes back to the device only when a chunk is
// entirely free: at a synchronisation while more than the release threshold is reserved (CUDA
// releases at stream, event and device synchronisation; the default threshold, 0, keeps nothing),
// or when the program trims the pool. The statistics follow from this: used <= reserved, used is
// the sum of the live pieces, reserved the sum of the chunks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::cudart {

class MemPool {
 public:
  static constexpr uint64_t kChunkBytes = uint64_t{2} << 20;
  static constexpr uint64_t kGranularity = 256;

  // maxBytes: the most the pool may reserve (cudaMemPoolProps::maxSize); 0: the device's memory.
  MemPool(func::DeviceMemory& memory, uint64_t maxBytes);
  ~MemPool();  // gives every chunk back
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;

  // The address of `bytes` (0 counts as 1) of pool memory, or 0 when neither the pool's chunks
  // nor a new chunk (device memory, the pool's maximum size) can hold it.
  uint64_t allocate(uint64_t bytes);
  // Frees the piece starting at `address`; false when no live piece starts there.
  bool free(uint64_t address);
  bool owns(uint64_t address) const { return live_.count(address) != 0; }
  size_t liveAllocations() const { return live_.size(); }

  // Gives whole free chunks back, newest first, while more than `keep` bytes are reserved and
  // at least `keep` stay reserved (cudaMemPoolTrimTo's guarantee).
  void releaseAbove(uint64_t keep);
  // What a synchronisation does: releaseAbove(releaseThreshold).
  void synchronize() { releaseAbove(releaseThreshold); }

  uint64_t reservedBytes() const { return reserved_; }
  uint64_t usedBytes() const { return used_; }
  uint64_t reservedHigh() const { return reservedHigh_; }
  uint64_t usedHigh() const { return usedHigh_; }
  // CUDA lets a program reset the high watermarks (to the current amount).
  void resetReservedHigh() { reservedHigh_ = reserved_; }
  void resetUsedHigh() { usedHigh_ = used_; }

  // Attributes kept for cudaMemPoolGetAttribute (the reuse policies change nothing here: frees
  // complete when issued, so every freed piece may be reused).
  uint64_t releaseThreshold = 0;
  int reuseFollowEventDependencies = 1;
  int reuseAllowOpportunistic = 1;
  int reuseAllowInternalDependencies = 1;

 private:
  struct Chunk {
    uint64_t base = 0, bytes = 0;
    std::map<uint64_t, uint64_t> free;  // address -> bytes, coalesced
  };
  uint64_t takeFrom(Chunk& c, uint64_t bytes);

  func::DeviceMemory* memory_;
  uint64_t maxBytes_;
  std::vector<Chunk> chunks_;  // creation order
  std::unordered_map<uint64_t, uint64_t> live_;  // address -> rounded bytes
  uint64_t reserved_ = 0, used_ = 0, reservedHigh_ = 0, usedHigh_ = 0;
};

}  // namespace warpsim::cudart
