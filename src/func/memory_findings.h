// What a launch's device-memory accesses did that a GPU lets pass but that is a bug in the
// program, found by the engine when RunOptions::findings is set:
//  * accesses outside every allocation that still fall in mapped device memory (the driver maps
//    whole 2 MiB chunks, func/allocation_layout.h), which read and write what is there on a GPU;
//    with RunOptions::memcheck they fault instead, as compute-sanitizer's memcheck reports them;
//  * with RunOptions::initcheck, loads and atomics of device memory never written by the host or
//    a kernel (compute-sanitizer's initcheck).
// Each finding counts lane accesses and describes the first one in execution order.
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::func {

class AllocationLayout;

struct MemoryFinding {
  uint64_t count = 0;
  // "kernel 'k' CTA (0,0,0) thread (3,0,0) at k.ptx:12: global load of 4 bytes at 0x7f00001ffffc,
  // 4 bytes before the allocation at 0x7f0000200000 of 256 bytes"
  std::string first;

  // Counts `accesses`; describe() (returning the string) runs only for the first.
  template <class Describe>
  void note(uint64_t accesses, Describe&& describe) {
    if (count == 0) first = describe();
    count += accesses;
  }
};

struct MemoryFindings {
  MemoryFinding outsideAllocations;
  MemoryFinding uninitialisedReads;
};

// Where `addr` (an access of `bytes`) lies relative to the live allocations:
//   "16 bytes into the allocation at 0x7f0000200000 of 400 bytes"
//   "4 bytes before the allocation at 0x7f0000200000 of 256 bytes"
//   "12 bytes after the end of the allocation at 0x7f0000200000 of 256 bytes"
//   "straddling the end of the allocation at 0x7f0000200000 of 256 bytes"
//   "no live allocation"
// Outside allocations the nearer neighbour is named (the one below on a tie).
std::string describeAddress(const AllocationLayout& layout, uint64_t addr, unsigned bytes);

// The two one-line reports of a launch's findings ("" when its count is 0), as runtime::Device
// prints them:
//   "warpsim: warning: 3 device memory accesses outside every allocation (a GPU lets them through
//    inside its mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first:
//    <first>"
//   "warpsim: error: initcheck: 32 reads of uninitialised device memory; the first: <first>"
std::string outsideAllocationsLine(const MemoryFinding& f);
std::string uninitialisedReadsLine(const MemoryFinding& f);

}  // namespace warpsim::func
