// Extension point "local_memory_path": a structure beside each SM's L1 that sees every local
// (thread-private) memory access first — the Affine Vector Cache plugs in here. Key
// l1.local_path; one instance per SM.
//
// What the hook receives, for each warp instruction with local lanes, when the SM hands the
// instruction to the memory pipeline (SmMemory::accept):
//   - the func::ExecRecord (valid only during the call): instruction, pc, CTA, warp, warp slot,
//     masks;
//   - the lanes whose access resolved to local memory and each lane's offset in its thread's
//     local space (generic addresses already converted), and bytes per lane;
//   - for loads, the loaded values: record->dstValues[i][lane] for the numDstRegs destination
//     registers (the functional engine executed the load already). For stores,
//     record->storeValues / storeImm: the SM copies the data of local stores at issue, so they
//     hold the stored data even if the warp rewrote the registers since. Local memory lives in
//     the functional warp, not in DeviceMemory.
// localAddress() (coalescer.h, with the layout in Context) gives the device address the L1 and
// L2 use for a local byte (word-interleaved across the lanes of a warp).
//
// What it answers (Outcome):
//   - `served`: lanes it serves itself, complete `latency` cycles after the access reaches the
//     LSU port, without touching the L1;
//   - by default the other lanes are coalesced and go through the L1 as usual (L1 write policy
//     l1.local_write). A path that decides per 128-byte block instead lists the requests itself
//     (`listed`, Access::requests): each goes through the L1, or, for loads, `aroundL1` to the
//     level below without allocating an L1 line (the path keeps the data it brings), or is
//     served by the path itself (`byPath`, `latency`). They queue behind the served part, one
//     LSU pass each (a partial hit's replay is such a pass);
//   - `extraLatency`: cycles added to the completion of the instruction (a lookup in front of
//     the L1 that every local load pays).
// Traffic the path causes on its own (write-backs of data it held, dropping an L1 line it takes
// over) goes through the LocalPathPort it was given; the pipeline tells it when the L1 drops a
// local line (eviction or invalidation), so a path that tracks the L1's local words can follow.
//
// Baseline "none": serves nothing; every local access goes to the L1.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/exec_record.h"
#include "timing/mem/coalescer.h"
#include "timing/sm_memory.h"

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::timing::mem {

// What the SM's memory pipeline offers a local path.
class LocalPathPort {
 public:
  virtual ~LocalPathPort() = default;
  // Queues a write of `sectors` of the L1-sized line at `line` to the L2 (a write-back of data
  // the path held). False when the pipeline's side queue is full; the path retries later.
  virtual bool writeBack(uint64_t line, uint32_t sectors) = 0;
  // Drops the L1's copy of line `line`; its dirty sectors are queued for write-back.
  virtual void invalidateL1(uint64_t line) = 0;
};

class ILocalMemoryPath {
 public:
  static constexpr const char* kPoint = "local_memory_path";
  struct Context {
    config::Tree* tree = nullptr;  // the mechanism's own keys
    uint32_t sm = 0;
    const func::DeviceMemory* memory = nullptr;  // global data (local data is not in it)
    LocalPathPort* port = nullptr;
    uint32_t l1LineBytes = 128, l1SectorBytes = 32;
    uint32_t l1HitLatency = 20;
    LocalLayout layout = LocalLayout::WarpMajor;
  };
  // A request the path asks the pipeline to make (Outcome::listed).
  struct Request {
    uint64_t line = 0;      // L1 line address
    uint32_t sectors = 0;   // sectors of the line accessed
    uint32_t bytes = 0;     // bytes accessed (stores)
    bool aroundL1 = false;  // loads: fetched from the level below, no L1 line allocated
    bool byPath = false;    // a pass the path serves itself: done Outcome::latency cycles
                            // after it reaches the LSU port, without the L1
  };
  struct Access {
    const func::ExecRecord* record = nullptr;
    uint32_t mask = 0;  // lanes accessing local memory
    bool store = false;
    uint32_t bytes = 0;                // per lane (vector width included)
    const uint64_t* offset = nullptr;  // offset[lane]: local offset of the lane's access
    LocalWarp warp;                    // for localAddress()
    Request* requests = nullptr;       // room for kMaxRequestsPerInstruction (Outcome::listed)
  };
  struct Outcome {
    uint32_t served = 0;   // lanes the path serves (subset of mask)
    uint32_t latency = 0;  // core cycles from the LSU port to completion of the served part
    bool listed = false;   // requests[0 .. count) replace the default handling of the rest
    uint32_t count = 0;
    uint32_t extraLatency = 0;  // added to the instruction's completion
  };
  virtual ~ILocalMemoryPath() = default;

  virtual Outcome access(const Access& access, Cycle now) = 0;
  // The L1 dropped local line `line` (evicted or invalidated; its dirty sectors are written
  // back by the pipeline).
  virtual void l1Dropped(uint64_t line) {}
  // Kernel boundary (the L1 is invalidated at the same time).
  virtual void beginKernel() {}
  // Adds the path's counters to `out` (shared by all SMs: add, do not overwrite).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing::mem
