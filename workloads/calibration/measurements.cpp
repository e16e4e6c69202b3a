#include "calibration/measurements.h"

#include <fmt/format.h>

#include "calibration/partition_chase.h"
#include "micro/micro.h"

namespace warpsim::calibration {

namespace {

runtime::DeviceOptions optionsOf(const GpuSpec& spec) {
  runtime::DeviceOptions o;
  o.mode = "timing";
  o.config = spec.config;
  o.overlays = spec.overlays;
  o.sets = spec.sets;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  return o;
}

// DRAM bytes a core cycle can carry at most: channels x 32 bytes per burst_cycles DRAM cycles.
double dramPeakBytesPerCycle(config::Tree& tree) {
  config::Section d = tree.section("dram");
  config::Section c = tree.section("clocks");
  const double channels = d.u32("channels", 6, "");
  const double burst = d.u32("burst_cycles", 1, "");
  return channels * 32.0 / burst * c.f64("dram", 924.0, "") / c.f64("core", 1400.0, "");
}

// A set every L2 holds: 2 MB, or half the L2 where it is smaller than 4 MB, in whole `unit`s.
uint64_t l2ResidentBytes(Probe& p, uint64_t unit) {
  const uint64_t l2 = p.device().properties().l2Bytes;
  return (l2 >= (4u << 20) ? (2u << 20) : l2 / 2) / unit * unit;
}

std::vector<Measurement> build() {
  using namespace micro;
  std::vector<Measurement> m;
  m.push_back({"l1_hit_cycles", "cycles",
               "one thread chases pointers over an 8 KB ring (a node per 128-byte line) that stays "
               "in the L1: core cycles per dependent load",
               [](Probe& p) { return chaseCyclesPerHop(p.device(), p.micro(), 8192, 128, 64, 256); }});
  m.push_back({"l2_hit_cycles", "cycles",
               "the chase over a 2 MB ring (half the L2 where it is smaller than 4 MB): larger "
               "than any L1, within every L2",
               [](Probe& p) {
                 const uint64_t ring = l2ResidentBytes(p, 128);
                 return chaseCyclesPerHop(p.device(), p.micro(), ring, 128,
                                          static_cast<uint32_t>(ring / 128), 512);
               }});
  m.push_back({"l2_near_hit_cycles", "cycles",
               "the chase over the lines of a 2 MB span that live in SM 0's L2 partition (GPUs "
               "of several modules: [gpu] modules)",
               [](Probe& p) { return partitionChaseCyclesPerHop(p, true, 2 << 20, 128, true, 512); }});
  m.push_back({"l2_far_hit_cycles", "cycles",
               "the chase over the lines of a 2 MB span that live in the other partition",
               [](Probe& p) { return partitionChaseCyclesPerHop(p, false, 2 << 20, 128, true, 512); }});
  m.push_back({"dram_near_cycles", "cycles",
               "the cold chase over lines 4224 bytes apart in a 64 MB span that live in SM 0's "
               "partition: an L2 miss to that partition's DRAM",
               [](Probe& p) {
                 return partitionChaseCyclesPerHop(p, true, 64ull << 20, 4096 + 128, false, 1024);
               }});
  m.push_back({"dram_far_cycles", "cycles",
               "the same over the other partition's lines",
               [](Probe& p) {
                 return partitionChaseCyclesPerHop(p, false, 64ull << 20, 4096 + 128, false, 1024);
               }});
  m.push_back({"dram_cycles", "cycles",
               "the chase over 64 MB with a 4224-byte stride, cold: every load misses the L2 (1024 "
               "loads, over enough refreshes to average them) "
               "(no TLB is modelled: the published figure is the TLB-hit one)",
               [](Probe& p) {
                 return chaseCyclesPerHop(p.device(), p.micro(), 64ull << 20, 4096 + 128, 0, 1024);
               }});
  m.push_back({"dram_bandwidth_fraction", "of peak",
               "a 16-byte-per-thread copy of 64 MB by 4 CTAs of 256 threads per SM: DRAM bytes "
               "read and written (the DRAM's own count: with an L2 of tens of MB part of the "
               "written data is still in it at the end) per core cycle over the peak the "
               "configuration gives",
               [](Probe& p) {
                 const uint32_t sms = p.tree().section("gpu").u32("num_sms", 15, "");
                 return streamBytesPerCycle(p.device(), p.micro(), 64ull << 20, 4 * sms) /
                        dramPeakBytesPerCycle(p.tree());
               }});
  m.push_back({"shared_hit_cycles", "cycles",
               "one thread chases pointers over a ring of 256 4-byte nodes in shared memory: core "
               "cycles per dependent ld.shared (256 hops)",
               [](Probe& p) { return sharedChaseCyclesPerHop(p.device(), p.micro(), 256); }});
  m.push_back({"const_hit_cycles", "cycles",
               "one thread chases word indices over a 1 KB ring (a node per 64 bytes) in constant "
               "memory, warm: core cycles per hop (mad.wide + ld.const), constant-cache hits",
               [](Probe& p) { return constChaseCyclesPerHop(p.device(), p.micro(), 1024, 64, 64, 256); }});
  m.push_back({"const_miss_cycles", "cycles",
               "the constant chase over a 32 KB ring (a node per 64 bytes), larger than the constant "
               "cache: every hop misses it (the published figure is the L1.5 constant level's)",
               [](Probe& p) { return constChaseCyclesPerHop(p.device(), p.micro(), 32768, 64, 512, 256); }});
  m.push_back({"ffma_dependent_cycles", "cycles",
               "one thread runs a chain of dependent fma.rn.f32: core cycles per operation",
               [](Probe& p) { return dependentCyclesPerOp(p.device(), p.micro(), DependentOp::Ffma, 16); }});
  m.push_back({"dfma_dependent_cycles", "cycles",
               "one thread runs a chain of dependent fma.rn.f64: core cycles per operation",
               [](Probe& p) { return dependentCyclesPerOp(p.device(), p.micro(), DependentOp::Dfma, 16); }});
  m.push_back({"dadd_dependent_cycles", "cycles",
               "one thread runs a chain of dependent add.f64: core cycles per operation",
               [](Probe& p) { return dependentCyclesPerOp(p.device(), p.micro(), DependentOp::Dadd, 16); }});
  m.push_back({"l1_bandwidth_bytes_per_cycle", "B/cycle",
               "32 warps on one SM load their own lines of an 8 KB L1-resident set, coalesced (4 "
               "bytes per lane): bytes to the threads per core cycle, one SM",
               [](Probe& p) {
                 return l1BandwidthPerSm(p.device(), p.micro(), L1Pattern::Coalesced, 32, 16).bytesPerCycle;
               }});
  m.push_back({"l1_broadcast_bandwidth_bytes_per_cycle", "B/cycle",
               "the same with every lane of a warp loading one word: bytes to the threads per core "
               "cycle, one SM",
               [](Probe& p) {
                 return l1BandwidthPerSm(p.device(), p.micro(), L1Pattern::Broadcast, 32, 16).bytesPerCycle;
               }});
  m.push_back({"shared_bandwidth_bytes_per_cycle", "B/cycle",
               "32 warps on one SM run conflict-free 4-byte ld.shared: bytes per core cycle, one SM",
               [](Probe& p) { return sharedBandwidthPerSm(p.device(), p.micro(), 32, 16); }});
  m.push_back({"l2_bandwidth_bytes_per_cycle", "B/cycle",
               "4 CTAs of 256 threads per SM read a warm 2 MB set (half the L2 where it is smaller "
               "than 4 MB) with 16-byte ld.global.cg, 16 x 4 loads per thread: bytes per core cycle, GPU-wide",
               [](Probe& p) {
                 const uint64_t set = l2ResidentBytes(p, 16384);
                 const uint32_t sms = p.device().properties().numSms;
                 return l2BandwidthBytesPerCycle(p.device(), p.micro(), set, 4 * sms, 16);
               }});
  return m;
}

}  // namespace

Probe::Probe(const GpuSpec& spec)
    : tree_(config::Tree::load(spec.config, spec.overlays, spec.sets)),
      device_(optionsOf(spec)),
      micro_(micro::loadMicro(device_)) {}

const std::vector<Measurement>& measurements() {
  static const std::vector<Measurement> all = build();
  return all;
}

const Measurement* findMeasurement(const std::string& name) {
  for (const Measurement& m : measurements()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

double measure(const std::string& name, const GpuSpec& spec) {
  const Measurement* m = findMeasurement(name);
  if (m == nullptr) throw std::invalid_argument("unknown measurement '" + name + "'");
  Probe probe(spec);
  return m->run(probe);
}

}  // namespace warpsim::calibration
