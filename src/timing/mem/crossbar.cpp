#include "timing/mem/crossbar.h"

#include <algorithm>
#include <bit>

namespace warpsim::timing::mem {

Crossbar::Crossbar(uint32_t inputs, uint32_t outputs, const IcntParams& params, PacketPool& pool)
    : params_(params),
      pool_(pool),
      inputs_(inputs),
      outputs_(outputs),
      inWords_((inputs + 63) / 64),
      outWords_((outputs + 63) / 64),
      inputFree_(inputs, 0),
      outputFree_(outputs, 0),
      inWidth_(inputs, params.flitsPerCycle),
      outWidth_(outputs, params.flitsPerCycle),
      roundRobin_(outputs, 0),
      nonEmpty_(inWords_, 0),
      wants_(size_t{outputs} * inWords_, 0),
      requested_(outWords_, 0),
      grantedNow_(inWords_, 0) {
  in_.reserve(inputs);
  for (uint32_t i = 0; i < inputs; ++i) in_.emplace_back(params.inputQueue);
  flight_.reserve(outputs);
  eject_.reserve(outputs);
  for (uint32_t o = 0; o < outputs; ++o) {
    flight_.emplace_back(params.ejectionQueue);
    eject_.emplace_back(params.ejectionQueue);
  }
}

void Crossbar::inject(uint32_t input, uint32_t packet) {
  Packet& p = pool_[packet];
  const uint32_t bytes = params_.headerBytes + p.bytes;
  p.flits = static_cast<uint16_t>((bytes + params_.flitBytes - 1) / params_.flitBytes);
  if (!inModule_.empty() && outModule_[p.port] != inModule_[input])
    p.port = static_cast<uint16_t>(linkOutBase_ + inModule_[input]);
  in_[input].push(packet);
  nonEmpty_[input / 64] |= uint64_t{1} << (input % 64);
  ++queued_;
}

void Crossbar::setModules(std::vector<uint16_t> inputModule, std::vector<uint16_t> outputModule,
                          uint32_t linkOutBase) {
  inModule_ = std::move(inputModule);
  outModule_ = std::move(outputModule);
  linkOutBase_ = linkOutBase;
}

void Crossbar::setPartitions(std::vector<uint8_t> inputPartition,
                             std::vector<uint8_t> outputPartition, uint32_t farLatency) {
  inPartition_ = std::move(inputPartition);
  outPartition_ = std::move(outputPartition);
  farLatency_ = farLatency;
  farFlight_.clear();
  farFlight_.reserve(outputs_);
  for (uint32_t o = 0; o < outputs_; ++o) farFlight_.emplace_back(params_.ejectionQueue);
}

void Crossbar::setWidth(bool output, uint32_t port, uint32_t flitsPerCycle) {
  (output ? outWidth_ : inWidth_)[port] = flitsPerCycle;
}

bool Crossbar::ejectionEmpty() const {
  for (const auto& e : eject_) {
    if (!e.empty()) return false;
  }
  return true;
}

namespace {

// The first bit of `bits` (of `words` words) at or after bit `start` and not in `skip` (when not
// null), wrapping around; UINT32_MAX when there is none.
uint32_t firstSetFrom(const uint64_t* bits, const uint64_t* skip, uint32_t words,
                      uint32_t start) {
  for (uint32_t k = 0; k <= words; ++k) {
    const uint32_t word = (start / 64 + k) % words;
    uint64_t w = skip ? bits[word] & ~skip[word] : bits[word];
    if (k == 0) w &= ~uint64_t{0} << (start % 64);
    if (k == words) w &= (uint64_t{1} << (start % 64)) - 1;
    if (w != 0) return word * 64 + static_cast<uint32_t>(std::countr_zero(w));
  }
  return UINT32_MAX;
}

}  // namespace

void Crossbar::cycle(Cycle now) {
  delivered_ = false;
  if (inFlight_ != 0) {
    for (uint32_t o = 0; o < outputs_; ++o) {
      RingBuffer<Flight>& f = flight_[o];
      if (farFlight_.empty()) {
        while (!f.empty() && f.front().arrival <= now) {
          eject_[o].push(f.front().packet);
          f.pop();
          --inFlight_;
          delivered_ = true;
        }
        continue;
      }
      // Near and far arrivals in the order they arrive (near first on a tie).
      RingBuffer<Flight>& far = farFlight_[o];
      for (;;) {
        const bool nearDue = !f.empty() && f.front().arrival <= now;
        const bool farDue = !far.empty() && far.front().arrival <= now;
        if (!nearDue && !farDue) break;
        RingBuffer<Flight>& q =
            nearDue && (!farDue || f.front().arrival <= far.front().arrival) ? f : far;
        eject_[o].push(q.front().packet);
        q.pop();
        --inFlight_;
        delivered_ = true;
      }
    }
  }
  if (queued_ == 0) return;

  // Requests: every free input asks for the outputs of its first `lookahead` packets.
  for (uint32_t word = 0; word < inWords_; ++word) {
    for (uint64_t bits = nonEmpty_[word]; bits != 0; bits &= bits - 1) {
      const uint32_t i = word * 64 + static_cast<uint32_t>(std::countr_zero(bits));
      if (inputFree_[i] > now) continue;
      const uint32_t n = std::min(params_.lookahead, in_[i].size());
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t o = pool_[in_[i].at(k)].port;
        requested_[o / 64] |= uint64_t{1} << (o % 64);
        wants_[size_t{o} * inWords_ + i / 64] |= uint64_t{1} << (i % 64);
      }
    }
  }
  // Grants: the outputs in turn from a starting output that moves every cycle, each taking its
  // next requesting input round-robin among those no earlier output took this cycle.
  const uint32_t first = static_cast<uint32_t>(now % outputs_);
  for (;;) {
    const uint32_t o = firstSetFrom(requested_.data(), nullptr, outWords_, first);
    if (o == UINT32_MAX) break;
    requested_[o / 64] &= ~(uint64_t{1} << (o % 64));
    uint64_t* wants = &wants_[size_t{o} * inWords_];
    const size_t far = farFlight_.empty() ? 0 : farFlight_[o].size();
    const bool credit = flight_[o].size() + far + eject_[o].size() < params_.ejectionQueue;
    if (outputFree_[o] <= now && credit) {
      const uint32_t i =
          firstSetFrom(wants, grantedNow_.data(), inWords_, roundRobin_[o] % inputs_);
      if (i != UINT32_MAX) grant(now, i, o);
    }
    std::fill_n(wants, inWords_, 0);
  }
  std::fill(grantedNow_.begin(), grantedNow_.end(), 0);
}

