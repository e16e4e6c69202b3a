// The stable identity of a sweep point: a 64-bit FNV-1a hash of the warpsim version and the
// point's resolved `warpsim run` arguments, as 16 lower-case hex digits. It depends on nothing
// else (no paths, no time, no axis names), so a point keeps its id, and its results, across
// machines, runs and edits of the spec that leave its command alone.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sweep {

// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3), continued from `hash`.
uint64_t fnv1a64(std::string_view bytes, uint64_t hash = 0xcbf29ce484222325ull);

// Hashes `version`, then each argument, each followed by a NUL byte (so that argument
// boundaries count: {"ab"} and {"a", "b"} differ).
std::string pointId(const std::vector<std::string>& argv, std::string_view version);

}  // namespace warpsim::sweep
