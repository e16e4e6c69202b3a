// Reading a sweep spec (spec.h) from TOML, with every check that can be made before running:
// unknown keys, types, empty or repeated axis values, unknown workloads, variants, programs,
// configurations and overlays, exclusions and baselines naming values that are not on their
// axis, bad JSON paths and clashing column names. Each failure is an Error with one line,
// "SPEC:LINE: error: ...".
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/spec.h"

namespace warpsim::sweep {

struct SpecContext {
  // The workloads of the suite in catalogue order: the known names, and what "all" means.
  std::vector<std::string> workloads;
  // Checks a configuration (overlay false) or overlay name: "" when it resolves, else what is
  // wrong. Unset: names are not checked (the runs will fail instead).
  std::function<std::string(const std::string& name, bool overlay)> checkConfig;
};

// `shownName` names the file in messages; a missing `name` key defaults to `defaultName`.
Spec parseSpec(std::string_view text, const std::string& shownName,
               const std::string& defaultName, const SpecContext& context);
// Reads the file (its name without directory and extension is the default name).
Spec loadSpec(const std::string& path, const SpecContext& context);

}  // namespace warpsim::sweep
