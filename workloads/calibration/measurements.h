// The simulator-side measurements a calibration compares with published figures: each runs
// microbenchmarks of workloads/micro on a fresh simulated GPU and returns one number in the
// unit the publications use (core cycles for latencies, bytes per core cycle for bandwidths,
// a fraction of the peak for achieved DRAM bandwidth). A fresh device per measurement keeps
// every figure independent of the order they are taken in (deterministic).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "runtime/device.h"
#include "runtime/module.h"

namespace warpsim::calibration {

// The GPU a measurement runs on: configuration, overlays and overrides.
struct GpuSpec {
  std::string config;
  std::vector<std::string> overlays;
  std::vector<std::string> sets;
};

// A fresh timing-mode device of `spec` with the microbenchmarks loaded, and its configuration.
class Probe {
 public:
  explicit Probe(const GpuSpec& spec);
  runtime::Device& device() { return device_; }
  const runtime::Module& micro() const { return micro_; }
  config::Tree& tree() { return tree_; }

 private:
  config::Tree tree_;
  runtime::Device device_;
  runtime::Module micro_;
};

struct Measurement {
  std::string name;
  std::string unit;
  std::string what;  // one line: the kernel and what it reports
  std::function<double(Probe&)> run;
};

// Every measurement, in the order `warpsim calibrate --list` shows them.
const std::vector<Measurement>& measurements();
const Measurement* findMeasurement(const std::string& name);

// Runs measurement `name` on a fresh device of `spec`.
double measure(const std::string& name, const GpuSpec& spec);

}  // namespace warpsim::calibration
