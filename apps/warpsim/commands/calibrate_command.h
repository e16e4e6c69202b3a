// `warpsim calibrate CONFIG`: the configuration's microbenchmarks against the published figures
// of its targets file (workloads/calibration/), and with --fit the values of the targets' keys
// that bring them there.
#pragma once
#include <string>
#include <vector>

namespace warpsim::app {

struct CalibrateArgs {
  std::string config;                 // bundled name or TOML file
  std::vector<std::string> overlays;  // --overlay
  std::vector<std::string> sets;      // --set key=value
  std::string targets;                // --targets FILE ("": configs/calibration/<config>.toml)
  bool fit = false;                   // --fit
  std::string write;                  // --write FILE: the fitted keys as an overlay
  bool list = false;                  // --list: the measurements
  bool markdown = false;              // --markdown: the comparison as a Markdown table only
};

// 0 when every target is met (after fitting, with --fit), 3 when one is not, 1 on an error.
int calibrateCommand(const CalibrateArgs& args);

}  // namespace warpsim::app
