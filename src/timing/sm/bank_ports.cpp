#include "timing/sm/bank_ports.h"

#include <algorithm>
#include <bit>

#include "timing/storage_banks.h"

namespace warpsim::timing {

BankPorts::BankPorts(uint32_t partitions, uint32_t banksPerPartition, uint32_t collectorsPerPartition,
                     uint32_t readPorts, uint32_t writePorts)
    : partitions_(partitions), banksPer_(banksPerPartition), collectorsPer_(collectorsPerPartition),
      readPorts_(readPorts), writePorts_(writePorts) {
  collectors_.assign(size_t{partitions_} * collectorsPer_, Collector{});
  parts_.resize(partitions_);
  for (Partition& p : parts_) p.readQueue.reserve(collectorsPer_);
  readBudget_.assign(size_t{partitions_} * banksPer_, 0);
  writeBudget_.assign(size_t{partitions_} * banksPer_, 0);
  pending_.reserve(256);
  written_.reserve(256);
  reset();
}

void BankPorts::reset() {
  for (Partition& p : parts_) {
    p.freeMask = collectorsPer_ == 64 ? ~uint64_t{0} : (uint64_t{1} << collectorsPer_) - 1;
    p.doneMask = 0;
    p.readQueue.clear();
  }
  pending_.clear();
  written_.clear();
  writtenHead_ = 0;
  reads_ = writes_ = readConflicts_ = writeConflicts_ = allocations_ = conflictedCollectors_ = 0;
}

uint32_t BankPorts::allocate(uint32_t partition, const uint8_t* banks, unsigned n, Cycle extraDelay) {
  Partition& p = parts_[partition];
  const auto bit = static_cast<uint32_t>(std::countr_zero(p.freeMask));
  p.freeMask &= p.freeMask - 1;
  const uint32_t id = partition * collectorsPer_ + bit;
  Collector& c = collectors_[id];
  c.numReads = static_cast<uint8_t>(n);
  std::copy_n(banks, n, c.reads);
  c.extraDelay = extraDelay;
  c.readyAt = kNever;
  c.waited = false;
  p.readQueue.push_back(id);
  ++allocations_;
  return id;
}

uint64_t BankPorts::ready(uint32_t partition, Cycle now) const {
  uint64_t out = 0;
  for (uint64_t m = parts_[partition].doneMask; m != 0; m &= m - 1) {
    const auto bit = static_cast<uint32_t>(std::countr_zero(m));
    if (collectors_[partition * collectorsPer_ + bit].readyAt <= now) out |= uint64_t{1} << bit;
  }
  return out;
}

void BankPorts::release(uint32_t collector) {
  Partition& p = parts_[collector / collectorsPer_];
  const uint64_t bit = uint64_t{1} << (collector % collectorsPer_);
  p.doneMask &= ~bit;
  p.freeMask |= bit;
}

void BankPorts::write(uint32_t tag, uint32_t partition, const uint8_t* banks, unsigned n, Cycle earliest,
                      bool silent) {
  PendingWrite w{tag, partition, earliest, static_cast<uint8_t>(n), silent, {}};
  std::copy_n(banks, n, w.banks);
  pending_.push_back(w);
}

bool BankPorts::popWritten(uint32_t& tag) {
  if (writtenHead_ == written_.size()) {
    written_.clear();
    writtenHead_ = 0;
    return false;
  }
  tag = written_[writtenHead_++];
  return true;
}

void BankPorts::cycle(Cycle now) {
  // Writes, in submission order.
  if (!pending_.empty()) {
    std::fill(writeBudget_.begin(), writeBudget_.end(), static_cast<uint8_t>(writePorts_));
    size_t keep = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      PendingWrite& w = pending_[i];
      if (w.earliest > now) {
        pending_[keep++] = w;
        continue;
      }
      uint8_t* budget = &writeBudget_[size_t{w.partition} * banksPer_];
      uint8_t left = 0;
      for (unsigned k = 0; k < w.numLeft; ++k) {
        const uint8_t bank = w.banks[k];
        if (budget[bank] > 0) {
          --budget[bank];
          ++writes_;
          if (shared_) shared_->claimWrite(w.partition * banksPer_ + bank, now);
        } else {
          ++writeConflicts_;
          w.banks[left++] = bank;
        }
      }
      w.numLeft = left;
      if (left != 0) pending_[keep++] = w;
      else if (!w.silent) written_.push_back(w.tag);
    }
    pending_.resize(keep);
  }
  // Operand reads, oldest collector first.
  for (uint32_t pi = 0; pi < partitions_; ++pi) {
    Partition& p = parts_[pi];
    if (p.readQueue.empty()) continue;
    uint8_t* budget = &readBudget_[size_t{pi} * banksPer_];
    std::fill_n(budget, banksPer_, static_cast<uint8_t>(readPorts_));
    size_t keep = 0;
    for (uint32_t id : p.readQueue) {
      Collector& c = collectors_[id];
      uint8_t left = 0;
      for (unsigned k = 0; k < c.numReads; ++k) {
        const uint8_t bank = c.reads[k];
        if (budget[bank] > 0) {
          --budget[bank];
          ++reads_;
          if (shared_) shared_->claimRead(pi * banksPer_ + bank, now);
        } else {
          ++readConflicts_;
          if (!c.waited) {
            c.waited = true;
            ++conflictedCollectors_;
          }
          c.reads[left++] = bank;
        }
      }
      c.numReads = left;
      if (left == 0) {
        c.readyAt = now + 1 + c.extraDelay;
        p.doneMask |= uint64_t{1} << (id % collectorsPer_);
      } else {
        p.readQueue[keep++] = id;
      }
    }
    p.readQueue.resize(keep);
  }
}

Cycle BankPorts::nextEvent(Cycle now) const {
  if (writtenHead_ < written_.size()) return now;
  Cycle next = kNever;
  for (const PendingWrite& w : pending_) {
    if (w.earliest <= now) return now;
    next = std::min(next, w.earliest);
  }
  for (uint32_t pi = 0; pi < partitions_; ++pi) {
    const Partition& p = parts_[pi];
    if (!p.readQueue.empty()) return now;
    for (uint64_t m = p.doneMask; m != 0; m &= m - 1) {
      const Cycle r = collectors_[pi * collectorsPer_ + static_cast<uint32_t>(std::countr_zero(m))].readyAt;
      if (r >= now) next = std::min(next, r);  // earlier: ready, waiting for a unit (the SM's part)
    }
  }
  return next;
}

}  // namespace warpsim::timing
