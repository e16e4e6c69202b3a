// Construction and the public face of the SM; the stages live in sm_frontend.cpp (fetch),
// sm_issue.cpp (schedulers, issue), sm_backend.cpp (collectors, units, write-back, memory) and
// sm_stats.cpp (accounting, reports).
#include "timing/sm/sm.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "timing/plugin_registry.h"
#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

namespace {

config::Tree& treeOf(const SmContext& c) {
  if (!c.tree) throw config::Error("config: error: SM built without a configuration");
  return *c.tree;
}

}  // namespace

UnitGroup& groupOf(Sm::Impl& sm, uint32_t partition, UnitClass unit) {
  return sm.groups[partition * kNumUnitClasses + static_cast<unsigned>(unit)];
}

Sm::Impl::Impl(const SmContext& context)
    : id(context.id),
      params(readSmParams(treeOf(context).section("sm"))),
      memory(context.memory),
      system(context.system),
      icache(params.icacheBytes, params.icacheAssoc, params.icacheLine, params.icacheMissLatency) {
  if (!context.registry) throw config::Error("config: error: SM built without a plug-in registry");
  if (!memory) throw config::Error("config: error: SM built without a memory pipeline");
  config::Section sm = context.tree->section("sm");
  const uint32_t parts = params.partitions();
  if (context.resources && context.resources->warpGranular()) {
    manager = context.resources;
    // The manager may keep more warps resident than there are physical warp slots.
    if (const uint32_t contexts = manager->warpContexts(); contexts != 0) params.maxWarps = contexts;
  }

  if (params.storageBanks.shared) {
    const StorageBankParams& b = params.storageBanks;
    storageBanks = std::make_unique<StorageBanks>(b.clusters, b.banksPerCluster, b.rowBytes);
    memory->shareBanks(storageBanks.get());
  }
  rf = context.registry->make<IRegisterFile>(
      params.registerFile, {sm.sub("register_file"), id, params.maxWarps, parts, &passRequests, storageBanks.get()});
  for (uint32_t s = 0; s < params.schedulers; ++s)
    schedulers.push_back(context.registry->make<IWarpScheduler>(params.scheduler,
                                                                {sm.sub("warp_scheduler"), s, params.maxWarps, &passRequests}));
  assist = context.registry->make<IAssistWarp>(
      params.assistWarp,
      {sm.sub("assist_warp"), id, params.schedulers, params.maxWarps, context.tree, memory});
  assistActive = assist->active();

  slots.resize(params.maxWarps);
  hazard.resize(params.maxWarps);
  blockedReason.assign(params.maxWarps, Stall::Empty);
  readyUnit.assign(params.maxWarps, UnitClass::Alu);
  slotPartition.resize(params.maxWarps);
  for (uint32_t s = 0; s < params.maxWarps; ++s)
    slotPartition[s] = static_cast<uint8_t>(params.subCores ? s % params.schedulers : 0);
  ctas.resize(params.maxWarps);
  freeSlots = params.maxWarps == 64 ? ~uint64_t{0} : (uint64_t{1} << params.maxWarps) - 1;
  schedulerMask.assign(params.schedulers, 0);
  for (uint32_t s = 0; s < params.maxWarps; ++s) schedulerMask[s % params.schedulers] |= uint64_t{1} << s;
  fetchNext.assign(params.schedulers, 0);
  lastReason.assign(params.schedulers, Stall::Empty);
  retired.reserve(params.maxWarps);

  // Units: per partition, each class gets count / partitions instances; the ring holds every
  // instruction that can be in flight in them.
  groups.resize(size_t{parts} * kNumUnitClasses);
  uint32_t lsuCapacity = 0;
  for (uint32_t p = 0; p < parts; ++p) {
    for (unsigned c = 0; c < kNumUnitClasses; ++c) {
      const UnitParams& u = params.units[c];
      UnitGroup& g = groups[p * kNumUnitClasses + c];
      g.instances = u.count / parts;
      g.latency = u.latency;
      g.interval = u.interval;
      g.nextFree.assign(g.instances, 0);
      const uint32_t depth = g.instances * ((u.latency + u.interval - 1) / u.interval + 1) + 1;
      g.ring.resize(depth);
      if (static_cast<UnitClass>(c) == UnitClass::Lsu) lsuCapacity += depth;
    }
  }
  const uint32_t collectors = rf->collectorsPerPartition() * parts;
  collectorOwner.assign(collectors, kNone);
  // A memory instruction keeps its record from issue until hand-over: it sits in a collector or
  // in the load/store pipeline meanwhile.
  memRecords.resize(collectors + lsuCapacity);
  storeCopies.resize(memRecords.size());
  freeRecords.reserve(memRecords.size());
  for (uint32_t r = static_cast<uint32_t>(memRecords.size()); r-- > 0;) freeRecords.push_back(r);
  inflight.reserve(1024);
  freeInflight.reserve(1024);
  scoreboard.resize(params.maxWarps, 1, 1);
  if (manager) {
    offChip.assign(params.maxWarps, 0);
    manager->attach(*this);
  }
}

