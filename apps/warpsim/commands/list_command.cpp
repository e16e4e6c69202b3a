#include <fmt/format.h>

#include "commands/commands.h"
#include "examples/example.h"

namespace warpsim::app {

int listExamples() {
  ExampleRegistry examples = bundledExamples();
  fmt::print("bundled examples (warpsim run <name>; the first is the default):\n");
  for (const Example& e : examples.all()) {
    fmt::print("  {:<16} {}\n", e.name, e.description);
    fmt::print("  {:<16} --size: {} (default {}, at most {})\n", "", e.sizeMeaning,
               e.defaultSize, e.maxSize);
  }
  return 0;
}

}  // namespace warpsim::app
