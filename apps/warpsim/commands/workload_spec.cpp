#include "commands/workload_spec.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/error.h"

namespace warpsim::app {

namespace {

struct SpecOption {
  const char* name;
  uint32_t value;  // 0: not asked for
  const std::vector<uint32_t>& accepted;
};

// What `w` accepts, for the error about an option it does not.
std::string acceptedOptions(const workloads::Workload& w) {
  if (!acceptsSpecs(w)) {
    return "it has no resource specifications; warpsim list --specs shows the workloads that do";
  }
  std::string text = "accepted:";
  if (!w.spec.threadsPerBlock.empty()) {
    text += " --threads-per-block " + specValues(w.spec.threadsPerBlock);
  }
  if (!w.spec.sharedBytesPerBlock.empty()) {
    if (!w.spec.threadsPerBlock.empty()) text += ";";
    text += " --shared-per-block " + specValues(w.spec.sharedBytesPerBlock);
  }
  if (!w.spec.tileBytes.empty()) {
    if (!w.spec.threadsPerBlock.empty() || !w.spec.sharedBytesPerBlock.empty()) text += ";";
    text += " --tile-bytes " + specValues(w.spec.tileBytes);
  }
  return text;
}

}  // namespace

std::string specValues(const std::vector<uint32_t>& values) {
  return values.empty() ? "none" : fmt::format("{}", fmt::join(values, ", "));
}

bool acceptsSpecs(const workloads::Workload& w) {
  return !w.spec.threadsPerBlock.empty() || !w.spec.sharedBytesPerBlock.empty() || !w.spec.tileBytes.empty();
}

void checkSpec(const workloads::Workload& w, uint32_t threadsPerBlock, uint32_t sharedBytesPerBlock,
               uint32_t tileBytes) {
  const SpecOption options[] = {{"--threads-per-block", threadsPerBlock, w.spec.threadsPerBlock},
                                {"--shared-per-block", sharedBytesPerBlock, w.spec.sharedBytesPerBlock},
                                {"--tile-bytes", tileBytes, w.spec.tileBytes}};
  for (const SpecOption& o : options) {
    if (o.value == 0) continue;
    if (o.accepted.empty()) {
      throw runtime::Error(fmt::format("run: {} does not accept {} ({})", w.name, o.name,
                                       acceptedOptions(w)));
    }
    if (std::find(o.accepted.begin(), o.accepted.end(), o.value) == o.accepted.end()) {
      throw runtime::Error(fmt::format("run: {} does not accept {} {} (accepted: {})", w.name,
                                       o.name, o.value, specValues(o.accepted)));
    }
  }
}

}  // namespace warpsim::app
