// The real contents of a line of device memory, for mechanisms whose cost depends on values
// (memory compression). Bytes outside live allocations — including the local-memory and
// kernel-parameter regions (coalescer.h), whose values are not in DeviceMemory — read as zero.
#pragma once
#include <cstdint>

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::timing::mem {

void readLineData(const func::DeviceMemory& memory, uint64_t addr, uint32_t bytes, uint8_t* out);

}  // namespace warpsim::timing::mem
