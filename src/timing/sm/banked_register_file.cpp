#include "timing/sm/banked_register_file.h"

#include <algorithm>
#include <bit>
#include <string>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

BankedRegisterFile::BankedRegisterFile(const Context& context) : partitions_(context.partitions) {
  config::Section s = context.section;
  const uint32_t banks = s.u32("banks", 16, "register banks per SM", 1, 1024);
  readPorts_ = s.u32("read_ports", 1, "read ports per bank", 1, 8);
  writePorts_ = s.u32("write_ports", 1, "write ports per bank", 1, 8);
  const uint32_t collectors = s.u32("collectors", 16, "operand collector units per SM", 1, 1024);
  warpStride_ = s.u32("warp_stride", 1, "bank of register r of warp slot w: (r + w * warp_stride) % banks", 0, 1024);
  auto divisible = [&](const char* key, uint32_t v) {
    if (v % partitions_ != 0 || v / partitions_ == 0) {
      throw config::Error("config: error: sm.register_file." + std::string(key) + " (" + std::to_string(v) +
                          ") must be a positive multiple of sm.schedulers (" + std::to_string(partitions_) +
                          ") with sm.sub_cores");
    }
  };
  divisible("banks", banks);
  divisible("collectors", collectors);
  banksPer_ = banks / partitions_;
  collectorsPer_ = collectors / partitions_;
  if (collectorsPer_ > 64) {
    throw config::Error("config: error: sm.register_file.collectors: at most 64 per scheduler partition (got " +
                        std::to_string(collectorsPer_) + ")");
  }
  collectors_.assign(size_t{partitions_} * collectorsPer_, Collector{});
  parts_.resize(partitions_);
  for (Partition& p : parts_) p.readQueue.reserve(collectorsPer_);
  readBudget_.assign(size_t{partitions_} * banksPer_, 0);
  writeBudget_.assign(size_t{partitions_} * banksPer_, 0);
  writes_.reserve(256);
  written_.reserve(256);
  beginKernel();
}

void BankedRegisterFile::beginKernel() {
  for (Partition& p : parts_) {
    p.freeMask = collectorsPer_ == 64 ? ~uint64_t{0} : (uint64_t{1} << collectorsPer_) - 1;
    p.doneMask = 0;
    p.readQueue.clear();
  }
  writes_.clear();
  written_.clear();
  writtenHead_ = 0;
  bankReads_ = bankWrites_ = bankConflicts_ = writeConflicts_ = allocations_ = 0;
}

uint32_t BankedRegisterFile::allocate(const RegisterRead& read, Cycle now) {
  Partition& p = parts_[read.partition];
  const auto bit = static_cast<uint32_t>(std::countr_zero(p.freeMask));
  p.freeMask &= p.freeMask - 1;
  const uint32_t id = read.partition * collectorsPer_ + bit;
  Collector& c = collectors_[id];
  c.numReads = read.numSrc;
  for (unsigned i = 0; i < read.numSrc; ++i) c.reads[i] = static_cast<uint8_t>(bankOf(read.warpSlot, read.srcRegs[i]));
  c.readyAt = kNever;
  p.readQueue.push_back(id);
  ++allocations_;
  return id;
}

uint64_t BankedRegisterFile::ready(uint32_t partition, Cycle now) const {
  uint64_t out = 0;
  for (uint64_t m = parts_[partition].doneMask; m != 0; m &= m - 1) {
    const auto bit = static_cast<uint32_t>(std::countr_zero(m));
    if (collectors_[partition * collectorsPer_ + bit].readyAt <= now) out |= uint64_t{1} << bit;
  }
  return out;
}

void BankedRegisterFile::release(uint32_t collector) {
  Partition& p = parts_[collector / collectorsPer_];
  const uint64_t bit = uint64_t{1} << (collector % collectorsPer_);
  p.doneMask &= ~bit;
  p.freeMask |= bit;
}

void BankedRegisterFile::write(const RegisterWrite& w, Cycle now) {
  PendingWrite pw{w.tag, w.partition, w.numDst, {}};
  for (unsigned i = 0; i < w.numDst; ++i) pw.banks[i] = static_cast<uint8_t>(bankOf(w.warpSlot, w.dstRegs[i]));
  writes_.push_back(pw);
}

bool BankedRegisterFile::popWritten(uint32_t& tag) {
  if (writtenHead_ == written_.size()) {
    written_.clear();
    writtenHead_ = 0;
    return false;
  }
  tag = written_[writtenHead_++];
  return true;
}

void BankedRegisterFile::cycle(Cycle now) {
  // Writes, in submission order.
  if (!writes_.empty()) {
    std::fill(writeBudget_.begin(), writeBudget_.end(), static_cast<uint8_t>(writePorts_));
    size_t keep = 0;
    for (size_t i = 0; i < writes_.size(); ++i) {
      PendingWrite& w = writes_[i];
      uint8_t* budget = &writeBudget_[size_t{w.partition} * banksPer_];
      uint8_t left = 0;
      for (unsigned k = 0; k < w.numLeft; ++k) {
        const uint8_t bank = w.banks[k];
        if (budget[bank] > 0) {
          --budget[bank];
          ++bankWrites_;
        } else {
          ++writeConflicts_;
          w.banks[left++] = bank;
        }
      }
      w.numLeft = left;
      if (left == 0) written_.push_back(w.tag);
      else writes_[keep++] = w;
    }
    writes_.resize(keep);
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
          ++bankReads_;
        } else {
          ++bankConflicts_;
          c.reads[left++] = bank;
        }
      }
      c.numReads = left;
      if (left == 0) {
        c.readyAt = now + 1;
        p.doneMask |= uint64_t{1} << (id % collectorsPer_);
      } else {
        p.readQueue[keep++] = id;
      }
    }
    p.readQueue.resize(keep);
  }
}

Cycle BankedRegisterFile::nextEvent(Cycle now) const {
  if (!writes_.empty() || writtenHead_ < written_.size()) return now;
  Cycle next = kNever;
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

void BankedRegisterFile::reportStats(nlohmann::json& out) const {
  out["bank_reads"] = bankReads_;
  out["bank_writes"] = bankWrites_;
  out["bank_conflicts"] = bankConflicts_;
  out["write_conflicts"] = writeConflicts_;
  out["collector_allocations"] = allocations_;
}

std::unique_ptr<IRegisterFile> makeBankedRegisterFile(const IRegisterFile::Context& context) {
  return std::make_unique<BankedRegisterFile>(context);
}

}  // namespace warpsim::timing
