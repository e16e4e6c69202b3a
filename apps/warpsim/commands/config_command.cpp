#include "commands/config_command.h"

#include <algorithm>

#include <fmt/format.h>

namespace warpsim::app {

namespace {

void printList(const char* title, const std::vector<std::pair<std::string, std::string>>& items) {
  fmt::print("{}\n", title);
  size_t width = 0;
  for (const auto& [name, description] : items) width = std::max(width, name.size());
  for (const auto& [name, description] : items) {
    fmt::print("  {:<{}}  {}\n", name, width, description);
  }
  if (items.empty()) fmt::print("  (none)\n");
}

}  // namespace

int listConfigs() {
  printList("GPU configurations (warpsim config show NAME; warpsim run --config NAME):",
            config::Tree::listBundled(false));
  fmt::print("\n");
  printList("Overlays (--overlay NAME, applied in order on top of a configuration):",
            config::Tree::listBundled(true));
  fmt::print("\nSearched for names: {}\n", fmt::join(config::Tree::searchPath(false), ", "));
  fmt::print("Searched for overlays: {}\n", fmt::join(config::Tree::searchPath(true), ", "));
  fmt::print("(WARPSIM_CONFIG_PATH adds directories in front; a name with '/' or '.toml' is a "
             "file path)\n");
  return 0;
}

std::string showResolved(config::Tree& tree) { return tree.dump(); }

int showConfig(const std::string& name, const std::vector<std::string>& overlays,
               const std::vector<std::string>& sets) {
  config::Tree tree = config::Tree::load(name, overlays, sets);
  fmt::print("{}", showResolved(tree));
  return 0;
}

}  // namespace warpsim::app
