#include "runtime/profile_options.h"

#include "config/config.h"

namespace warpsim::runtime {

ProfileOptions readProfileOptions(config::Tree& tree) {
  config::Section profile = tree.section("profile");
  ProfileOptions o;
  o.valueSimilarity = profile.flag(
      "value_similarity", false,
      "count register writes and local stores by value similarity across lanes (uniform, "
      "affine, common high bytes) per launch");
  return o;
}

}  // namespace warpsim::runtime
