// One L2 slice, in L2 cycles: a sectored, write-back, write-allocate cache in front of (a share
// of) one DRAM channel, where atomics are performed.
//
// A request popped from the request network at cycle t reaches the tags at t + l2.hit_latency
// (the access pipeline, one request entering per cycle). Then:
//   read, all sectors valid        reply at once (ReadReply with the sectors' data)
//   read, missing sectors          wait in an MSHR; the missing sectors not already on their way
//                                  are read from DRAM (line allocated now, victim written back
//                                  if dirty); the reply leaves when the data is back (plus the
//                                  compression's decompression cycles; a compressed line is
//                                  read whole, with the metadata traffic the compression asks
//                                  for: i_memory_compression.h)
//   write / write-back             write-allocate at sector granularity: the written sectors
//                                  become valid and dirty without reading DRAM (write-validate);
//                                  a write is acknowledged at once, a write-back is not
//   atomic / reduction             like a read, then the atomic unit: it starts one request per
//                                  cycle, a request whose lanes hit one address k times holds it
//                                  k cycles, and the result is ready l2.atomic_latency + k - 1
//                                  cycles after it started; the sectors become dirty. Atomics
//                                  always allocate (the policy's bypass is not asked).
// The request stays at the head of the pipeline (and the pipeline stops taking requests) while
// it cannot proceed: no MSHR or merge slot, no evictable way, no room in the DRAM queue.
// Replies leave in the order they are ready, as long as the reply network takes them.
//
// Compressed capacity (l2.tag_factor > 1, cache_tags.h): a line takes the size the memory
// compression gives it (storedBytes) when it is installed and after each write; a miss evicts
// as many lines as it needs room for (their dirty sectors written back). A write that grows a
// line where the room is held by lines waiting for fills, or where the DRAM queue has no room
// for the write-backs, leaves the set over its data for a while: the next install in it evicts
// until the set fits again.
//
// Sets are indexed with the address within the slice (the address mapping's channel-local
// address without the slice bits), so that channel interleaving does not leave sets unused.
#pragma once
#include <cstdint>
#include <vector>

#include "timing/mem/cache_tags.h"
#include "timing/mem/crossbar.h"
#include "timing/mem/dram_channel.h"
#include "timing/mem/i_address_mapping.h"
#include "timing/mem/i_cache_policy.h"
#include "timing/mem/i_memory_compression.h"
#include "timing/mem/mshr_table.h"

namespace warpsim::timing::mem {

struct L2SliceWiring {
  uint32_t index = 0;  // port on both networks
  uint32_t slicesPerChannel = 1;
  uint32_t sliceInChannel = 0;
  Crossbar* requests = nullptr;
  Crossbar* replies = nullptr;
  DramChannel* dram = nullptr;
  PacketPool* pool = nullptr;
  ICachePolicy* policy = nullptr;
  IMemoryCompression* compression = nullptr;
  const IAddressMapping* mapping = nullptr;
};

class L2Slice {
 public:
  // `geometry` is this slice's share of the L2.
  L2Slice(const L2Params& params, const CacheGeometry& geometry, const L2SliceWiring& wiring);

  void cycle(Cycle now);
  Cycle nextWorkCycle(Cycle now) const;
  bool empty() const { return pipeline_.empty() && replies_.empty() && mshrs_.used() == 0; }

  void beginKernel();
  // Functional warming (MemorySystem::warm): `sectors` of `lineAddr` valid (and dirty for a
  // write), the line most recently used; a missing line takes the replacement victim's way,
  // whose dirty data is dropped (no write-back). Lines held compressed are left as they are.
  void warm(uint64_t lineAddr, uint32_t sectors, bool write);
  // At a launch's start (ICachePolicy::pinsFollowUse): true clears the soft pins and re-asks
  // the policy at every read hit from then on.
  void setPinsFollowUse(bool follow);
  const CacheStats& stats() const { return stats_; }
  uint64_t moved() const { return moved_; }
  const CacheTags& tags() const { return tags_; }

 private:
  struct Staged {
    uint32_t packet;
    Cycle ready;
  };
  struct Reply {
    Cycle ready;
    uint64_t seq;
    uint32_t packet;
  };

  void takeFills(Cycle now);
  bool process(uint32_t packet, Cycle now);  // false: stalled, retry next cycle
  bool processRead(uint32_t packet, uint64_t line, uint32_t sectors, uint32_t set, Cycle now);
  bool processWrite(uint32_t packet, uint64_t line, uint32_t sectors, uint32_t set, Cycle now);
  // Evicts the victim in (set, way), writing dirty sectors to DRAM (room checked by the caller).
  void evict(uint32_t set, uint32_t way);
  // The bytes the line at `line` will occupy (0: whole; always 0 without compressed capacity).
  uint32_t sizeOf(uint64_t line) const;
  // Makes room for (set, way) to hold `size` bytes: evicts the lines roomFor names, each when the
  // DRAM queue takes its write-back. True when all have left and the queue still takes `reads`
  // reads and `writes` writes; false otherwise (those that left stay out: a retry needs fewer).
  bool makeRoom(uint32_t set, uint32_t way, uint32_t size, uint32_t reads, uint32_t writes);
  // Room in the DRAM queue for `reads` and `writes` plus the compression's side requests.
  bool dramRoom(uint32_t reads, uint32_t writes) const;
  // Returns the sectors the read moves (the compression may widen them).
  uint32_t readDram(uint64_t line, uint32_t sectors, uint32_t tag);
  void writeDram(uint64_t line, uint32_t sectors);
  void sideRequests(const CompressedTransfer& t);
  void sideRequest(uint64_t addr, uint32_t bursts, bool write);
  // The request is served (its sectors are in `line`, or it bypassed the cache: line null).
  // A plain write of part of a line the L2 holds in a form it cannot merge into: the line goes
  // back to the SM in its form instead (memory_compression's refusesWrite).
  void refuseWrite(uint32_t packet, uint64_t lineAddr, uint32_t set, uint32_t way, Cycle now);
  // fromDram: the data came from DRAM for this request (a fill or a bypass), not from the L2.
  void complete(uint32_t packet, CacheLine* line, Cycle ready, bool fromDram);
  void pushReply(uint32_t packet, Cycle ready);
  void sendReplies(Cycle now);
  void prefetch(const CacheAccessInfo& info);
  uint32_t setOf(uint64_t line) const;
  CacheAccessInfo infoOf(const Packet& p, uint64_t line, uint32_t sectors) const;

  const L2Params params_;
  const L2SliceWiring w_;
  CacheTags tags_;
  MshrTable mshrs_;
  RingBuffer<Staged> pipeline_;
  std::vector<Reply> replies_;  // min-heap on (ready, seq); capacity reserved
  std::vector<uint32_t> roomWays_;  // makeRoom's evictions (one entry per tag of a set)
  uint64_t replySeq_ = 0;
  Cycle atomicFree_ = 0;
  uint32_t granule_;
  uint64_t moved_ = 0;
  CacheStats stats_;
  bool pinsFollowUse_ = false;  // setPinsFollowUse
  Cycle now_ = 0;  // the cycle being run (stamps the reads sent to DRAM)
};

}  // namespace warpsim::timing::mem
