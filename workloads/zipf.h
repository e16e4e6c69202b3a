// A Zipf-like popularity over n items (weight of rank k is 1/k, as measured for web pages,
// clients and the words of a language), for the workloads' input generators: sample() returns a
// rank in [0, n). `first` > 1 takes a stretch of the law's tail: weights 1/(first + k).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "check.h"

namespace warpsim::workloads {

class Zipf {
 public:
  explicit Zipf(size_t n, size_t first = 1) : cdf_(n) {
    double sum = 0;
    for (size_t k = 0; k < n; ++k) cdf_[k] = sum += 1.0 / static_cast<double>(first + k);
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
