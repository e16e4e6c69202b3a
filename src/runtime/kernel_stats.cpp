#include "runtime/kernel_stats.h"

#include <bit>

#include "func/address_space.h"

namespace warpsim::runtime {

namespace {

// Bit count of a lane mask. Written out because std::popcount compiles to a library call
// unless the build targets a CPU with POPCNT, and this runs once per warp-instruction.
inline unsigned lanes(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0F0F0F0Fu;
  return (m * 0x01010101u) >> 24;
}

}  // namespace

std::unique_ptr<func::ExecObserver> KernelStatsObserver::newPart() const {
  return std::make_unique<KernelStatsObserver>();
}

void KernelStats::add(const KernelStats& p) {
  warpInstructions += p.warpInstructions;
  activeLanes += p.activeLanes;
  executedLanes += p.executedLanes;
  for (size_t c = 0; c < kNumOpClasses; ++c) classMix[c] += p.classMix[c];
  for (size_t k = 0; k < kNumSpaces; ++k) {
    traffic[k].instructions += p.traffic[k].instructions;
    traffic[k].laneAccesses += p.traffic[k].laneAccesses;
    traffic[k].bytes += p.traffic[k].bytes;
  }
  loads += p.loads;
  stores += p.stores;
  atomics += p.atomics;
  branches += p.branches;
  divergentBranches += p.divergentBranches;
  spill.loads += p.spill.loads;
  spill.stores += p.spill.stores;
  spill.loadBytes += p.spill.loadBytes;
  spill.storeBytes += p.spill.storeBytes;
}

void KernelStatsObserver::addPart(const func::ExecObserver& part) {
  stats_.add(static_cast<const KernelStatsObserver&>(part).stats_);
}

void KernelStatsObserver::onExec(const func::ExecRecord& r) {
  ++stats_.warpInstructions;
  stats_.activeLanes += lanes(r.issueMask);
  unsigned executed = lanes(r.execMask);
  stats_.executedLanes += executed;
  if (r.instr != nullptr) ++stats_.classMix[static_cast<size_t>(ir::opClass(*r.instr))];
  if (r.accessBytes != 0) {
    if (r.space == ir::Space::Generic) {
      countGeneric(r);
    } else {
      SpaceTraffic& t = stats_.traffic[static_cast<size_t>(r.space)];
      ++t.instructions;
      t.laneAccesses += executed;
      t.bytes += static_cast<uint64_t>(executed) * r.accessBytes;
      if (r.space == ir::Space::Local && r.instr->has(ir::kSpill)) countSpill(r, executed);
    }
    if (r.isAtomic) {
      ++stats_.atomics;
    } else if (r.isStore) {
      ++stats_.stores;
    } else {
      ++stats_.loads;
    }
  }
  if (r.isBranch) {
    ++stats_.branches;
    if (r.diverged) ++stats_.divergentBranches;
  }
}

void KernelStatsObserver::countSpill(const func::ExecRecord& r, unsigned executed) {
  const uint64_t bytes = uint64_t{executed} * r.accessBytes;
  if (r.isStore) {
    ++stats_.spill.stores;
    stats_.spill.storeBytes += bytes;
  } else {
    ++stats_.spill.loads;
    stats_.spill.loadBytes += bytes;
  }
}

void KernelStatsObserver::countGeneric(const func::ExecRecord& r) {
  // Each lane's generic address falls in one window (func/address_space.h): attribute the lane
  // to that space, and the instruction to every space one of its lanes touched.
  uint32_t touched = 0;
  for (uint32_t m = r.execMask; m != 0; m &= m - 1) {
    unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    ir::Space s = func::genericSpace(r.addr[lane]);
    SpaceTraffic& t = stats_.traffic[static_cast<size_t>(s)];
    ++t.laneAccesses;
    t.bytes += r.accessBytes;
    touched |= 1u << static_cast<unsigned>(s);
  }
  for (size_t s = 0; s < kNumSpaces; ++s) {
    if (touched & (1u << s)) ++stats_.traffic[s].instructions;
  }
}

const char* spaceName(ir::Space s) {
  switch (s) {
    case ir::Space::None: return "none";
    case ir::Space::Generic: return "generic";
    case ir::Space::Global: return "global";
    case ir::Space::Shared: return "shared";
    case ir::Space::Local: return "local";
    case ir::Space::Const: return "const";
    case ir::Space::KernelParam: return "param";
    case ir::Space::FrameParam: return "frame";
  }
  return "?";
}

}  // namespace warpsim::runtime
