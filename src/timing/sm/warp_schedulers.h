// Baseline warp scheduling policies (extension point "warp_scheduler"):
//   lrr        loose round robin: starting after the warp that issued last, the first warp that
//              can issue
//   gto        greedy then oldest: the warp that issued last while it can, else the oldest
//              (admission order) that can
//   two-level  a small active set of warps (sm.warp_scheduler.active_warps, default 8) is
//              scheduled greedily, then round robin; a warp whose next instruction waits on a
//              long-latency event (a result of a cache-accessing memory instruction, a barrier,
//              a fence) leaves the active set for the pending pool, and pending warps whose
//              long-latency waits are over re-enter it in round-robin order (Gebhart et al.,
//              ISCA 2011 and MICRO 2011). Counters: deschedules, activations.
#pragma once
#include <memory>

#include "timing/sm/i_warp_scheduler.h"

namespace warpsim::timing {

std::unique_ptr<IWarpScheduler> makeLrrScheduler(const IWarpScheduler::Context& context);
std::unique_ptr<IWarpScheduler> makeGtoScheduler(const IWarpScheduler::Context& context);
std::unique_ptr<IWarpScheduler> makeTwoLevelScheduler(const IWarpScheduler::Context& context);

}  // namespace warpsim::timing
