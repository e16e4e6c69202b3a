// Packs typed host values into a kernel's argument buffer, at the offsets and sizes of its
// .param declarations, checking each value against its parameter:
//  * the number of values must equal the number of parameters;
//  * each value's size must equal its parameter's size;
//  * a floating-point parameter (.f16 .f32 .f64) takes a floating-point value, an integer
//    parameter (.u* .s*) an integer (device addresses are uint64_t); .b* parameters and byte
//    arrays (structs passed by value) take any trivially copyable value of the right size.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ir/module.h"
#include "runtime/error.h"

namespace warpsim::runtime {

// What kind of host value an argument is, for the checks above.
enum class ArgKind : uint8_t { Integer, Float, Other };

class ArgPacker {
 public:
  explicit ArgPacker(const ir::Function& kernel);

  template <class T>
  ArgPacker& add(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be trivially copyable");
    constexpr ArgKind kind = std::is_floating_point_v<T>                      ? ArgKind::Float
                             : (std::is_integral_v<T> || std::is_enum_v<T>) ? ArgKind::Integer
                                                                              : ArgKind::Other;
    addBytes(&value, sizeof(T), kind);
    return *this;
  }
  // Appends the next argument as raw bytes.
  void addBytes(const void* data, uint64_t size, ArgKind kind);

  // The finished buffer; throws Error when fewer values than parameters were added.
  std::vector<uint8_t> finish() const;

 private:
  const ir::Function& kernel_;
  std::vector<uint8_t> buffer_;
  size_t next_ = 0;
};

template <class... Args>
std::vector<uint8_t> packArgs(const ir::Function& kernel, const Args&... args) {
  ArgPacker packer(kernel);
  (packer.add(args), ...);
  return packer.finish();
}

}  // namespace warpsim::runtime
