#include <fmt/format.h>

#include "commands/commands.h"
#include "commands/workload_spec.h"
#include "workloads/workload.h"

namespace warpsim::app {

namespace {

// `warpsim list --specs`: each workload that accepts resource specifications, its values and
// what they change.
int listSpecs(const std::vector<workloads::Workload>& all) {
  size_t count = 0;
  for (const workloads::Workload& w : all) count += acceptsSpecs(w) ? 1 : 0;
  fmt::print("{} workloads accept resource specifications (warpsim run <name> "
             "[--threads-per-block N] [--shared-per-block BYTES] [--tile-bytes BYTES]; registers per "
             "thread: --max-registers):\n",
             count);
  for (const workloads::Workload& w : all) {
    if (!acceptsSpecs(w)) continue;
    fmt::print("\n{}\n  --threads-per-block  {}\n  --shared-per-block   {}\n", w.name,
               specValues(w.spec.threadsPerBlock), specValues(w.spec.sharedBytesPerBlock));
    if (!w.spec.tileBytes.empty()) fmt::print("  --tile-bytes         {}\n", specValues(w.spec.tileBytes));
    fmt::print("  {}\n", w.spec.meaning);
  }
  return 0;
}

}  // namespace

int listWorkloads(bool specs) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  if (specs) return listSpecs(all);
  fmt::print("{} workloads (warpsim run <name> [--size small|default|large]; default {}):\n\n",
             all.size(), workloads::kDefaultWorkload);
  fmt::print("{:<15} {:<11} {:<66} {}\n", "name", "category", "description",
             "sizes small / default / large");
  bool anySpecs = false;
  for (const workloads::Workload& w : all) {
    anySpecs = anySpecs || acceptsSpecs(w);
    fmt::print("{:<15} {:<11} {:<66} {} / {} / {} {}{}\n", w.name, w.category, w.description,
               w.smallSize, w.defaultSize, w.largeSize, w.sizeMeaning,
               acceptsSpecs(w) ? "  [spec]" : "");
  }
  if (anySpecs) {
    fmt::print("\n[spec]: accepts resource specifications (--threads-per-block, "
               "--shared-per-block, --tile-bytes); warpsim list --specs shows them\n");
  }
  return 0;
}

}  // namespace warpsim::app