Sm::Sm(const SmContext& context) : impl_(std::make_unique<Impl>(context)) {}
Sm::~Sm() = default;

const PassRequests& Sm::passRequests() const { return impl_->passRequests; }

uint32_t Sm::assistRegistersPerThread() const {
  return impl_->assistActive ? impl_->assist->extraRegistersPerThread() : 0;
}

void Sm::beginKernel(func::GridContext& grid, Cycle start, const InstructionAnnotations* annotations) {
  Impl& m = *impl_;
  m.grid = &grid;
  if (m.program != grid.program) m.icache.invalidate();
  m.program = grid.program;
  m.decoded.build(*grid.program, m.params.instructionBytes, m.params.icacheLine);
  m.scoreboard.resize(m.params.maxWarps, m.decoded.maxRegs(), m.decoded.maxPreds());
  const InstructionAnnotations& notes = annotations ? *annotations : m.noAnnotations;
  m.rf->beginKernel({m.decoded.maxRegs(), &notes});
  for (auto& s : m.schedulers) s->beginKernel(notes);
  if (m.assistActive) m.assist->beginKernel({m.decoded.maxRegs(), grid.memory});
  m.phases = m.manager ? notes.find<ResourcePhase>(kResourcePhases) : nullptr;
  m.held = 0;
  m.offChipSlots = 0;
  std::fill(m.offChip.begin(), m.offChip.end(), 0);
  m.error.clear();
  m.resetCounters();
  m.accounted = start;
}

void Sm::finishKernel(Cycle end) { impl_->accountUntil(end); }

void Sm::admit(func::Cta& cta, Cycle now) {
  Impl& m = *impl_;
  m.accountUntil(now);
  const uint32_t n = cta.numWarps();
  if (static_cast<uint32_t>(std::popcount(m.freeSlots)) < n) {
    m.error = fmt::format("SM {}: CTA {} needs {} warp slots, {} free", m.id, cta.ctaLinear(), n,
                          std::popcount(m.freeSlots));
    return;
  }
  uint32_t entry = 0;
  while (m.ctas[entry].cta != nullptr) ++entry;
  m.ctas[entry] = {&cta, n};
  ++m.residentCtas;
  cta.setSmId(m.id);
  for (uint32_t i = 0; i < n; ++i) {
    const auto slot = static_cast<uint32_t>(std::countr_zero(m.freeSlots));
    m.freeSlots &= m.freeSlots - 1;
    WarpSlot& w = m.slots[slot];
    func::Warp& warp = cta.warp(i);
    w = WarpSlot{};
    w.warp = &warp;
    w.cta = entry;
    w.scheduler = slot % m.params.schedulers;
    w.partition = m.params.subCores ? w.scheduler : 0;
    w.live = true;
    w.exited = warp.done();
    w.fn = warp.function();
    w.fetchPc = warp.pc();
    m.scoreboard.clearSlot(slot);
    m.hazardValid &= ~(uint64_t{1} << slot);
    m.blocked &= ~(uint64_t{1} << slot);
    m.unblocked &= ~(uint64_t{1} << slot);
    m.rf->onWarpStart(slot);
    if (!w.exited) m.schedulers[w.scheduler]->addWarp(slot, m.nextAge++);
    m.updateFetchNeed(slot);
    if (m.manager && !w.exited) {
      m.held |= uint64_t{1} << slot;
      const ResourcePhase* first = m.phases ? &m.phases->at(w.fn, w.fetchPc) : nullptr;
      w.phase = first ? first->phase : 0;
      m.manager->onWarpStart(slot, cta.ctaLinear(), first, now);
    }
  }
  m.nextWake = now;
}

