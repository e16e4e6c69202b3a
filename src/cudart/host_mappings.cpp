#include "cudart/host_mappings.h"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "runtime/device.h"

namespace warpsim::cudart {

namespace {
bool mirrored(const HostMapping& m) { return m.registered && m.device != 0; }
}  // namespace

const HostMapping* HostMappings::find(const void* p) const {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  for (const HostMapping& m : mappings_) {
    if (m.contains(a)) return &m;
  }
  return nullptr;
}

HostMapping HostMappings::take(const void* p, bool registered) {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  auto it = std::find_if(mappings_.begin(), mappings_.end(), [&](const HostMapping& m) {
    return m.host == a && m.registered == registered;
  });
  if (it == mappings_.end()) return {};
  HostMapping m = *it;
  mappings_.erase(it);
  return m;
}

bool HostMappings::overlaps(const void* p, uint64_t bytes) const {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  return std::any_of(mappings_.begin(), mappings_.end(), [&](const HostMapping& m) {
    return a < m.host + m.bytes && m.host < a + bytes;
  });
}

uint64_t HostMappings::mirrorOf(const void* p) const {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  for (const HostMapping& m : mappings_) {
    if (mirrored(m) && m.contains(a)) return m.device + (a - m.host);
  }
  return 0;
}

void HostMappings::push(runtime::Device& d) const {
  for (const HostMapping& m : mappings_) {
    if (mirrored(m)) d.memcpyHtoD(m.device, reinterpret_cast<const void*>(m.host), m.bytes);
  }
}

void HostMappings::pull(runtime::Device& d) const {
  for (const HostMapping& m : mappings_) {
    if (mirrored(m) && (m.flags & cudaHostRegisterReadOnly) == 0) {
      d.memcpyDtoH(reinterpret_cast<void*>(m.host), m.device, m.bytes);
    }
  }
}

}  // namespace warpsim::cudart
