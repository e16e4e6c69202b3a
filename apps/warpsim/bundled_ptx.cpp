#include "bundled_ptx.h"

#include <fmt/format.h>

#include "runtime/error.h"

namespace warpsim::app {

std::string_view bundledPtx(std::string_view name) {
  for (const BundledPtx& f : bundledPtxFiles()) {
    if (f.name == name) return f.text;
  }
  throw runtime::Error(fmt::format("no bundled PTX file '{}'", name));
}

}  // namespace warpsim::app
