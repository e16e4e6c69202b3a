// Where device allocations sit, as the CUDA driver places them, and which device memory is
// mapped at all.
//
// Public facts this follows:
//  * cudaMalloc returns addresses aligned to at least 256 bytes (CUDA C++ Programming Guide,
//    "Device Memory Accesses"); sizes are rounded up to 256 here, so consecutive small
//    allocations sit 256-byte granules apart.
//  * The driver maps device memory in large pages of 2 MiB (the granularity
//    cuMemGetAllocationGranularity reports for device allocations): small allocations are
//    packed into a 2 MiB chunk, an allocation of 2 MiB or more gets chunks of its own rounded up
//    to 2 MiB.
//  * The runtime's and driver's own allocations (printf FIFO, stacks, constant banks) come
//    before the first user allocation: the first chunk of the address space is theirs.
// So an access a little outside an allocation reads and writes mapped memory on a GPU (a[-1]
// before the first allocation, a[n] after the last), and only accesses outside every chunk fault.
//
// Chunks are never reused: addresses only grow, a use after free never sees a newer
// allocation, and the layout is a deterministic function of the allocation sequence. A chunk is
// unmapped when its last allocation is freed, except the driver's chunk and the chunk small
// allocations are currently packed into.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::func {

class AllocationLayout {
 public:
  static constexpr uint64_t kChunkBytes = uint64_t{2} << 20;  // the driver's large page
  static constexpr uint64_t kMinAlign = 256;                  // cudaMalloc's guarantee
  static constexpr uint64_t kDriverBytes = kChunkBytes;       // the driver's own chunk

  struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;  // bytes requested (at least 1)
    bool contains(uint64_t addr, uint64_t n) const { return addr >= base && addr - base <= size && n <= size - (addr - base); }
  };
  // A mapped range of chunkBytes multiples: the driver's chunk, a chunk of packed small
  // allocations, or one large allocation's.
  struct Chunk {
    uint64_t start = 0, end = 0;
    uint32_t live = 0;  // live allocations inside
  };

  // The address space starts at `base` (rounded up to kChunkBytes): the driver's chunk, then
  // user allocations.
  explicit AllocationLayout(uint64_t base);

  // Moves the (still empty) address space to start at `base` (rounded up to kChunkBytes).
  // Returns false when something is allocated already.
  bool relocate(uint64_t base);

  // Places an allocation of `bytes` (0 counts as 1) aligned to `align` (a power of two, at least
  // kMinAlign is used) and returns its address. When that closes an empty chunk of packed
  // allocations, *unmapped receives it (else start == end == 0).
  uint64_t place(uint64_t bytes, uint64_t align, Chunk* unmapped);
  // Removes the allocation starting at `addr`; false when none starts there. When that unmaps a
  // chunk, *unmapped receives it (else start == end == 0).
  bool remove(uint64_t addr, Allocation* removed, Chunk* unmapped);

  // The live allocation containing [addr, addr + n), or nullptr.
  const Allocation* allocationOf(uint64_t addr, uint64_t n) const;
  // Whether [addr, addr + n) lies in mapped memory (inside one chunk; chunks that touch count as
  // one range).
  bool isMapped(uint64_t addr, uint64_t n) const;
  // The last live allocation starting at or below `addr` and the first starting above it
  // (nullptr where there is none).
  void neighbours(uint64_t addr, const Allocation** below, const Allocation** above) const;

  uint64_t base() const { return base_; }
  const std::vector<Allocation>& allocations() const { return allocs_; }  // sorted by base
  const std::vector<Chunk>& chunks() const { return chunks_; }            // sorted by start

 private:
  Chunk* chunkAt(uint64_t addr);
  const Chunk* chunkAt(uint64_t addr) const;
  void addChunk(uint64_t start, uint64_t end);
  void unmap(Chunk* c, Chunk* unmapped);

  uint64_t base_ = 0;
  uint64_t next_ = 0;            // where the next chunk starts
  uint64_t openStart_ = 0;       // the chunk small allocations are packed into (0: none)
  uint64_t openNext_ = 0;        // its first free byte
  std::vector<Allocation> allocs_;
  std::vector<Chunk> chunks_;
};

}  // namespace warpsim::func