void Crossbar::grant(Cycle now, uint32_t i, uint32_t o) {
  // The input's oldest packet for `o`: packets from one input to one output keep their order.
  RingBuffer<uint32_t>& q = in_[i];
  uint32_t k = 0;
  while (pool_[q.at(k)].port != o) ++k;
  const uint32_t packet = q.at(k);
  q.erase(k);
  --queued_;
  if (q.empty()) nonEmpty_[i / 64] &= ~(uint64_t{1} << (i % 64));
  grantedNow_[i / 64] |= uint64_t{1} << (i % 64);
  const uint32_t flits = pool_[packet].flits;
  const Cycle serialIn = (flits + inWidth_[i] - 1) / inWidth_[i];
  const Cycle serialOut = (flits + outWidth_[o] - 1) / outWidth_[o];
  inputFree_[i] = now + serialIn;
  outputFree_[o] = now + serialOut;
  const Cycle arrival = now + std::max(serialIn, serialOut) - 1 + params_.latency;
  if (!inPartition_.empty() && inPartition_[i] != outPartition_[o]) {
    farFlight_[o].push(Flight{packet, arrival + farLatency_});
  } else {
    flight_[o].push(Flight{packet, arrival});
  }
  ++inFlight_;
  roundRobin_[o] = i + 1;
  ++stats_.packets;
  stats_.flits += flits;
  ++moved_;
}

Cycle Crossbar::nextWorkCycle(Cycle now) const {
  if (queued_ != 0) return now;
  if (inFlight_ == 0) return kNever;
  Cycle next = kNever;
  for (const auto& f : flight_) {
    if (!f.empty()) next = std::min(next, f.front().arrival);
  }
  for (const auto& f : farFlight_) {
    if (!f.empty()) next = std::min(next, f.front().arrival);
  }
  return std::max(next, now);
}

}  // namespace warpsim::timing::mem
