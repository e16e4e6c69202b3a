// Extension point "cache_policy": what a cache does with the lines of one access — allocate or
// bypass on a miss, where a new line enters the replacement order, whether it is pinned, and
// which lines to prefetch. Used by every L1D (one instance per SM, key l1.policy) and every L2
// slice (one instance per slice, key l2.policy). The cache's own replacement (lru / fifo /
// random, l1.replacement, l2.replacement) picks victims; pinned lines are passed over while
// an unpinned candidate exists (cache_tags.h: soft pins before hard ones; when every line of a
// set is hard-pinned, way 0 goes).
//
// When the hooks are called (per request for one line, never per lane):
//   bypass()    on a miss (line absent) of a read, write or atomic; true: the request goes to the
//               level below without allocating a line here (its reply is not kept either).
//   insertion() and pin()  when a line is installed (after bypass() said false).
//   prefetch()  after every read request (hit or miss): lines to fetch into this cache as well;
//               a prefetch that finds no free MSHR, no free way or a full queue is dropped.
//   beginLaunch()  when a launch starts (an L1: when its SM starts running the launch's CTAs;
//               an L2 slice: when the launch starts on the GPU): the launch's hints (what the
//               program says of its data; nullptr: nothing) and shape.
//   unpinPeriod()  (L1 only) read after beginLaunch: every so many core cycles the L1 clears
//               its hard pins (a periodic reset of thrash-resistant pinning); 0: never.
//   pinsFollowUse()  (L2 only) read after beginLaunch: true, the slice clears its soft pins at
//               the launch's start and asks pin() again at every read hit (with `hit` set), so
//               a line stays pinned while the policy still wants it and the lines of data the
//               program has moved on from are released instead of holding the cache.
//   hintOp()    when a warp issues an instruction that says something of the program's data
//               (hints::AtomOp: XMem's ATOM_* instructions, one call per operation, each
//               executing lane's in lane order), at every cache of the GPU (every L1 and every
//               L2 slice, whichever SM issued it), before any later instruction's accesses;
//               `launch`: the hints of the launch the warp belongs to (the cache may not have
//               had beginLaunch for it yet: an L1 whose SM has run none of its CTAs).
//               Should cost little: it may come once per lane.
// Implementations must be deterministic; they may keep state (per SM or per slice).
//
// Baseline "lru-allocate": allocate on every miss, insert at the MRU position, pin nothing,
// prefetch nothing.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "ir/types.h"
#include "timing/mem/cache_tags.h"

namespace warpsim::hints {
struct AtomOp;
struct LaunchHints;
}

namespace warpsim::timing::mem {

struct CacheAccessInfo {
  uint64_t line = 0;                    // line address in this cache
  uint32_t sectors = 0;                 // sectors requested
  ir::Space space = ir::Space::Global;  // global, local, const (kernel parameters: KernelParam)
  bool write = false;
  bool atomic = false;
  bool hit = false;   // prefetch() and pin(): whether the access hit
  bool prefetch = false;  // insertion() and pin(): the line is being prefetched (lines[] of prefetch())
  uint32_t sm = 0;    // requesting SM
  uint32_t pc = 0;    // requesting instruction (index in its function)
  uint32_t cta = 0;   // linear CTA id
  uint32_t warp = 0;  // warp in its CTA
};

// What a cache's policy learns when a launch starts.
struct CacheLaunch {
  const hints::LaunchHints* hints = nullptr;  // nullptr: the program said nothing
  uint32_t grid[3] = {1, 1, 1};               // CTAs along x, y, z
  uint32_t numSms = 1;                        // SMs of the GPU
  uint64_t capacityBytes = 0;                 // this cache's data capacity for the launch
  // The capacity the addresses this cache serves are spread over: an L1's own, the L2's every
  // slice together (each slice holds its share of the addresses).
  uint64_t levelCapacityBytes = 0;
};

class ICachePolicy {
 public:
  static constexpr const char* kPoint = "cache_policy";
  struct Context {
    config::Tree* tree = nullptr;  // the policy's own keys (a section named after it)
    const char* level = "l1";      // "l1" or "l2"
    uint32_t instance = 0;         // SM (l1) or slice (l2) index
    uint32_t sets = 0, ways = 0, lineBytes = 0, sectorBytes = 0;
  };
  virtual ~ICachePolicy() = default;

  virtual bool bypass(const CacheAccessInfo& access) = 0;
  virtual InsertPosition insertion(const CacheAccessInfo& access) = 0;
  virtual PinKind pin(const CacheAccessInfo& access) = 0;
  // Writes up to `max` line addresses to prefetch into `lines`; returns how many.
  virtual uint32_t prefetch(const CacheAccessInfo& access, uint64_t* lines, uint32_t max) = 0;
  // Kernel boundary.
  virtual void beginKernel() {}
  virtual void beginLaunch(const CacheLaunch& launch) { (void)launch; }
  virtual uint64_t unpinPeriod() const { return 0; }
  virtual bool pinsFollowUse() const { return false; }
  virtual void hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) {
    (void)op;
    (void)launch;
  }
  // Adds the policy's counters to `out` (shared by all instances of the level: add, do not
  // overwrite).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing::mem
