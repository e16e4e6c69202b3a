// Why a scheduler's issue slot went unused in a cycle (or that it issued). One count per
// scheduler per cycle; the counters are reported under "issue" with these names.
//
// When no warp of a scheduler can issue, the slot is charged to the reason of the warp that got
// furthest: collector > pipeline > scoreboard > assist > memory > barrier > fetch > resources >
// empty (a warp
// that only lacks a free operand collector is closer to issuing than one waiting for a result).
#pragma once
#include <cstdint>

namespace warpsim::timing {

enum class Stall : uint8_t {
  Issued,      // an instruction issued
  Scoreboard,  // the next instruction needs a result of a non-memory instruction (or WAW)
  Memory,      // it needs a load/atomic result, or a fence/exit waits for memory operations
  Barrier,     // the warp waits at a CTA barrier
  Pipeline,    // the execution unit of its class cannot take another instruction
  Collector,   // no free operand collector
  Fetch,       // the instruction buffer holds no decoded instruction
  Empty,       // no warp
  Assist,      // the warp may not issue while its high-priority assist warp runs (i_assist_warp.h)
  Resources,   // a warp-granular resource manager holds the warp (i_resource_manager.h)
};
inline constexpr unsigned kNumStalls = 10;

// Counter names: "issued", "scoreboard", "memory", "barrier", "pipeline", "collector",
// "fetch", "empty", "assist", "resources".
const char* stallName(Stall s);

// Higher is closer to issuing (see above); Issued is highest.
inline int stallRank(Stall s) {
  static constexpr int kRank[kNumStalls] = {9, 6, 4, 3, 7, 8, 2, 0, 5, 1};
  return kRank[static_cast<unsigned>(s)];
}

}  // namespace warpsim::timing
