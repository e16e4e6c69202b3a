#include "cudart/host_range.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace warpsim::cudart {

namespace {

constexpr uint64_t kPage = 4096;
constexpr int kAttempts = 16;

// [start, end) of every mapping of this process, sorted.
std::vector<std::pair<uint64_t, uint64_t>> hostMappings() {
  std::vector<std::pair<uint64_t, uint64_t>> maps;
  std::FILE* f = std::fopen("/proc/self/maps", "r");
  if (f == nullptr) return maps;
  unsigned long long lo = 0, hi = 0;
  char line[512];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::sscanf(line, "%llx-%llx", &lo, &hi) == 2) maps.emplace_back(lo, hi);
  }
  std::fclose(f);
  std::sort(maps.begin(), maps.end());
  return maps;
}

}  // namespace

uint64_t reserveHostRange(uint64_t from, uint64_t bytes) {
  uint64_t start = (from + kPage - 1) & ~(kPage - 1);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // Move past every mapping that overlaps [start, start + bytes).
    for (const auto& [lo, hi] : hostMappings()) {
      if (lo < start + bytes && hi > start) start = (hi + kPage - 1) & ~(kPage - 1);
    }
    void* want = reinterpret_cast<void*>(start);
    void* got = mmap(want, bytes, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == want) return start;
    // Taken meanwhile, or a kernel without MAP_FIXED_NOREPLACE placed it elsewhere: try again.
    if (got != MAP_FAILED) munmap(got, bytes);
    start += kPage;
  }
  return 0;
}

}  // namespace warpsim::cudart
