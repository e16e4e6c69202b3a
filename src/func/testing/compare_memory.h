// Test support: compares the live allocations of two devices' memories byte by byte.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "func/device_memory.h"

namespace warpsim::func::testing {

// The first difference between the live allocations of `a` and `b`, or "" when equal.
inline std::string compareMemory(const DeviceMemory& a, const DeviceMemory& b) {
  if (a.allocations().size() != b.allocations().size()) return "different allocation lists";
  for (size_t i = 0; i < a.allocations().size(); ++i) {
    const auto& x = a.allocations()[i];
    const auto& y = b.allocations()[i];
    if (x.base != y.base || x.size != y.size) return "allocation " + std::to_string(i) + " differs";
    std::vector<uint8_t> bx(x.size), by(y.size);
    a.read(x.base, bx.data(), x.size);
    b.read(y.base, by.data(), y.size);
    for (size_t k = 0; k < bx.size(); ++k) {
      if (bx[k] != by[k]) {
        return "allocation " + std::to_string(i) + " byte " + std::to_string(k) + ": " +
               std::to_string(bx[k]) + " vs " + std::to_string(by[k]);
      }
    }
  }
  return "";
}

}  // namespace warpsim::func::testing
