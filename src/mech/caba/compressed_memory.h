// "line-compression": the memory_compression model of compressed L2/DRAM lines (CABA's memory
// side and its dedicated-hardware comparison points), one per memory controller.
//
// Every line's state in DRAM (compressed with which encoding and how many 32-byte bursts, or
// uncompressed) comes from its real data (lines outside device allocations, whose values the
// device memory does not hold — local memory — stay uncompressed): the first time the controller meets a line, the line
// is compressed from the functional memory (the input was stored compressed before the kernel,
// as the paper prepares it); a write-back compresses the written line again. A compressed line
// is read whole, in its bursts; an uncompressed one sector by sector as without compression. A
// write-back of part of a line whose DRAM copy is compressed is a read-modify-write (the line is
// read, merged and written whole); of part of an uncompressed line it stays uncompressed.
//
// The burst count of every line is metadata in a reserved DRAM region (2 bits per line), cached
// in a per-controller metadata cache; a miss adds a one-burst DRAM read, the eviction of a dirty
// metadata line a one-burst write.
//
// Agent assist-warp: nothing at the L2 or the controller compresses. A line written whole by an
// SM is as the SM sent it: compressed by its assist warp, or plain when its store buffer was
// full, and then stays plain in the L2 and in DRAM until an SM sends it compressed again. Parts
// of lines written by the SMs keep the line's state from its data (the partial-write protocol's
// outcome, whose round trip is not modelled: README.md).
//
// Placement dram: the L2 holds whole lines. With the hardware agent the controller decompresses
// fills (decompress_cycles) and the reply network sees whole lines; with the assist-warp agent
// (the uncompressed-L2 option) a reply whose data came from DRAM crosses the reply network as
// DRAM held it and an assist warp decompresses it at the SM, while L2 hits leave plain (the L2's
// copy is taken to be whole once the SM has decompressed the fill: the write of the whole line
// back to the L2 is not modelled, README.md). Placement l2: the L2 holds the compressed line, a
// reply that is smaller compressed crosses the reply network compressed and is decompressed on
// its way into the L1 (decompress_cycles, charged before the reply leaves) or by an assist warp.
#pragma once
#include <cstdint>
#include <unordered_map>

#include "mech/caba/memory_params.h"
#include "mech/caba/memory_stats.h"
#include "mech/caba/metadata_cache.h"
#include "timing/mem/i_memory_compression.h"

namespace warpsim::mech::caba {

class CompressedMemory final : public timing::mem::IMemoryCompression {
 public:
  CompressedMemory(const Context& context, const MemoryCompressionParams& params);

  timing::mem::CompressedTransfer transfer(uint64_t line, uint32_t sectors, bool write) override;
  timing::mem::ReplyCost reply(uint64_t line, uint32_t sectors, uint32_t bytes,
                               bool fromDram) override;
  bool refusesWrite(uint64_t line, uint32_t sectors) override;
  // Placement l2: the L2 holds a line compressed from its data (unless sent plain), in its
  // compressed size; a cache compressed in capacity (l2.tag_factor > 1) fits lines by it.
  uint32_t storedBytes(uint64_t line) override;
  void written(uint64_t line, uint32_t sectors, uint8_t format) override;
  uint32_t maxSideRequests() const override { return 3; }
  void beginKernel() override { stats_ = MemoryCompressionStats{}; }
  void reportStats(nlohmann::json& out) const override;

  const MemoryCompressionStats& stats() const { return stats_; }

 private:
  struct LineState {
    uint8_t bursts = 0;  // in DRAM; fullBursts_: uncompressed
    uint8_t algorithm = 0, encoding = 0;
    uint16_t bytes = 0;
    bool known = false;      // from its data (compressNow), not only a sentPlain mark
    bool sentPlain = false;  // assist-warp agent: the last whole-line store reached the L2 plain
                             // (an SM's store buffer overflowed): nothing compresses the line
                             // until a store sends it compressed again
  };
  // Compresses the line's current data (and checks the round trip when asked to).
  LineState compressNow(uint64_t line);
  // A line's state in DRAM, compressed from its data the first time; an uncompressed one.
  LineState& dramState(uint64_t line);
  LineState plainState(bool sentPlain) const;
  bool sentPlain(uint64_t line) const;
  // Whether the line lies in a device allocation (the compressible region, whose values the
  // functional memory holds).
  bool inDeviceMemory(uint64_t line) const;
  void metadataAccess(uint64_t line, bool write, timing::mem::CompressedTransfer& t);
  bool compressed(const LineState& s) const { return s.bursts < fullBursts_; }

  const MemoryCompressionParams params_;
  const func::DeviceMemory* memory_;
  const timing::mem::IAddressMapping* mapping_;
  const uint64_t channel_;
  const uint32_t lineBytes_, sectorBytes_, fullBursts_, allSectors_;
  std::unordered_map<uint64_t, LineState> dram_;
  MetadataCache metadata_;
  MemoryCompressionStats stats_;
  uint8_t data_[256] = {}, encoded_[256] = {}, decoded_[256] = {};
};

}  // namespace warpsim::mech::caba
