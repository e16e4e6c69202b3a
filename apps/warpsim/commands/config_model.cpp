#include "commands/config_model.h"

#include <fmt/format.h>

#include "commands/config_command.h"
#include "runtime/device.h"

namespace warpsim::app {

int showModelConfig(const std::string& name, const std::vector<std::string>& overlays,
                    const std::vector<std::string>& sets) {
  runtime::DeviceOptions options;
  options.mode = "timing";
  options.config = name;
  options.overlays = overlays;
  options.sets = sets;
  options.resources = runtime::DeviceOptions::Resources::Estimate;
  runtime::Device device(options);  // builds the model: every component reads its keys
  fmt::print("{}", showResolved(*device.configTree()));
  return 0;
}

}  // namespace warpsim::app
