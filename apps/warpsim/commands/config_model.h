// `warpsim config show` with the model built: the configuration is loaded into a simulated
// device (timing model included), so every key a component reads appears with its value, its
// source (file:line, --set or default) and its description, and keys nobody reads are errors.
#pragma once
#include <string>
#include <vector>

namespace warpsim::app {

// Prints the resolved configuration; throws runtime::Error (one line) for bad configurations.
int showModelConfig(const std::string& name, const std::vector<std::string>& overlays,
                    const std::vector<std::string>& sets);

}  // namespace warpsim::app
