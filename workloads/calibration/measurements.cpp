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

std::vector<Measurement> build() {
  using namespace micro;
  std::vector<Measurement> m;
  m.push_back({"l1_hit_cycles", "cycles",
               "one thread chases pointers over an 8 KB ring (a node per 128-byte line) that stays "
               "in the L1: core cycles per dependent load",
               [](Probe& p) { return chaseCyclesPerHop(p.device(), p.micro(), 8192, 128, 64, 256); }});
  m.push_back({"l2_hit_cycles", "cycles",
               "the chase over a 2 MB ring: larger than any L1, within every L2",
               [](Probe& p) {
                 return chaseCyclesPerHop(p.device(), p.micro(), 2 << 20, 128, 16384, 512);
               }});
  m.push_back({"l2_near_hit_cycles", "cycles",
               "the chase over the lines of a 2 MB span that live in SM 0's L2 partition (GPUs "
               "of several modules: [gpu] modules)",
               [](Probe& p) { return partitionChaseCyclesPerHop(p, true, 2 << 20, 128, 8192, 512); }});
  m.push_back({"l2_far_hit_cycles", "cycles",
               "the chase over the lines of a 2 MB span that live in the other partition",
               [](Probe& p) { return partitionChaseCyclesPerHop(p, false, 2 << 20, 128, 8192, 512); }});
  m.push_back({"dram_near_cycles", "cycles",
               "the cold chase over lines 4224 bytes apart in a 64 MB span that live in SM 0's "
               "partition: an L2 miss to that partition's DRAM",
               [](Probe& p) {
                 return partitionChaseCyclesPerHop(p, true, 64ull << 20, 4096 + 128, 0, 1024);
               }});
  m.push_back({"dram_far_cycles", "cycles",
               "the same over the other partition's lines",
               [](Probe& p) {
                 return partitionChaseCyclesPerHop(p, false, 64ull << 20, 4096 + 128, 0, 1024);
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
               "read and written per core cycle over the peak the configuration gives",
               [](Probe& p) {
                 const uint32_t sms = p.tree().section("gpu").u32("num_sms", 15, "");
                 return streamBytesPerCycle(p.device(), p.micro(), 64ull << 20, 4 * sms) /
                        dramPeakBytesPerCycle(p.tree());
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
