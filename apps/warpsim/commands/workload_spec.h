// The resource specifications of `warpsim run --threads-per-block N --shared-per-block BYTES
// --tile-bytes BYTES`
// (workloads::SpecSpace): checking a request against what a workload accepts, and the text that
// `warpsim list --specs` and the errors show.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace warpsim::app {

// "32, 64, 128"; "none" for an empty list.
std::string specValues(const std::vector<uint32_t>& values);

// Whether `w` accepts any resource specification.
bool acceptsSpecs(const workloads::Workload& w);

// Throws runtime::Error, one line naming the workload, the option and the accepted values,
// unless `w` accepts `threadsPerBlock`, `sharedBytesPerBlock` and `tileBytes` (0: not asked for).
void checkSpec(const workloads::Workload& w, uint32_t threadsPerBlock, uint32_t sharedBytesPerBlock,
               uint32_t tileBytes = 0);

}  // namespace warpsim::app
