// The [profile] section of the configuration: measurements of the executed program that any
// run can switch on, whatever GPU it simulates and in either mode. Each switch adds an
// ExecObserver to every launch; a switch that is off costs nothing.
//
//   [profile]
//   value_similarity = true   # per-launch value similarity (src/profile, docs/stats.md)
#pragma once

namespace warpsim::config {
class Tree;
}

namespace warpsim::runtime {

struct ProfileOptions {
  bool valueSimilarity = false;  // profile.value_similarity
};

// Reads (and so declares) the profile keys of `tree`. Throws config::Error for a bad value.
ProfileOptions readProfileOptions(config::Tree& tree);

}  // namespace warpsim::runtime
