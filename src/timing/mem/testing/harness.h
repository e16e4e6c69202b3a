// Test support (header only): a small memory system driven the way the GPU drives it
// (advanceTo the start of each core cycle, then every SM's cycle), and hand-made warp memory
// instructions.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "func/exec_record.h"
#include "timing/clock_domain.h"
#include "timing/mem/memory_system.h"

namespace warpsim::timing::mem::testing {

// One SM, one channel, every clock at 1000 MHz, round latencies:
//   l1.hit_latency 5, shared.latency 3, const.hit_latency 2, icnt.latency 10, l2.hit_latency 20,
//   l2.atomic_latency 7, DRAM tRCD 12 tCL 12 (others at their defaults), one bus cycle a burst,
//   no DRAM return latency.
MemoryParams tinyParams();

// An address of the tests: line and page aligned, a page past the start of the device address
// space (func::DeviceMemory::kBaseAddress).
inline constexpr uint64_t kA = 0x7f00'0000'1000ull;

// Instructions by opcode (only `op`, `space` and flags matter to the memory system).
const ir::Instr& instr(ir::Op op, uint32_t flags = 0, uint8_t numSrc = 0);

// A warp memory instruction: lane l accesses base + stride * l (lanes of `mask`).
func::ExecRecord record(ir::Op op, ir::Space space, uint64_t base, uint64_t stride,
                        uint8_t bytes = 4, uint32_t mask = ~0u);

class Harness {
 public:
  explicit Harness(const MemoryParams& params);
  MemorySystemImpl& system() { return *system_; }
  SmMemoryUnit& unit(uint32_t sm = 0) { return system_->unit(sm); }
  Cycle now() const { return now_; }

  // Hands `r` to SM `sm` at the current cycle (it must be accepted).
  void issue(const func::ExecRecord& r, uint32_t token, uint32_t sm = 0);
  // One core cycle: advanceTo its start, every SM's cycle, completions collected.
  void step();
  // Steps until `token` completes; returns the cycle it completed at (kNever after `limit`).
  Cycle runUntil(uint32_t token, Cycle limit = 100000);
  // Steps until the whole system is idle.
  void drain(Cycle limit = 100000);
  // Cycles from issue to completion of one instruction issued now.
  Cycle latencyOf(const func::ExecRecord& r, uint32_t token, uint32_t sm = 0);
  bool completed(uint32_t token) const { return done_.count(token) != 0; }

 private:
  BaselineMemoryPlugins plugins_;
  std::unique_ptr<MemorySystemImpl> system_;
  ClockDomain core_;
  uint32_t sms_;
  Cycle now_ = 0;
  std::map<uint32_t, Cycle> done_;
};

// ---- definitions ----

inline MemoryParams tinyParams() {
  MemoryParams p;
  p.numSms = 1;
  p.clocks = ClockParams{1000, 1000, 1000, 1000};
  p.l1.hitLatency = 5;
  p.shared.latency = 3;
  p.constant.hitLatency = 2;
  p.icnt.latency = 10;
  p.l2.cache.sizeBytes = 128 * 1024;
  p.l2.hitLatency = 20;
  p.l2.atomicLatency = 7;
  p.dram.channels = 1;
  p.dram.returnLatency = 0;
  return p;
}

inline const ir::Instr& instr(ir::Op op, uint32_t flags, uint8_t numSrc) {
  static std::deque<ir::Instr> made;  // stable addresses
  for (const ir::Instr& in : made) {
    if (in.op == op && in.flags == flags && in.numSrc == numSrc) return in;
  }
  ir::Instr in;
  in.op = op;
  in.flags = flags;
  in.numSrc = numSrc;
  made.push_back(in);
  return made.back();
}

inline func::ExecRecord record(ir::Op op, ir::Space space, uint64_t base, uint64_t stride,
                               uint8_t bytes, uint32_t mask) {
  func::ExecRecord r;
  r.instr = &instr(op);
  r.issueMask = r.execMask = mask;
  r.space = space;
  r.accessBytes = bytes;
  r.isStore = op == ir::Op::St;
  r.isAtomic = op == ir::Op::Atom || op == ir::Op::Red;
  for (int l = 0; l < 32; ++l) {
    r.addr[l] = base + stride * l;
    r.laneSpace[l] = space;
  }
  return r;
}

inline Harness::Harness(const MemoryParams& params)
    : system_(std::make_unique<MemorySystemImpl>(params, plugins_)),
      core_(ClockDomain::fromMhz(params.clocks.coreMhz)),
      sms_(params.numSms) {}

inline void Harness::issue(const func::ExecRecord& r, uint32_t token, uint32_t sm) {
  if (!unit(sm).canAccept(r)) throw std::runtime_error("instruction not accepted");
  unit(sm).accept(r, token, now_);
}

inline void Harness::step() {
  system_->advanceTo(core_.timeOf(now_));
  for (uint32_t s = 0; s < sms_; ++s) {
    unit(s).cycle(now_);
    unit(s).portCycle(now_);  // the port's step when it shares banks with a register file
    uint32_t token;
    while (unit(s).popCompleted(token)) done_[token] = now_;
  }
  ++now_;
}

inline Cycle Harness::runUntil(uint32_t token, Cycle limit) {
  while (!completed(token) && now_ < limit) step();
  return completed(token) ? done_[token] : kNever;
}

inline void Harness::drain(Cycle limit) {
  while (!system_->idle() && now_ < limit) step();
}

inline Cycle Harness::latencyOf(const func::ExecRecord& r, uint32_t token, uint32_t sm) {
  const Cycle start = now_;
  issue(r, token, sm);
  const Cycle end = runUntil(token);
  return end == kNever ? kNever : end - start;
}

}  // namespace warpsim::timing::mem::testing
