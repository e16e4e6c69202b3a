// Test helper: parsing spec text against a small fixed suite and configuration set.
#pragma once
#include <string>

#include "sweep/error.h"
#include "sweep/spec_parser.h"

namespace warpsim::sweep {

inline SpecContext testContext() {
  SpecContext c;
  c.workloads = {"vecadd", "saxpy", "kmeans"};
  c.checkConfig = [](const std::string& name, bool overlay) -> std::string {
    if (!overlay && (name == "gtx480" || name == "v100")) return "";
    if (overlay && (name == "gscalar" || name == "lrr")) return "";
    return overlay ? "no overlay of that name" : "no configuration of that name";
  };
  return c;
}

inline Spec parseText(const std::string& text) {
  return parseSpec(text, "s.toml", "s", testContext());
}

// The message of the Error that parsing `text` throws ("" when it parses).
inline std::string specError(const std::string& text) {
  try {
    parseText(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace warpsim::sweep
