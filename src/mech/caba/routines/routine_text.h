// A PTX routine under construction for the assist warp store: instructions and labels are
// emitted one by one, and finish() declares exactly the registers the body names (%p, %r, %rd,
// numbered densely from 0; a gap is a generator bug) and the staging buffer.
#pragma once
#include <bit>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace warpsim::mech::caba {

// The module header the routines are parsed under (the store and the tests).
inline constexpr const char* kRoutineModuleHeader = ".version 7.0\n.target sm_80\n.address_size 64\n\n";

class RoutineText {
 public:
  void emit(std::string_view line) {
    body_ += "  ";
    body_ += line;
    body_ += '\n';
  }
  void label(std::string_view name) {
    body_ += name;
    body_ += ":\n";
  }
  std::string finish(std::string_view name, uint32_t sharedBytes) const {
    std::string t = fmt::format(".entry {}(.param .u64 line)\n{{\n", name);
    for (const auto& [prefix, type] : {std::pair{"%p", ".pred"}, {"%r", ".b32"}, {"%rd", ".b64"}}) {
      const uint32_t n = count(prefix, name);
      if (n != 0) t += fmt::format("  .reg {} {}<{}>;\n", type, prefix, n);
    }
    t += fmt::format("  .shared .align 8 .b8 buf[{}];\n", sharedBytes);
    return t + body_ + "}\n\n";
  }

 private:
  // How many registers `prefix`<number> the body names (%rd0 is not an %r: a letter follows);
  // throws std::logic_error when the numbers leave a gap (a declared register nothing uses).
  uint32_t count(std::string_view prefix, std::string_view routine) const {
    uint64_t used = 0;
    for (size_t at = body_.find(prefix); at != std::string::npos; at = body_.find(prefix, at + 1)) {
      size_t i = at + prefix.size();
      if (i >= body_.size() || !std::isdigit(static_cast<unsigned char>(body_[i]))) continue;
      uint32_t n = 0;
      while (i < body_.size() && std::isdigit(static_cast<unsigned char>(body_[i])))
        n = 10 * n + uint32_t(body_[i++] - '0');
      if (n >= 64) throw std::logic_error(fmt::format("{}: register {}{} beyond 63", routine, prefix, n));
      used |= uint64_t{1} << n;
    }
    if ((used & (used + 1)) != 0)
      throw std::logic_error(fmt::format("{}: the {} registers are not numbered densely", routine, prefix));
    return static_cast<uint32_t>(std::popcount(used));
  }

  std::string body_;
};

}  // namespace warpsim::mech::caba
