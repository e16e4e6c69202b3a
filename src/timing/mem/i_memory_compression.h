// Extension point "memory_compression": what moving an L2 line costs when lines may be stored
// compressed, given the line's real data. One instance per memory channel (its memory
// controller); key l2.compression. The L2 slices of the channel call it:
//   transfer(line, sectors, false)  for every DRAM read (a fill, or a read that bypasses the L2)
//   transfer(line, sectors, true)   for every DRAM write (write-back of dirty sectors)
//   reply(line, sectors, bytes, fromDram)
//                                   for every read reply the slice sends to an SM (fromDram: its
//                                   data came from DRAM for this request, not from an L2 hit)
//   refusesWrite(line, sectors)     for every plain store of part of a line the L2 holds whole
//   storedBytes(line)               for every line a compressed L2 (l2.tag_factor > 1) installs
//                                   or writes: the bytes of data it occupies there
//   written(line, sectors, format)  for every store that reaches it from an SM, in the form the
//                                   SM sent it (a model whose lines are compressed at the SMs
//                                   learns there what the L2 holds)
// The answer of a DRAM transfer may widen it (a compressed line is read whole: every sector),
// set its bursts on the data bus, add cycles before the data is usable (decompression), and ask
// for side traffic the slice puts in the DRAM queue beside it: a read and/or a write of one
// burst of per-line metadata (a metadata cache miss, the write-back of a dirty metadata line),
// and, for a write, a read of the line first (a partial write into a compressed line must be
// merged: read-modify-write). Side reads complete like other reads but nothing waits for them.
// A reply's answer sets the bytes on the reply network and the cycles added before it leaves.
//
// Data: the functional engine has already executed what is being timed (execute at issue), so
// DeviceMemory holds the values a real system would transfer, give or take writes that run
// ahead. readLineData() (line_data.h) reads a line from it; lines outside device allocations
// (local memory, kernel parameters) read as zeros, since their values are not in DeviceMemory.
//
// Baseline "none": every sector is one burst, no side traffic, replies of full size.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "timing/mem/i_address_mapping.h"

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::timing::mem {

inline constexpr uint64_t kNoSideLine = UINT64_MAX;

struct CompressedTransfer {
  uint32_t bursts = 0;       // 32-byte data-bus bursts (>= 1 when sectors != 0)
  uint32_t extraCycles = 0;  // L2 cycles added to a fill (decompression latency)
  uint32_t sectors = 0;      // sectors moved (0: those asked for); a read may widen them
  uint64_t metadataRead = kNoSideLine;   // address of a one-burst metadata read to add
  uint64_t metadataWrite = kNoSideLine;  // address of a one-burst metadata write to add
  uint32_t readFirstBursts = 0;          // write: bursts of a read of the line to add first
};

struct ReplyCost {
  uint32_t bytes = 0;        // payload bytes on the reply network
  uint32_t extraCycles = 0;  // L2 cycles before the reply leaves (compression at the L2)
  uint8_t format = 0;        // non-zero: the data arrives in this form and the SM transforms it
                             // (SmMemory's reply listener, timing/sm_memory.h)
};

class IMemoryCompression {
 public:
  static constexpr const char* kPoint = "memory_compression";
  struct Context {
    config::Tree* tree = nullptr;                // the mechanism's own keys
    const func::DeviceMemory* memory = nullptr;  // real data
    uint32_t channel = 0;
    uint32_t lineBytes = 128, sectorBytes = 32;  // L2 geometry
    const IAddressMapping* mapping = nullptr;    // where lines live (channel-local addresses)
  };
  virtual ~IMemoryCompression() = default;

  // Sectors `sectors` of the L2 line at `line` move between L2 and DRAM (write: towards DRAM).
  virtual CompressedTransfer transfer(uint64_t line, uint32_t sectors, bool write) = 0;
  // A read reply carrying sectors `sectors` of the line at `line` (bytes: their uncompressed
  // size) leaves the L2 for an SM; fromDram: the data was read from DRAM for it (a miss).
  virtual ReplyCost reply(uint64_t line, uint32_t sectors, uint32_t bytes, bool fromDram) {
    (void)line;
    (void)sectors;
    (void)fromDram;
    return ReplyCost{bytes, 0, 0};
  }
  // A write from an SM of sectors `sectors` (plain data) of the line at `line`, which the L2
  // holds whole: true when the L2 cannot merge it into the form it holds the line in (part of a
  // compressed line, with no logic at the L2 to decompress it). The slice then refuses it and
  // sends the line back as reply() makes it (PacketKind::WriteRefused); the SM merges the write
  // and sends the whole line again (timing/sm_memory.h, StoreListener::redoStore).
  virtual bool refusesWrite(uint64_t line, uint32_t sectors) {
    (void)line;
    (void)sectors;
    return false;
  }
  // A write from an SM of sectors `sectors` of the line at `line` reached the L2, in form
  // `format` (0: plain data; else the compression's tag, set by the SM's store listener).
  virtual void written(uint64_t line, uint32_t sectors, uint8_t format) {
    (void)line;
    (void)sectors;
    (void)format;
  }
  // Bytes of L2 data the line at `line` occupies in the form the L2 holds it now (its
  // compressed size); 0: a whole line. Asked only by an L2 with more tags than data ways
  // (l2.tag_factor > 1, cache_tags.h), which fits lines by this size (in l2.segment units).
  virtual uint32_t storedBytes(uint64_t line) {
    (void)line;
    return 0;
  }
  // The most side requests (reads and writes together) one transfer may add: the slice keeps
  // that much room in the DRAM queue before it starts one.
  virtual uint32_t maxSideRequests() const { return 0; }
  // Kernel boundary.
  virtual void beginKernel() {}
  // Adds the mechanism's counters to `out` (shared by all channels: add, do not overwrite).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing::mem
