#include "cudart/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpsim::cudart {

namespace {

const char* systemLookup(const char* name) { return std::getenv(name); }

class Environment {
 public:
  explicit Environment(const char* (*lookup)(const char*))
      : lookup_(lookup != nullptr ? lookup : systemLookup) {}

  const char* get(const char* name) const {
    const char* v = lookup_(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
  }

  uint64_t number(const char* name, uint64_t fallback) const {
    const char* v = get(name);
    if (v == nullptr) return fallback;
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (end == v || *end != '\0' || *v == '-') {
      std::fprintf(stderr, "warpsim: %s=%s is not a whole number; using %llu\n", name, v,
                   static_cast<unsigned long long>(fallback));
      return fallback;
    }
    return n;
  }

 private:
  const char* (*lookup_)(const char*);
};

}  // namespace

std::vector<std::string> splitList(const std::string& text, const char* separators) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find_first_of(separators, start), text.size());
    std::string piece = text.substr(start, end - start);
    piece.erase(0, piece.find_first_not_of(' '));
    piece.erase(piece.find_last_not_of(' ') + 1);
    if (!piece.empty()) out.push_back(std::move(piece));
    start = end + 1;
  }
  return out;
}

Options Options::fromEnvironment(const char* (*lookup)(const char*)) {
  Environment env(lookup);
  Options o;
  if (const char* v = env.get("WARPSIM_STATS")) o.statsFile = v;
  if (const char* v = env.get("WARPSIM_QUIET")) o.quiet = std::strcmp(v, "0") != 0;
  if (const char* v = env.get("WARPSIM_MODE")) {
    if (std::strcmp(v, "functional") == 0 || std::strcmp(v, "timing") == 0) {
      o.mode = v;
    } else {
      std::fprintf(stderr, "warpsim: WARPSIM_MODE=%s is unknown (modes: functional, timing); "
                   "using functional\n", v);
    }
  }
  if (const char* v = env.get("WARPSIM_CONFIG")) o.config = v;
  if (const char* v = env.get("WARPSIM_OVERLAYS")) o.overlays = splitList(v, ";,");
  if (const char* v = env.get("WARPSIM_SET")) o.sets = splitList(v, ";");
  o.numSms = static_cast<uint32_t>(env.number("WARPSIM_SMS", 0));
  o.maxWarpInstructions = env.number("WARPSIM_MAX_WARP_INSTRUCTIONS", 0);
  if (const char* v = env.get("WARPSIM_RESOURCES")) o.usePtxas = std::strcmp(v, "ptxas") == 0;
  if (const char* v = env.get("WARPSIM_FAULT")) o.exitOnFault = std::strcmp(v, "error") != 0;
  if (const char* v = env.get("WARPSIM_MEMCHECK")) o.memcheck = std::strcmp(v, "0") != 0;
  if (const char* v = env.get("WARPSIM_INITCHECK")) o.initcheck = std::strcmp(v, "0") != 0;
  return o;
}

}  // namespace warpsim::cudart
