// Page-locked host memory: what cudaMallocHost and cudaHostAlloc allocated and what
// cudaHostRegister registered, and which of it the device can reach (mapped, zero-copy).
//
// Mapped memory is managed memory underneath (context.h): cudaHostAlloc(cudaHostAllocMapped)
// memory is a managed allocation, host pages at the very address the device uses, so with
// unified addressing the device pointer equals the host pointer. Memory registered with
// cudaHostRegisterMapped stays where the program has it; it gets a device mirror (a separate
// device allocation, cudaHostGetDevicePointer's answer; cudaDevAttrCanUseHostPointerForRegisteredMem
// is 0) that is written from the host range before every launch, copy and memset and read back
// after (not read back when registered read-only), as managed memory is. Pinned memory the
// program did not ask to map stays host-only: every mirrored byte is copied around every
// operation, so large staging buffers are left alone.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::runtime {
class Device;
}

namespace warpsim::cudart {

struct HostMapping {
  uint64_t host = 0, bytes = 0;
  uint64_t device = 0;      // 0: not mapped
  unsigned flags = 0;       // as given to cudaHostAlloc / cudaHostRegister
  bool registered = false;  // cudaHostRegister (else allocated by the runtime)
  bool contains(uint64_t a) const { return a >= host && a - host < bytes; }
};

class HostMappings {
 public:
  void add(const HostMapping& m) { mappings_.push_back(m); }
  // The mapping containing `p`, or nullptr.
  const HostMapping* find(const void* p) const;
  // The mapping starting exactly at `p` of the given kind, removed and returned (bytes == 0 when
  // there is none).
  HostMapping take(const void* p, bool registered);
  // Whether [p, p + bytes) overlaps registered or allocated pinned memory.
  bool overlaps(const void* p, uint64_t bytes) const;
  // The device address of `p` inside registered mapped memory (its mirror), else 0. Memory
  // allocated mapped needs no translation: its device address is its host address.
  uint64_t mirrorOf(const void* p) const;

  // Registered mapped memory: host range -> mirror, and back (read-only registrations are not
  // read back).
  void push(runtime::Device& d) const;
  void pull(runtime::Device& d) const;

 private:
  std::vector<HostMapping> mappings_;
};

}  // namespace warpsim::cudart
