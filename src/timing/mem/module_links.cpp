#include "timing/mem/module_links.h"

#include <algorithm>
#include <cmath>

namespace warpsim::timing::mem {

ModuleLinks::ModuleLinks(uint32_t modules, const ModuleLinkParams& params, double icntMhz,
                         uint32_t headerBytes, PacketPool& pool, const LinkNetwork& requests,
                         const LinkNetwork& replies)
    : params_(params),
      pool_(pool),
      nets_{requests, replies},
      modules_(modules),
      headerBytes_(headerBytes),
      rate_(std::max<uint64_t>(
          1, static_cast<uint64_t>(std::llround(params.gbps * 1000.0 / icntMhz *
                                                static_cast<double>(1u << kFrac))))),
      outFree_(modules, 0),
      inFree_(modules, 0),
      nextNet_(modules, 0) {
  arrive_.reserve(size_t{modules} * 2);
  for (uint32_t i = 0; i < modules * 2; ++i) arrive_.emplace_back(params.queue);
  resetStats();
}

void ModuleLinks::resetStats() {
  stats_ = ModuleLinkStats{};
  stats_.outBytes.assign(modules_, 0);
  stats_.inBytes.assign(modules_, 0);
}

uint32_t ModuleLinks::flitsPerCycle(uint32_t flitBytes) const {
  const uint64_t perFlit = uint64_t{flitBytes} << kFrac;
  return static_cast<uint32_t>(std::max<uint64_t>(1, (rate_ + perFlit - 1) / perFlit));
}

bool ModuleLinks::waiting() const {
  for (const LinkNetwork& n : nets_) {
    for (uint32_t m = 0; m < modules_; ++m) {
      if (n.net->hasPacket(n.outBase + m)) return true;
    }
  }
  return false;
}

uint32_t ModuleLinks::destinationOf(uint32_t k, uint32_t packet) const {
  const Packet& p = pool_[packet];
  return (nets_[k].replies ? p.sm : p.slice) / nets_[k].targetsPerModule;
}

void ModuleLinks::deliver(Cycle now) {
  for (uint32_t m = 0; m < modules_; ++m) {
    for (uint32_t k = 0; k < 2; ++k) {
      RingBuffer<Flight>& a = arrive_[m * 2 + k];
      const LinkNetwork& n = nets_[k];
      while (!a.empty() && a.front().arrival <= now && n.net->canInject(n.inBase + m)) {
        Packet& p = pool_[a.front().packet];
        p.port = n.replies ? p.sm : p.slice;
        n.net->inject(n.inBase + m, a.front().packet);
        a.pop();
        --inFlight_;
      }
    }
  }
}

bool ModuleLinks::trySend(uint32_t m, Cycle now) {
  const uint64_t cycleEnd = (now + 1) << kFrac;
  if (outFree_[m] >= cycleEnd) return false;
  for (uint32_t j = 0; j < 2; ++j) {
    const uint32_t k = (nextNet_[m] + j) % 2;
    const LinkNetwork& n = nets_[k];
    if (!n.net->hasPacket(n.outBase + m)) continue;
    const uint32_t packet = n.net->front(n.outBase + m);
    const uint32_t d = destinationOf(k, packet);
    RingBuffer<Flight>& a = arrive_[d * 2 + k];
    if (inFree_[d] >= cycleEnd || a.full()) continue;
    const uint64_t bytes = headerBytes_ + pool_[packet].bytes;
    const uint64_t start = std::max({now << kFrac, outFree_[m], inFree_[d]});
    const uint64_t finish = start + ((bytes << (2 * kFrac)) + rate_ - 1) / rate_;
    outFree_[m] = inFree_[d] = finish;
    const Cycle lastCycle = ((finish + (1u << kFrac) - 1) >> kFrac) - 1;
    a.push(Flight{packet, lastCycle + params_.latency});
    n.net->pop(n.outBase + m);
    ++inFlight_;
    ++moved_;
    nextNet_[m] = static_cast<uint8_t>(1 - k);
    ++stats_.packets;
    stats_.outBytes[m] += bytes;
    stats_.inBytes[d] += bytes;
    (n.replies ? stats_.replyBytes : stats_.requestBytes) += bytes;
    return true;
  }
  return false;
}

void ModuleLinks::cycle(Cycle now) {
  if (inFlight_ != 0) deliver(now);
  for (uint32_t i = 0; i < modules_; ++i) {
    const uint32_t m = (firstModule_ + i) % modules_;
    bool sent = false;
    while (trySend(m, now)) sent = true;
    if (!sent && (nets_[0].net->hasPacket(nets_[0].outBase + m) ||
                  nets_[1].net->hasPacket(nets_[1].outBase + m))) {
      ++stats_.stallCycles;
    }
  }
  firstModule_ = (firstModule_ + 1) % modules_;
}

Cycle ModuleLinks::nextWorkCycle(Cycle now) const {
  if (waiting()) return now;
  if (inFlight_ == 0) return kNever;
  Cycle next = kNever;
  for (const auto& a : arrive_) {
    if (!a.empty()) next = std::min(next, a.front().arrival);
  }
  return std::max(next, now);
}

}  // namespace warpsim::timing::mem
