#include "timing/sm/banked_register_file.h"

#include <bit>
#include <string>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

BankGeometry readBankGeometry(config::Section& s, uint32_t partitions) {
  const uint32_t banks = s.u32("banks", 16, "register banks per SM", 1, 1024);
  BankGeometry g;
  g.readPorts = s.u32("read_ports", 1, "read ports per bank", 1, 8);
  g.writePorts = s.u32("write_ports", 1, "write ports per bank", 1, 8);
  const uint32_t collectors = s.u32("collectors", 16, "operand collector units per SM", 1, 1024);
  g.warpStride = s.u32("warp_stride", 1, "bank of register r of warp slot w: (r + w * warp_stride) % banks", 0, 1024);
  auto divisible = [&](const char* key, uint32_t v) {
    if (v % partitions != 0 || v / partitions == 0) {
      throw config::Error("config: error: sm.register_file." + std::string(key) + " (" + std::to_string(v) +
                          ") must be a positive multiple of sm.schedulers (" + std::to_string(partitions) +
                          ") with sm.sub_cores");
    }
  };
  divisible("banks", banks);
  divisible("collectors", collectors);
  g.banksPer = banks / partitions;
  g.collectorsPer = collectors / partitions;
  if (g.collectorsPer > 64) {
    throw config::Error("config: error: sm.register_file.collectors: at most 64 per scheduler partition (got " +
                        std::to_string(g.collectorsPer) + ")");
  }
  return g;
}

namespace {
BankGeometry geometryOf(const IRegisterFile::Context& context) {
  config::Section s = context.section;
  return readBankGeometry(s, context.partitions);
}
}  // namespace

BankedRegisterFile::BankedRegisterFile(const Context& context)
    : geo_(geometryOf(context)),
      ports_(context.partitions, geo_.banksPer, geo_.collectorsPer, geo_.readPorts, geo_.writePorts) {
  ports_.shareBanks(context.storageBanks);
}

void BankedRegisterFile::beginKernel(const KernelInfo&) {
  ports_.reset();
  arrayReads_ = arrayWrites_ = crossbarBytes_ = 0;
}

uint32_t BankedRegisterFile::allocate(const RegisterRead& read, Cycle) {
  uint8_t banks[BankPorts::kMaxReads];
  for (unsigned i = 0; i < read.numSrc; ++i) {
    banks[i] = static_cast<uint8_t>(bankOf(read.warpSlot, read.srcRegs[i]));
    const unsigned words = (read.wideMask >> i & 1u) + 1;
    arrayReads_ += 8 * words;
    crossbarBytes_ += 128 * words;
  }
  return ports_.allocate(read.partition, banks, read.numSrc, 0);
}

void BankedRegisterFile::write(const RegisterWrite& w, Cycle now) {
  uint8_t banks[BankPorts::kMaxWrites];
  const unsigned arrays = laneSlicedArrays(w.activeMask);
  const auto lanes = static_cast<unsigned>(std::popcount(w.activeMask));
  for (unsigned i = 0; i < w.numDst; ++i) {
    banks[i] = static_cast<uint8_t>(bankOf(w.warpSlot, w.dstRegs[i]));
    const unsigned words = (w.wideMask >> i & 1u) + 1;
    arrayWrites_ += arrays * words;
    crossbarBytes_ += 4 * lanes * words;
  }
  ports_.write(w.tag, w.partition, banks, w.numDst, now);
}

void BankedRegisterFile::reportStats(nlohmann::json& out) const {
  out["bank_reads"] = ports_.reads();
  out["bank_writes"] = ports_.writes();
  out["bank_conflicts"] = ports_.readConflicts();
  out["conflicted_collectors"] = ports_.conflictedCollectors();
  out["write_conflicts"] = ports_.writeConflicts();
  out["collector_allocations"] = ports_.allocations();
  out["array_reads"] = arrayReads_;
  out["array_writes"] = arrayWrites_;
  out["crossbar_bytes"] = crossbarBytes_;
}

std::unique_ptr<IRegisterFile> makeBankedRegisterFile(const IRegisterFile::Context& context) {
  return std::make_unique<BankedRegisterFile>(context);
}

}  // namespace warpsim::timing
