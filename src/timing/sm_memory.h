// The boundary between an SM's pipeline (timing/sm) and the memory hierarchy (timing/mem).
//
// The SM's load/store unit hands over whole warp memory instructions, as the functional engine
// executed them (func::ExecRecord: space, per-lane addresses, bytes per lane, execution mask,
// load/store/atomic). Everything below that point belongs to timing/mem: coalescing into
// 32-byte sectors of 128-byte lines, shared-memory bank conflicts, the L1 data cache, the
// constant cache, the local-memory path beside L1, the interconnect, L2 slices and DRAM.
//
// Time: each SmMemory works in core cycles (the SM's clock); the MemorySystem runs the
// interconnect, L2 and DRAM clock domains and is advanced by the GPU in picoseconds.
#pragma once
#include <cstdint>
#include <optional>
#include <memory>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/exec_record.h"

namespace warpsim::func {
class DeviceMemory;
}
namespace warpsim::hints {
struct AtomOp;
struct LaunchHints;
}

namespace warpsim::timing {

class PluginRegistry;
class StorageBanks;
using Cycle = uint64_t;
inline constexpr Cycle kNever = UINT64_MAX;

// Read replies whose data arrives in a form the SM must transform before the load can use it
// (a compressed line): the memory pipeline offers each to its listener, which may hold it.
class ReplyListener {
 public:
  virtual ~ReplyListener() = default;
  // A read reply with `sectors` of the line at `line` in form `format` (non-zero, the memory
  // compression's tag) for the instruction of warp slot `warpSlot`. True: held; the fill (and
  // every access waiting for it) completes when the listener calls SmMemory::releaseReply with
  // `ticket`. A load that hits a line the L1 keeps in that form (l1.keep_fill_form) is offered
  // the same way: held, the load completes at the release.
  virtual bool holdReply(uint64_t line, uint32_t sectors, uint8_t format, uint32_t warpSlot,
                         uint32_t ticket, Cycle now) = 0;
};

// Writes the SM transforms before they leave it (a line compressed by an assist warp): each
// write-through store of a whole global line is offered to the listener, which may hold it.
class StoreListener {
 public:
  virtual ~StoreListener() = default;
  // A store by warp slot `warpSlot` writes every byte of the line at `line`; the L1 has taken
  // it and the warp's instruction completes as usual. True: held; the write leaves the SM when
  // the listener calls SmMemory::releaseStore with `ticket`. False: it leaves now, as it is.
  virtual bool holdStore(uint64_t line, uint32_t warpSlot, uint32_t ticket, Cycle now) = 0;
  // The L2 refused a plain write of part of the line at `line` by warp slot `warpSlot` and sent
  // the line back in form `format` (it holds it compressed and cannot merge into it): the SM
  // writes the whole line, merged, again. True: held, as holdStore (the listener restores the
  // line, then releases `ticket`); false: the whole line leaves now, plain.
  virtual bool redoStore(uint64_t line, uint8_t format, uint32_t warpSlot, uint32_t ticket,
                         Cycle now) {
    (void)line;
    (void)format;
    (void)warpSlot;
    (void)ticket;
    (void)now;
    return false;
  }
};

// One SM's memory pipeline. Called from the SM's cycle, in core cycles.
class SmMemory {
 public:
  virtual ~SmMemory() = default;
  // Whether the warp memory instruction `record` (a load, store, atomic, reduction, prefetch
  // or fence: record.instr->cls == ir::OpClass::Memory or an atomic) can enter this cycle.
  virtual bool canAccept(const func::ExecRecord& record) const = 0;
  // Takes it. The record is only valid during the call: copy what is needed. `token` is
  // returned by popCompleted when the instruction is done from the warp's point of view:
  // loads and atomics when the data of every lane is back (ready for write-back), stores
  // when every request has left the SM's queues. Instructions with an empty execution mask
  // complete after the pipeline latency.
  virtual void accept(const func::ExecRecord& record, uint32_t token, Cycle now) = 0;
  // Advances the SM-side memory pipeline by one core cycle (`now`).
  virtual void cycle(Cycle now) = 0;
  // Pops one completed token; false when none.
  virtual bool popCompleted(uint32_t& token) = 0;
  // Nothing accepted and not yet completed, and no reply on its way to this SM (stores complete
  // before their acknowledgements are back; replies no instruction waits for are taken by the
  // memory system even when the SM no longer calls cycle()).
  virtual bool idle() const = 0;
  // The earliest core cycle >= now at which cycle() may change something (kNever when idle);
  // lets the GPU skip idle cycles. Conservative answers (now) are always correct.
  virtual Cycle nextEvent(Cycle now) const = 0;
  // Per-kernel carveout, at a kernel boundary: the L1 data cache gets `bytes` (std::nullopt:
  // the configuration's l1.size), empty. A memory system without an L1 ignores it.
  virtual void setL1Bytes(std::optional<uint64_t> bytes) { (void)bytes; }
  // The L1 data cache's capacity now, in bytes (0: none).
  virtual uint64_t l1Capacity() const { return 0; }
  // The SM starts running CTAs of a launch of `grid` CTAs (x, y, z) whose program said `hints`
  // of its data (nullptr: nothing), at core cycle `now`, after setL1Bytes. The L1's cache
  // policy learns them (ICachePolicy::beginLaunch); a memory system without one ignores it.
  virtual void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], Cycle now) {
    (void)hints;
    (void)grid;
    (void)now;
  }
  // Banks shared with the register file (storage_banks.h; nullptr: none). With them, shared
  // memory and L1 data passes wait while a register access holds a bank they need, and the
  // port starts its access in portCycle(now), which the SM calls after the register file's
  // arbitration of the same cycle, instead of in cycle(now). A memory system without a data
  // path in those banks ignores it.
  virtual void shareBanks(StorageBanks* banks) { (void)banks; }
  virtual void portCycle(Cycle now) { (void)now; }
  // Replies in a transformed form go to `listener` (nullptr: none; they are used as they are).
  virtual void setReplyListener(ReplyListener* listener) { (void)listener; }
  // A held reply's data is usable from `now` on.
  virtual void releaseReply(uint32_t ticket, Cycle now) {
    (void)ticket;
    (void)now;
  }
  // Whole-line stores go to `listener` before they leave (nullptr: none).
  virtual void setStoreListener(StoreListener* listener) { (void)listener; }
  // A held store leaves from `now` on, `bytes` long, in form `format` (0: plain data; else the
  // memory compression's tag); until it has left, the SM's memory pipeline is not idle and its
  // fences wait for it.
  virtual void releaseStore(uint32_t ticket, uint8_t format, uint32_t bytes, Cycle now) {
    (void)ticket;
    (void)format;
    (void)bytes;
    (void)now;
  }
};

