// Implementations of the timing model's extension points, registered by name.
//
// Each extension point is an interface class I (timing/sm/i_*.h, timing/mem/i_*.h, ...) that
// declares
//   static constexpr const char* kPoint = "warp_scheduler";   // name in messages and configs
//   struct Context { ... };                                   // what a factory receives
// The core registers its baseline implementation of every point (registerBaselines); each
// mechanism folder src/mech/<name>/ provides `void registerMechanism_<name>(PluginRegistry&)`,
// called from a list CMake generates from the folders present (so deleting a folder removes
// the mechanism and nothing else). The configuration selects implementations by name.
//
// A registry belongs to one simulation (no global state); it is filled before the model is
// built and read only afterwards.
#pragma once
#include <any>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <typeindex>
#include <vector>

#include "config/config.h"

namespace warpsim::timing {

class PluginRegistry {
 public:
  template <class I>
  using Factory = std::function<std::unique_ptr<I>(const typename I::Context&)>;

  // Registers implementation `name` of extension point I. A second registration of the same
  // name throws config::Error.
  template <class I>
  void add(std::string name, std::string description, Factory<I> make) {
    auto& impls = points_[std::type_index(typeid(I))];
    if (impls.count(name)) {
      throw config::Error("config: error: " + std::string(I::kPoint) + " '" + name +
                          "' registered twice");
    }
    impls.emplace(std::move(name), Entry{std::move(description), std::any(std::move(make))});
  }

  // Creates implementation `name` of I; an unknown name throws config::Error listing the known
  // ones.
  template <class I>
  std::unique_ptr<I> make(std::string_view name, const typename I::Context& context) const {
    auto point = points_.find(std::type_index(typeid(I)));
    if (point != points_.end()) {
      auto impl = point->second.find(std::string(name));
      if (impl != point->second.end()) {
        return std::any_cast<const Factory<I>&>(impl->second.make)(context);
      }
    }
    std::string known;
    for (const auto& [n, e] : implementations<I>()) known += (known.empty() ? "" : ", ") + n;
    throw config::Error("config: error: unknown " + std::string(I::kPoint) + " '" +
                        std::string(name) + "' (known: " + known + ")");
  }

  // (name, description) of every implementation of I, sorted by name.
  template <class I>
  std::vector<std::pair<std::string, std::string>> implementations() const {
    std::vector<std::pair<std::string, std::string>> out;
    auto point = points_.find(std::type_index(typeid(I)));
    if (point == points_.end()) return out;
    for (const auto& [n, e] : point->second) out.emplace_back(n, e.description);
    return out;
  }

  template <class I>
  bool has(std::string_view name) const {
    auto point = points_.find(std::type_index(typeid(I)));
    return point != points_.end() && point->second.count(std::string(name)) != 0;
  }

 private:
  struct Entry {
    std::string description;
    std::any make;
  };
  std::map<std::type_index, std::map<std::string, Entry>> points_;
};

// The core's baseline implementations of every extension point (timing/baselines.cpp).
void registerBaselines(PluginRegistry& registry);
// Every mechanism compiled in (generated from src/mech/*/, see src/mech/CMakeLists.txt).
void registerMechanisms(PluginRegistry& registry);

}  // namespace warpsim::timing
