// Thrust on the simulator: thrust::reduce and thrust::sort on a device_vector, compared with
// the host's std::accumulate and std::sort. CUB's radix sort needs the bmsk instruction and
// several kernels per pass (upsweep, scan, onesweep).
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  const int n = 100000;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = static_cast<int>((i * 7919u) % 100003u) - 50000;
  thrust::device_vector<int> d(values.begin(), values.end());

  long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
  long long want = std::accumulate(values.begin(), values.end(), 0LL);
  std::printf("reduce: %lld (%s)\n", sum, sum == want ? "matches the host" : "WRONG");

  thrust::sort(d.begin(), d.end());
  thrust::host_vector<int> sorted = d;
  std::sort(values.begin(), values.end());
  bool same = std::equal(values.begin(), values.end(), sorted.begin());
  std::printf("sort: first %d, last %d (%s)\n", sorted[0], sorted[n - 1],
              same ? "matches the host" : "WRONG");
  return sum == want && same ? 0 : 1;
}
