#include "timing/sm/assist/assist_warp_controller.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

namespace {

constexpr uint32_t kMaxEntries = 256;  // the entry index is the tag's top byte

uint32_t indexOf(IAssistWarp::Priority p) { return p == IAssistWarp::Priority::High ? 0 : 1; }

}  // namespace

AssistControllerParams readAssistControllerParams(config::Section s) {
  AssistControllerParams p;
  p.tableEntries = s.u32("table_entries", p.tableEntries,
                         "assist warp table entries per SM (triggered instances)", 1, kMaxEntries);
  p.deployWidth = s.u32("deploy_width", p.deployWidth,
                        "assist instructions moved into the assist warp buffer per cycle", 1, 32);
  p.highBuffer = s.u32("high_buffer", p.highBuffer,
                       "buffer entries of a parent warp's partition for its high-priority "
                       "assist instructions",
                       1, 64);
  p.lowBuffer = s.u32("low_buffer", p.lowBuffer,
                      "buffer entries of the SM's low-priority assist partition", 1, 64);
  return p;
}

AssistWarpController::AssistWarpController(const AssistRoutineStore& store,
                                           const AssistControllerParams& params,
                                           uint32_t schedulers, uint32_t warpSlots)
    : store_(store),
      params_(params),
      schedulers_(std::max<uint32_t>(schedulers, 1)),
      executor_(store),
      entries_(std::min(params.tableEntries, kMaxEntries)),
      highLive_(warpSlots, 0),
      highBuffered_(warpSlots, 0) {
  size_t regs = 1;
  for (const ir::Function& f : store.program().module().functions)
    regs = std::max(regs, f.regs.size());
  for (Entry& e : entries_) {
    e.pendingRegs.assign((regs + 63) / 64, 0);
    e.steps.reserve(128);
  }
  finished_.reserve(entries_.size());
}

void AssistWarpController::beginKernel(uint32_t registerBase) {
  registerBase_ = registerBase;
  for (uint32_t i = 0; i < entries_.size(); ++i) kill(i);
  finished_.clear();
  finishedHead_ = 0;
}

int AssistWarpController::trigger(uint32_t routine, uint32_t parentSlot, Priority priority,
                                  uint32_t activeMask, const uint8_t* staging,
                                  uint32_t stagingBytes, const uint64_t* liveIns,
                                  uint32_t numLiveIns, uint64_t cookie) {
  const uint32_t p = indexOf(priority);
  if (live_ == entries_.size()) {
    ++counters_.refused[p];
    return -1;
  }
  if (!executor_.run(routine, activeMask, staging, stagingBytes, liveIns, numLiveIns))
    throw std::runtime_error("internal error: " + executor_.error());
  uint32_t i = 0;
  while (entries_[i].live) ++i;
  Entry& e = entries_[i];
  e.live = true;
  e.priority = priority;
  e.parentSlot = parentSlot;
  e.scheduler = parentSlot % schedulers_;
  e.cookie = cookie;
  e.steps.assign(executor_.steps().begin(), executor_.steps().end());
  e.deployed = e.issued = e.completed = 0;
  std::fill(e.pendingRegs.begin(), e.pendingRegs.end(), 0);
  e.pendingPreds = 0;
  if (priority == Priority::High) ++highLive_[parentSlot];
  ++live_;
  ++counters_.triggered[p];
  return static_cast<int>(i);
}

void AssistWarpController::kill(uint32_t entry) {
  Entry& e = entries_[entry];
  if (!e.live) return;
  const uint32_t buffered = e.deployed - e.issued;
  if (e.priority == Priority::High) {
    highBuffered_[e.parentSlot] -= buffered;
    --highLive_[e.parentSlot];
  } else {
    lowBuffered_ -= buffered;
  }
  ++counters_.killed[indexOf(e.priority)];
  ++e.generation;
  e.live = false;
  --live_;
}

void AssistWarpController::finish(uint32_t entry) {
  Entry& e = entries_[entry];
  if (e.priority == Priority::High) --highLive_[e.parentSlot];
  ++counters_.completed[indexOf(e.priority)];
  finished_.push_back(e.cookie);
  ++e.generation;
  e.live = false;
  --live_;
}

bool AssistWarpController::popFinished(uint64_t& cookie) {
  if (finishedHead_ == finished_.size()) {
    finished_.clear();
    finishedHead_ = 0;
    return false;
  }
  cookie = finished_[finishedHead_++];
  return true;
}

uint32_t AssistWarpController::bufferRoom(const Entry& e) const {
  const uint32_t used = e.priority == Priority::High ? highBuffered_[e.parentSlot] : lowBuffered_;
  const uint32_t size = e.priority == Priority::High ? params_.highBuffer : params_.lowBuffer;
  return used < size ? size - used : 0;
}

void AssistWarpController::deploy(Cycle now) {
  if (lastDeploy_ == now) return;
  lastDeploy_ = now;
  const uint32_t n = static_cast<uint32_t>(entries_.size());
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = (deployCursor_ + k) % n;
    Entry& e = entries_[i];
    if (!e.live || e.deployed == e.steps.size()) continue;
    const uint32_t room = bufferRoom(e);
    if (room == 0) continue;
    const uint32_t moved = std::min({params_.deployWidth, room,
                                     static_cast<uint32_t>(e.steps.size()) - e.deployed});
    e.deployed += moved;
    if (e.priority == Priority::High) {
      highBuffered_[e.parentSlot] += moved;
    } else {
      lowBuffered_ += moved;
    }
    deployCursor_ = (i + 1) % n;
    return;
  }
}

