#include <fmt/format.h>

#include "commands/commands.h"
#include "workloads/workload.h"

namespace warpsim::app {

int listWorkloads() {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  fmt::print("{} workloads (warpsim run <name> [--size small|default|large]; default {}):\n\n",
             all.size(), workloads::kDefaultWorkload);
  fmt::print("{:<15} {:<11} {:<66} {}\n", "name", "category", "description",
             "sizes small / default / large");
  for (const workloads::Workload& w : all) {
    fmt::print("{:<15} {:<11} {:<66} {} / {} / {} {}\n", w.name, w.category, w.description,
               w.smallSize, w.defaultSize, w.largeSize, w.sizeMeaning);
  }
  return 0;
}

}  // namespace warpsim::app
