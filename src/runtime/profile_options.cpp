#include "runtime/profile_options.h"

#include <fmt/format.h>

#include "config/config.h"

namespace warpsim::runtime {

namespace {

// The key of a "key=value" override, trimmed ("" without '=').
std::string keyOf(const std::string& set) {
  const size_t eq = set.find('=');
  if (eq == std::string::npos) return "";
  const size_t start = set.find_first_not_of(' ');
  const size_t end = set.find_last_not_of(' ', eq - 1);
  return start < eq && end != std::string::npos ? set.substr(start, end - start + 1) : "";
}

}  // namespace

ProfileOptions readProfileOptions(config::Tree& tree) {
  config::Section profile = tree.section("profile");
  ProfileOptions o;
  o.valueSimilarity = profile.flag(
      "value_similarity", false,
      "count register writes and local stores by value similarity across lanes (uniform, "
      "affine, common high bytes) per launch");
  return o;
}

ProfileOptions profileOptionsFromSets(const std::vector<std::string>& sets,
                                      const std::string& base) {
  std::vector<std::string> profileSets;
  for (const std::string& set : sets) {
    if (keyOf(set).starts_with("profile.")) profileSets.push_back(set);
  }
  if (profileSets.empty()) return {};
  config::Tree tree = config::Tree::load(base, {}, profileSets);
  ProfileOptions o = readProfileOptions(tree);
  // No GPU is built here, so Tree::checkAllUsed would report every GPU key: check the profile
  // overrides alone, with its message.
  for (const std::string& set : profileSets) {
    if (keyOf(set) != "profile.value_similarity") {
      throw config::Error(
          fmt::format("config: error: --set '{}': unknown key '{}'", set, keyOf(set)));
    }
  }
  return o;
}

}  // namespace warpsim::runtime
