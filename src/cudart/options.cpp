#include "cudart/options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpsim::cudart {

namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

uint64_t envNumber(const char* name, uint64_t fallback) {
  const char* v = env(name);
  if (v == nullptr) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0') {
    std::fprintf(stderr, "warpsim: %s=%s is not a number; using %llu\n", name, v,
                 static_cast<unsigned long long>(fallback));
    return fallback;
  }
  return n;
}

}  // namespace

Options Options::fromEnvironment() {
  Options o;
  if (const char* v = env("WARPSIM_STATS")) o.statsFile = v;
  if (const char* v = env("WARPSIM_QUIET")) o.quiet = std::strcmp(v, "0") != 0;
  o.numSms = static_cast<uint32_t>(envNumber("WARPSIM_SMS", 80));
  if (o.numSms == 0) o.numSms = 80;
  o.maxWarpInstructions = envNumber("WARPSIM_MAX_WARP_INSTRUCTIONS", 0);
  if (const char* v = env("WARPSIM_RESOURCES")) o.usePtxas = std::strcmp(v, "ptxas") == 0;
  if (const char* v = env("WARPSIM_FAULT")) o.exitOnFault = std::strcmp(v, "error") != 0;
  return o;
}

}  // namespace warpsim::cudart
