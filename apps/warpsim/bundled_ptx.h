// The PTX of the CUDA test kernels (tests/cuda/*.ptx), compiled into the binary.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::app {

struct BundledPtx {
  std::string_view name;  // file name without directory and ".ptx", e.g. "vector_add"
  std::string_view text;
};

const std::vector<BundledPtx>& bundledPtxFiles();

// The text of bundled file `name`; throws runtime::Error when there is none.
std::string_view bundledPtx(std::string_view name);

}  // namespace warpsim::app
