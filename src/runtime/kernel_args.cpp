#include "runtime/kernel_args.h"

#include <fmt/format.h>

namespace warpsim::runtime {

namespace {

bool isFloatParam(ir::Type t) {
  return t == ir::Type::F16 || t == ir::Type::BF16 || t == ir::Type::F32 || t == ir::Type::F64;
}
bool isIntegerParam(ir::Type t) {
  return (ir::isSigned(t) || t == ir::Type::U8 || t == ir::Type::U16 || t == ir::Type::U32 ||
          t == ir::Type::U64);
}
const char* kindName(ArgKind k) {
  switch (k) {
    case ArgKind::Integer: return "an integer";
    case ArgKind::Float: return "a floating-point value";
    case ArgKind::Other: return "a non-scalar value";
  }
  return "a value";
}

}  // namespace

ArgPacker::ArgPacker(const ir::Function& kernel) : kernel_(kernel) {
  buffer_.assign(kernel.kernelParamBytes, 0);
}

void ArgPacker::addBytes(const void* data, uint64_t size, ArgKind kind) {
  if (next_ >= kernel_.params.size()) {
    throw Error(fmt::format("kernel '{}': takes {} argument{}, given more", kernel_.name,
                            kernel_.params.size(), kernel_.params.size() == 1 ? "" : "s"));
  }
  const ir::Param& p = kernel_.params[next_];
  size_t index = next_ + 1;
  if (size != p.size) {
    throw Error(fmt::format("kernel '{}': argument {} ({}) is {} bytes, given {} bytes",
                            kernel_.name, index, p.name, p.size, size));
  }
  if ((isFloatParam(p.type) && kind != ArgKind::Float) ||
      (isIntegerParam(p.type) && kind != ArgKind::Integer)) {
    throw Error(fmt::format("kernel '{}': argument {} ({}) is {}, given {}", kernel_.name, index,
                            p.name, isFloatParam(p.type) ? "floating-point" : "an integer",
                            kindName(kind)));
  }
  if (static_cast<uint64_t>(p.offset) + size > buffer_.size()) {
    throw Error(fmt::format("kernel '{}': argument {} ({}) lies outside the {}-byte argument "
                            "buffer", kernel_.name, index, p.name, buffer_.size()));
  }
  std::memcpy(buffer_.data() + p.offset, data, size);
  ++next_;
}

std::vector<uint8_t> ArgPacker::finish() const {
  if (next_ != kernel_.params.size()) {
    throw Error(fmt::format("kernel '{}': takes {} argument{}, given {}", kernel_.name,
                            kernel_.params.size(), kernel_.params.size() == 1 ? "" : "s", next_));
  }
  return buffer_;
}

}  // namespace warpsim::runtime
