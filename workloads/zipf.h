// A Zipf-like popularity over n items (weight of rank k is 1/k, as measured for web pages and
// clients), for the generators of the web-log workloads: sample() returns a rank in [0, n).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "check.h"

namespace warpsim::workloads {

class Zipf {
 public:
  explicit Zipf(size_t n) : cdf_(n) {
    double sum = 0;
    for (size_t k = 0; k < n; ++k) cdf_[k] = sum += 1.0 / static_cast<double>(k + 1);
    for (double& c : cdf_) c /= sum;
  }
  size_t sample(InputGenerator& gen) const {
    double u = uniformReal(gen, 0.0, 1.0);
    return std::min<size_t>(std::upper_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin(),
                            cdf_.size() - 1);
  }

 private:
  std::vector<double> cdf_;
};

}  // namespace warpsim::workloads
