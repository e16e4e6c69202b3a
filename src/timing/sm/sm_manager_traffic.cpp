// Memory traffic of a warp-granular resource manager (its swap space, i_resource_manager.h):
// line-sized warp accesses queued by WarpGate::moveData, handed to the memory pipeline one per
// cycle when it can take them, after the load/store unit's own hand-over; completions go back
// to the manager.
#include "func/warp.h"
#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

void Sm::Impl::moveData(uint64_t address, bool store, uint32_t tag) {
  if (managerHead == managerQueue.size()) {
    managerQueue.clear();
    managerHead = 0;
  }
  managerQueue.push_back({address, tag, store});
  nextWake = std::min(nextWake, now);
}

uint64_t* Sm::Impl::warpRegisters(uint32_t slot, uint32_t* count) {
  func::Warp* warp = slots[slot].warp;
  if (warp == nullptr || warp->done()) {
    *count = 0;
    return nullptr;
  }
  // Value registers come first; the hidden constant registers (no name) follow them.
  const ir::Function& f = program->module().functions[warp->function()];
  uint32_t n = 0;
  while (n < f.regs.size() && !f.regs[n].name.empty()) ++n;
  *count = n;
  return warp->ctx().regs;
}

void Sm::Impl::managerTraffic(Cycle t) {
  if (managerHead == managerQueue.size()) return;
  const ManagerAccess& a = managerQueue[managerHead];
  func::ExecRecord& r = managerRecord;
  if (managerLoad.op != ir::Op::Ld) {
    managerLoad.op = ir::Op::Ld;
    managerStore.op = ir::Op::St;
    managerLoad.space = managerStore.space = ir::Space::Global;
    managerLoad.type = managerStore.type = ir::Type::B32;
    r.space = ir::Space::Global;
    r.accessBytes = 4;
    r.issueMask = r.execMask = 0xFFFFFFFFu;
    r.numStoreRegs = 1;
    for (unsigned lane = 0; lane < 32; ++lane) r.laneSpace[lane] = ir::Space::Global;
  }
  r.instr = a.store ? &managerStore : &managerLoad;
  r.isStore = a.store;
  r.storeValues[0] = nullptr;  // the swap path moves the values itself
  for (unsigned lane = 0; lane < 32; ++lane) r.addr[lane] = a.address + 4 * lane;
  if (!memory->canAccept(r)) return;
  uint32_t token;
  if (freeManagerTokens.empty()) {
    token = static_cast<uint32_t>(managerTags.size());
    managerTags.push_back(a.tag);
  } else {
    token = freeManagerTokens.back();
    freeManagerTokens.pop_back();
    managerTags[token] = a.tag;
  }
  memory->accept(r, kManagerToken | token, t);
  ++managerInFlight;
  ++managerHead;
  progress = true;
}

}  // namespace warpsim::timing