void Sm::cycle(Cycle now) {
  if (impl_->manager) impl_->manager->tick(now);
  impl_->cycle(now);
}

void Sm::Impl::setSchedulable(uint32_t slot, bool schedulable) {
  const uint64_t bit = uint64_t{1} << slot;
  if (((held & bit) == 0) == schedulable) return;
  held ^= bit;
  blocked &= ~bit;
  unblocked &= ~bit;
  nextWake = std::min(nextWake, now);
}

void Sm::Impl::setOffChipRegisters(uint32_t slot, uint64_t sets) {
  const uint64_t bit = uint64_t{1} << slot;
  offChip[slot] = sets;
  offChipSlots = sets ? offChipSlots | bit : offChipSlots & ~bit;
  blocked &= ~bit;
  unblocked &= ~bit;
  nextWake = std::min(nextWake, now);
}

void Sm::Impl::spendIssueSlot(uint32_t slot) {
  if (slots[slot].managerIssues < UINT8_MAX) ++slots[slot].managerIssues;
}

Stall Sm::Impl::offChipStall(uint32_t slot) {
  const WarpSlot& w = slots[slot];
  if (!phases || w.exited || w.atBarrier || w.ibCount == 0) return Stall::Issued;
  const uint64_t sets = phases->at(w.fn, w.ibPc[w.ibHead]).instructionSets & offChip[slot];
  if (sets == 0) return Stall::Issued;
  manager->onOffChipRegisters(slot, sets, now);
  return Stall::Resources;
}

WarpGate::IssueActivity Sm::Impl::issueActivity() const {
  IssueActivity a;
  for (unsigned s = 0; s < kNumStalls; ++s) {
    const Stall st = static_cast<Stall>(s);
    if (st == Stall::Issued) {
      a.issued += issueCounts[s];
    } else if (st == Stall::Memory) {
      a.memory += issueCounts[s];
    } else if (st != Stall::Pipeline && st != Stall::Collector && st != Stall::Assist) {
      a.idle += issueCounts[s];
    }
  }
  return a;
}

void Sm::Impl::notePhase(uint32_t slot) {
  WarpSlot& w = slots[slot];
  const ResourcePhase& next = phases->at(w.warp->function(), w.warp->pc());
  if (next.phase == 0 || next.phase == w.phase) return;
  w.phase = next.phase;
  manager->onPhaseChange(slot, next, now);
}

bool Sm::popRetired(func::Cta*& cta) {
  Impl& m = *impl_;
  if (m.retiredHead == m.retired.size()) {
    m.retired.clear();
    m.retiredHead = 0;
    return false;
  }
  cta = m.retired[m.retiredHead++];
  return true;
}

bool Sm::idle() const {
  const Impl& m = *impl_;
  return m.residentCtas == 0 && m.retiredHead == m.retired.size() &&
         m.freeInflight.size() == m.inflight.size() && m.managerTrafficIdle();
}

uint32_t Sm::residentCtas() const { return impl_->residentCtas; }
uint32_t Sm::freeWarpSlots() const { return static_cast<uint32_t>(std::popcount(impl_->freeSlots)); }

Cycle Sm::nextEvent(Cycle now) const {
  const Impl& m = *impl_;
  if (!m.error.empty()) return now;
  Cycle next = std::min(m.nextWake, m.memory->nextEvent(now));
  if (m.managerHead != m.managerQueue.size()) next = now;
  if (m.assistActive) next = std::min(next, m.assist->nextEvent(now));
  return std::max(next, now);
}

const std::string& Sm::error() const { return impl_->error; }
uint64_t Sm::issuedInstructions() const { return impl_->warpInstructions; }
std::string Sm::describeWarps() const { return impl_->describeWarps(); }
void Sm::reportStats(nlohmann::json& out) const { impl_->reportStats(out); }
void Sm::setTrace(SmTrace* trace) { impl_->trace = trace; }

}  // namespace warpsim::timing
