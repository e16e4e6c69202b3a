#include "func/printf_format.h"

#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace warpsim::func {
namespace {

// Appends snprintf(spec, value) to *out.
template <class T>
void appendFormatted(std::string* out, const std::string& spec, T value) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, spec.c_str(), value);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out->append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out->append(big.data(), static_cast<size_t>(n));
}

}  // namespace

int formatPrintf(const std::string& format, const PrintfSource& src, std::string* out, std::string* error) {
  uint64_t offset = 0;
  int consumed = 0;
  auto fetch = [&](unsigned size, uint64_t* value) {
    offset = (offset + size - 1) / size * size;
    uint64_t v = 0;
    if (!src.readArg(offset, &v, size)) {
      *error = fmt::format("printf argument {} (offset {} in the argument buffer) is not readable", consumed + 1,
                           offset);
      return false;
    }
    offset += size;
    ++consumed;
    *value = v;
    return true;
  };

  for (size_t i = 0; i < format.size(); ++i) {
    const char ch = format[i];
    if (ch != '%') {
      out->push_back(ch);
      continue;
    }
    const size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out->push_back('%');
      continue;
    }
    std::string spec = "%";
    while (i < format.size() && std::strchr("-+ #0", format[i])) spec.push_back(format[i++]);
    auto numberOrStar = [&]() -> bool {
      if (i < format.size() && format[i] == '*') {
        uint64_t v;
        if (!fetch(4, &v)) return false;
        spec += std::to_string(static_cast<int32_t>(v));
        ++i;
        return true;
      }
      while (i < format.size() && format[i] >= '0' && format[i] <= '9') spec.push_back(format[i++]);
      return true;
    };
    if (!numberOrStar()) return -1;
    if (i < format.size() && format[i] == '.') {
      spec.push_back('.');
      ++i;
      if (!numberOrStar()) return -1;
    }
    unsigned intBytes = 4;  // int-sized by default; l ll z j t: 64-bit on the device ABI
    while (i < format.size() && std::strchr("hlzjtLq", format[i])) {
      if (std::strchr("lzjtLq", format[i])) intBytes = 8;
      ++i;
    }
    if (i >= format.size()) {
      *error = fmt::format("printf format '{}' ends inside a conversion", format.substr(start));
      return -1;
    }
    const char conv = format[i];
    uint64_t v = 0;
    switch (conv) {
      case 'd': case 'i':
        if (!fetch(intBytes, &v)) return -1;
        appendFormatted(out, spec + "lld",
                        intBytes == 8 ? static_cast<long long>(v) : static_cast<long long>(static_cast<int32_t>(v)));
        break;
      case 'u': case 'x': case 'X': case 'o':
        if (!fetch(intBytes, &v)) return -1;
        appendFormatted(out, spec + "ll" + conv,
                        static_cast<unsigned long long>(intBytes == 8 ? v : static_cast<uint32_t>(v)));
        break;
      case 'c':
        if (!fetch(4, &v)) return -1;
        appendFormatted(out, spec + "c", static_cast<int>(static_cast<unsigned char>(v)));
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (!fetch(8, &v)) return -1;
        double d;
        std::memcpy(&d, &v, 8);
        appendFormatted(out, spec + conv, d);
        break;
      }
      case 'p':
        if (!fetch(8, &v)) return -1;
        appendFormatted(out, spec + "p", reinterpret_cast<void*>(static_cast<uintptr_t>(v)));
        break;
      case 's': {
        if (!fetch(8, &v)) return -1;
        std::string s;
        if (v == 0) {
          s = "(null)";
        } else if (!src.readString(v, s)) {
          *error = fmt::format("printf %s argument {} points to unreadable memory at {:#x}", consumed, v);
          return -1;
        }
        appendFormatted(out, spec + "s", s.c_str());
        break;
      }
      default:
        *error = fmt::format("unsupported printf conversion '%{}'", conv);
        return -1;
    }
  }
  return consumed;
}

}  // namespace warpsim::func
