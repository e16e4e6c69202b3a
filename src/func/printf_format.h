// Device printf (vprintf) formatting: a format string and a packed argument buffer, as the
// CUDA compiler lays it out (each argument aligned to its size; float promoted to double;
// pointers and %s strings as 64-bit generic addresses).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace warpsim::func {

struct PrintfSource {
  // Reads `n` bytes of the argument buffer at byte offset `offset`; false if unreadable.
  std::function<bool(uint64_t offset, void* dst, unsigned n)> readArg;
  // Reads the NUL-terminated string at a generic address; false if unreadable.
  std::function<bool(uint64_t addr, std::string& out)> readString;
};

// Formats `format` into *out. Supports the conversions d i u x X o c s f F e E g G a A p and %%,
// flags -+ #0, width and precision (digits or *), length modifiers hh h l ll z j t L.
// Returns the number of arguments consumed, or -1 with *error set when an argument or string
// cannot be read or the format is malformed.
int formatPrintf(const std::string& format, const PrintfSource& src, std::string* out, std::string* error);

}  // namespace warpsim::func
