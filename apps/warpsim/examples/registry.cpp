#include <fmt/format.h>

#include "examples/example.h"
#include "runtime/error.h"

namespace warpsim::app {

void ExampleRegistry::add(Example example) {
  if (find(example.name) != nullptr) {
    throw runtime::Error(fmt::format("example '{}' registered twice", example.name));
  }
  examples_.push_back(std::move(example));
}

const Example* ExampleRegistry::find(const std::string& name) const {
  for (const Example& e : examples_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

ExampleRegistry bundledExamples() {
  ExampleRegistry r;
  registerVecaddReduce(r);
  registerMatmul(r);
  registerHistogram(r);
  return r;
}

}  // namespace warpsim::app