// The memory hierarchy of the whole GPU: one SmMemory per SM plus the shared levels below.
class MemorySystem {
 public:
  virtual ~MemorySystem() = default;
  virtual SmMemory& sm(uint32_t index) = 0;
  // Advances the interconnect, L2 and DRAM clock domains up to (and including) time `ps`.
  virtual void advanceTo(uint64_t ps) = 0;
  virtual bool idle() const = 0;
  // The earliest time (ps) > now at which something below the SMs happens; kNever when idle.
  virtual uint64_t nextEventPs(uint64_t nowPs) const = 0;
  // A count that grows whenever a request moves somewhere in the hierarchy (the GPU's deadlock
  // detector watches it besides instructions issued). Implementations that do not count return
  // 0: then only issued instructions and retired CTAs count as progress.
  virtual uint64_t progress() const { return 0; }
  // Kernel boundary: caches keep their contents across kernels (L1s are invalidated as CUDA's
  // coherence requires); counters restart.
  virtual void beginKernel() = 0;
  // A launch starts (its grid, the CTAs of it one SM holds at once, and what its program says of
  // its data; nullptr: nothing), before its first CTA: the levels below the SMs that place data
  // by launch (a multi-module GPU's zone placement) learn it. Memory systems without such levels
  // ignore it.
  virtual void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], uint32_t ctasPerSm) {
    (void)hints;
    (void)grid;
    (void)ctasPerSm;
  }
  // A warp issued an instruction carrying operation `op` on the program's atoms (XMem's ATOM_*
  // instructions; `launch`: the hints of the warp's launch): every cache policy of the GPU
  // learns it now (ICachePolicy::hintOp). Memory systems without policies ignore it.
  // Functional warming (kernel sampling's estimated launches): the shared caches as if a global
  // access of `bytes` at `address` had been served, with no time, traffic or statistics.
  // Memory systems without shared caches ignore it.
  virtual void warm(uint64_t address, uint32_t bytes, bool write) {
    (void)address;
    (void)bytes;
    (void)write;
  }
  virtual void hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) {
    (void)op;
    (void)launch;
  }
  // Counters of every level since beginKernel (see docs/stats.md "memory").
  virtual void reportStats(nlohmann::json& out) const = 0;
};

struct MemorySystemContext {
  config::Tree* tree = nullptr;          // reads its keys under "l1", "shared", "const", "icnt",
                                         // "l2", "dram", "clocks" and the plug-in sections
  const PluginRegistry* registry = nullptr;
  const func::DeviceMemory* memory = nullptr;  // real data, for mechanisms that need values
  uint32_t numSms = 0;
  uint32_t warpSlotsPerSm = 48;          // sm.max_warps
  uint32_t modules = 1;                  // gpu.modules (NUMA zones)
  double coreClockMhz = 0;               // SmMemory cycles are core cycles
};

// Builds the configured memory hierarchy (timing/mem/memory_system.cpp).
std::unique_ptr<MemorySystem> makeMemorySystem(const MemorySystemContext& context);

}  // namespace warpsim::timing
