// An SM's constant cache (ld.const and kernel parameters): read-only lines of const.line bytes.
// The memory pipeline sends it one access per distinct address of a warp (lanes that read the
// same address are served by one access: broadcast; distinct addresses are serialised).
// A hit delivers after const.hit_latency; a miss takes an MSHR (or joins the line's MSHR) and
// reads the whole line from the L2. Invalidated at kernel boundaries like the L1.
#pragma once
#include <cstdint>

#include "timing/mem/cache_tags.h"
#include "timing/mem/l1_data_cache.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/mem_stats.h"
#include "timing/mem/mshr_table.h"
#include "timing/mem/sm_port.h"

namespace warpsim::timing::mem {

class ConstantCache {
 public:
  ConstantCache(const ConstParams& params, SmPort& port, CompletionSink& sink);

  AccessResult load(uint64_t addr, uint32_t slot, const RequestOrigin& origin);
  void fill(uint32_t mshr, Cycle now);
  void invalidateAll() { tags_.invalidateAll(); }
  bool waitingForFills() const { return mshrs_.used() != 0; }
  ConstStats& stats() { return stats_; }

 private:
  SmPort& port_;
  CompletionSink& sink_;
  CacheTags tags_;
  MshrTable mshrs_;
  ConstStats stats_;
};

}  // namespace warpsim::timing::mem
