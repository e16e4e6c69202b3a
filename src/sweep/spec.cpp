#include "sweep/spec.h"

namespace warpsim::sweep {

namespace {

template <typename T>
const T* byName(const std::vector<T>& items, const std::string& name) {
  for (const T& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

const Axis* Spec::axis(const std::string& name) const { return byName(axes, name); }
const Variant* Spec::variant(const std::string& name) const { return byName(variants, name); }
const Program* Spec::program(const std::string& name) const { return byName(programs, name); }

}  // namespace warpsim::sweep
