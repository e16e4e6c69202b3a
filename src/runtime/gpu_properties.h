// The device properties (runtime/device.h GpuProperties) of a resolved GPU configuration.
#pragma once
#include <cstdint>

#include "config/config.h"
#include "runtime/device.h"

namespace warpsim::runtime {

// Reads what CUDA's device properties report from the keys the timing model resolved (call it
// after the model is built, so every key has its value, default or not). The compute
// capability comes from [gpu].compute_capability ("major.minor"); the memory clock is
// [clocks].dram and the bus width the one for which CUDA's bandwidth formula
// (2 x clock x width / 8) gives the modelled DRAM bandwidth.
GpuProperties gpuProperties(config::Tree& tree, uint64_t memoryBytes);

// The same properties without the timing model (functional mode): reads the keys they come
// from, each with the default of the component that owns it in timing mode, then as above.
// Throws config::Error for a bad value.
GpuProperties gpuPropertiesWithoutModel(config::Tree& tree, uint64_t memoryBytes);

}  // namespace warpsim::runtime
