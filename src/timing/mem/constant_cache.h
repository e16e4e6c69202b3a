// An SM's constant cache (ld.const and kernel parameters): read-only lines of const.line bytes.
// The memory pipeline sends it one access per distinct address of a warp (lanes that read the
// same address are served by one access: broadcast; distinct addresses are serialised).
// A hit delivers after const.hit_latency; a miss takes an MSHR (or joins the line's MSHR) and
// is filled from the level below:
//   - with an L1.5 (const.l15_size > 0: the SM's second constant level, whose sectors are
//     constant-cache lines) that holds the line: const.l15_latency cycles after the miss;
//   - otherwise from the L2, when its reply arrives; the fill also installs the line in the
//     L1.5 (inclusive).
// Both levels are invalidated at kernel boundaries like the L1.
#pragma once
#include <cstdint>
#include <optional>

#include "timing/mem/cache_tags.h"
#include "timing/mem/l1_data_cache.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/mem_stats.h"
#include "timing/mem/mshr_table.h"
#include "timing/mem/ring_buffer.h"
#include "timing/mem/sm_port.h"

namespace warpsim::timing::mem {

class ConstantCache {
 public:
  ConstantCache(const ConstParams& params, SmPort& port, CompletionSink& sink);

  AccessResult load(uint64_t addr, uint32_t slot, const RequestOrigin& origin, Cycle now);
  // The L2's reply for MSHR `mshr`.
  void fill(uint32_t mshr, Cycle now);
  // Fills the misses the L1.5 answers by `now`.
  void cycle(Cycle now) {
    while (!fromL15_.empty() && fromL15_.front().at <= now) {
      const uint32_t mshr = fromL15_.front().mshr;
      fromL15_.pop();
      complete(mshr, now);
    }
  }
  // The next cycle at which cycle() has work, or kNever.
  Cycle nextEvent() const { return fromL15_.empty() ? kNever : fromL15_.front().at; }
  void invalidateAll() {
    tags_.invalidateAll();
    if (l15_) l15_->invalidateAll();
  }
  bool waitingForFills() const { return mshrs_.used() != 0; }
  ConstStats& stats() { return stats_; }

 private:
  struct L15Fill {
    Cycle at;
    uint32_t mshr;
  };
  // Where constant-cache line `line` lives in the L1.5: its L1.5 line, set and sector bit.
  struct L15Place {
    uint64_t tag;
    uint32_t set, sector;
  };
  L15Place l15PlaceOf(uint64_t line) const;
  // The L1.5 holds constant-cache line `line` (and it is marked used).
  bool l15Holds(uint64_t line);
  void l15Install(uint64_t line);
  void complete(uint32_t mshr, Cycle now);

  SmPort& port_;
  CompletionSink& sink_;
  CacheTags tags_;
  MshrTable mshrs_;
  std::optional<CacheTags> l15_;
  uint32_t l15Latency_;
  RingBuffer<L15Fill> fromL15_;  // in order: every entry waits the same latency
  ConstStats stats_;
};

}  // namespace warpsim::timing::mem
