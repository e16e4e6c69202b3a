// The [profile] section of the configuration: measurements of the executed program that any
// run can switch on, whatever GPU it simulates and in either mode. Each switch adds an
// ExecObserver to every launch; a switch that is off costs nothing.
//
//   [profile]
//   value_similarity = true   # per-launch value similarity (src/profile, docs/stats.md)
#pragma once
#include <string>
#include <vector>

namespace warpsim::config {
class Tree;
}

namespace warpsim::runtime {

struct ProfileOptions {
  bool valueSimilarity = false;  // profile.value_similarity
};

// Reads (and so declares) the profile keys of `tree`. Throws config::Error for a bad value.
ProfileOptions readProfileOptions(config::Tree& tree);

// A functional Device without a named configuration loads none, but its "key=value" overrides
// that set profile keys still apply: they are read on top of the configuration `base`, and
// every other override is left unused, as before. Throws config::Error for a malformed
// override, a bad value or a profile key that does not exist.
ProfileOptions profileOptionsFromSets(const std::vector<std::string>& sets,
                                      const std::string& base);

}  // namespace warpsim::runtime