bool AssistWarpController::ready(const Entry& e) const {
  if (e.issued == e.deployed) return false;
  const DecodedInstr& d = *e.steps[e.issued].instr;
  for (uint32_t k = 0; k < d.numSrc; ++k)
    if (e.pendingRegs[d.src[k] / 64] >> (d.src[k] % 64) & 1) return false;
  for (uint32_t k = 0; k < d.numDst; ++k)  // one pending write per register (no WAW)
    if (e.pendingRegs[d.dst[k] / 64] >> (d.dst[k] % 64) & 1) return false;
  for (uint32_t k = 0; k < d.numPredSrc; ++k)
    if (d.predSrc[k] < 64 && (e.pendingPreds >> d.predSrc[k] & 1)) return false;
  for (uint32_t k = 0; k < d.numPredDst; ++k)
    if (d.predDst[k] < 64 && (e.pendingPreds >> d.predDst[k] & 1)) return false;
  return true;
}

bool AssistWarpController::next(uint32_t scheduler, Priority priority, Cycle now, AssistInstr& out) {
  if (live_ == 0) return false;
  deploy(now);
  const uint32_t p = indexOf(priority);
  const uint32_t n = static_cast<uint32_t>(entries_.size());
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = (issueCursor_[p] + k) % n;
    const Entry& e = entries_[i];
    if (!e.live || e.priority != priority || e.scheduler != scheduler % schedulers_ || !ready(e))
      continue;
    const AssistStep& s = e.steps[e.issued];
    const DecodedInstr& d = *s.instr;
    out = AssistInstr{};
    // Loads and stores of the routine reach the line in the L1 through the assist path, not the
    // program's load/store unit (whose queue may be full of the very loads the routine serves:
    // sharing it could deadlock): they take an ALU issue slot and latency.
    out.unit = d.unit == UnitClass::Lsu ? UnitClass::Alu : d.unit;
    out.parentSlot = e.parentSlot;
    out.activeMask = s.execMask;
    out.numSrc = static_cast<uint8_t>(std::min<uint32_t>(d.numSrc, 3));
    for (uint32_t r = 0; r < out.numSrc; ++r) out.srcRegs[r] = registerBase_ + d.src[r];
    out.numDst = static_cast<uint8_t>(std::min<uint32_t>(d.numDst, 2));
    for (uint32_t r = 0; r < out.numDst; ++r) out.dstRegs[r] = registerBase_ + d.dst[r];
    out.tag = tagOf(i, e.generation, e.issued);
    return true;
  }
  return false;
}

void AssistWarpController::onIssued(const AssistInstr& instr, Cycle) {
  const uint32_t i = instr.tag >> 24;
  Entry& e = entries_[i];
  if (!e.live || e.generation != ((instr.tag >> 16) & 0xFF)) return;
  const DecodedInstr& d = *e.steps[e.issued].instr;
  for (uint32_t k = 0; k < d.numDst; ++k) e.pendingRegs[d.dst[k] / 64] |= uint64_t{1} << (d.dst[k] % 64);
  for (uint32_t k = 0; k < d.numPredDst; ++k)
    if (d.predDst[k] < 64) e.pendingPreds |= uint64_t{1} << d.predDst[k];
  ++e.issued;
  if (e.priority == Priority::High) {
    --highBuffered_[e.parentSlot];
  } else {
    --lowBuffered_;
  }
  ++counters_.instructions[indexOf(e.priority)];
  issueCursor_[indexOf(e.priority)] = (i + 1) % static_cast<uint32_t>(entries_.size());
}

void AssistWarpController::onCompleted(uint32_t tag, Cycle) {
  const uint32_t i = tag >> 24;
  if (i >= entries_.size()) return;
  Entry& e = entries_[i];
  if (!e.live || e.generation != ((tag >> 16) & 0xFF)) return;  // killed meanwhile
  const DecodedInstr& d = *e.steps[tag & 0xFFFF].instr;
  for (uint32_t k = 0; k < d.numDst; ++k)
    e.pendingRegs[d.dst[k] / 64] &= ~(uint64_t{1} << (d.dst[k] % 64));
  for (uint32_t k = 0; k < d.numPredDst; ++k)
    if (d.predDst[k] < 64) e.pendingPreds &= ~(uint64_t{1} << d.predDst[k]);
  if (++e.completed == e.steps.size()) finish(i);
}

Cycle AssistWarpController::nextEvent(Cycle now) const {
  if (live_ == 0) return kNever;
  for (const Entry& e : entries_) {
    if (!e.live) continue;
    if (e.deployed < e.steps.size() && bufferRoom(e) > 0) return now;
    if (ready(e)) return now;
  }
  return kNever;
}

void AssistWarpController::reportStats(nlohmann::json& out) const {
  auto pair = [](const uint64_t (&v)[2]) { return nlohmann::json{{"high", v[0]}, {"low", v[1]}}; };
  out["triggered"] = pair(counters_.triggered);
  out["refused"] = pair(counters_.refused);
  out["killed"] = pair(counters_.killed);
  out["completed"] = pair(counters_.completed);
  out["routine_instructions"] = pair(counters_.instructions);
}

}  // namespace warpsim::timing
