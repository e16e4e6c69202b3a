// `warpsim config list` and `warpsim config show`: the bundled GPU configurations and overlays,
// and one configuration resolved (config/config.h).
#pragma once
#include <string>
#include <vector>

#include "config/config.h"

namespace warpsim::app {

// `warpsim config list`: every bundled configuration and overlay with its description, and the
// directories names are looked up in.
int listConfigs();

// `warpsim config show NAME [--overlay X]... [--set key=value]...`: loads the layers and prints
// the resolved configuration. Errors are thrown (config::Error).
int showConfig(const std::string& name, const std::vector<std::string>& overlays,
               const std::vector<std::string>& sets);

// The resolved configuration as `config show` prints it: every key set by the layers or read by
// the model, grouped by table, each with its value, where it was set ("file:line", "--set" or
// "default") and its description. Call after constructing the model on `tree` to show the keys
// the components read at their defaults too.
std::string showResolved(config::Tree& tree);

}  // namespace warpsim::app
