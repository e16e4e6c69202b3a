// Calibration targets of one GPU: what published microbenchmark studies measured on the real
// card, each tied to one simulator measurement (measurements.h) and, optionally, to the one
// configuration key that moves it (calibrate.h fits that key). Read from a TOML file
// (configs/calibration/<gpu>.toml):
//
//   gpu = "v100"                        # the configuration the targets are for
//   sets = ["clocks.core=1380"]         # overrides giving the measured card's conditions
//   [sources]
//   jia = "Z. Jia et al., Dissecting the NVIDIA Volta GPU Architecture ..., arXiv:1804.06826"
//   [[target]]
//   measurement = "l1_hit_cycles"       # a name from measurements.h
//   value = 28                          # one published figure ...
//   range = [33, 38]                    # ... or the range several studies give (one of the two)
//   source = "jia"                      # a key of [sources]
//   fit = "l1.hit_latency"              # optional: the key calibrate --fit sets
//
// The tolerance is 5% of a single figure and 10% of a range's bounds (the issue of record: a
// range already spans measurement conditions), unless `tolerance` (a fraction) says otherwise.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim::calibration {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Target {
  std::string measurement;
  double low = 0, high = 0;  // equal for a single figure
  double tolerance = 0.05;   // allowed relative distance from [low, high]
  std::string source;        // key of TargetSet::sources
  std::string fit;           // configuration key calibrate --fit sets ("" : none)
  std::string note;          // what was measured, as the source describes it
  int line = 0;              // where it is in the file (for messages)

  bool single() const { return low == high; }
  // Relative distance of `value` from [low, high] (0 inside it).
  double error(double value) const;
  bool met(double value) const { return error(value) <= tolerance; }
  // The value a fit aims for: the figure, or the middle of the range.
  double goal() const { return (low + high) / 2; }
};

struct TargetSet {
  std::string file;
  std::string gpu;
  std::vector<std::string> sets;
  std::map<std::string, std::string> sources;
  std::vector<Target> targets;
};

// Parses a targets file; throws Error "<file>:<line>: error: <what>" on a malformed one or one
// that names an unknown measurement or source.
TargetSet parseTargets(std::string_view text, const std::string& file);
TargetSet loadTargets(const std::string& path);

// configs/calibration/<gpu>.toml of the source tree (WARPSIM_CONFIG_PATH's calibration/
// folders first), or "" when there is none.
std::string findTargets(const std::string& gpu);

}  // namespace warpsim::calibration
