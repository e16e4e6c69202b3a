#include "calibration/targets.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "calibration/measurements.h"
#include "config/config.h"

namespace warpsim::calibration {

namespace {

[[noreturn]] void fail(const std::string& file, const toml::node& at, const std::string& what) {
  throw Error(fmt::format("{}:{}: error: {}", file, at.source().begin.line, what));
}

std::string requireString(const std::string& file, const toml::table& t, const char* key,
                          const toml::node& where) {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail(file, where, fmt::format("'{}' is missing", key));
  if (!n->is_string()) fail(file, *n, fmt::format("'{}' must be a string", key));
  return n->as_string()->get();
}

double number(const std::string& file, const toml::node& n, const char* what) {
  if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
  if (n.is_floating_point()) return n.as_floating_point()->get();
  fail(file, n, fmt::format("'{}' must be a number", what));
}

Target parseTarget(const std::string& file, const toml::table& t, const TargetSet& set) {
  Target x;
  x.line = static_cast<int>(t.source().begin.line);
  x.measurement = requireString(file, t, "measurement", t);
  if (findMeasurement(x.measurement) == nullptr) {
    fail(file, *t.get("measurement"),
         fmt::format("unknown measurement '{}' (warpsim calibrate --list shows them)", x.measurement));
  }
  const toml::node* value = t.get("value");
  const toml::node* range = t.get("range");
  if ((value == nullptr) == (range == nullptr)) {
    fail(file, t, "a target needs exactly one of 'value' (a published figure) and 'range' ([low, high])");
  }
  if (value != nullptr) {
    x.low = x.high = number(file, *value, "value");
  } else {
    const toml::array* a = range->as_array();
    if (a == nullptr || a->size() != 2) fail(file, *range, "'range' must be [low, high]");
    x.low = number(file, *a->get(0), "range");
    x.high = number(file, *a->get(1), "range");
    if (x.low > x.high) fail(file, *range, "'range' must be [low, high] with low <= high");
    x.tolerance = 0.10;
  }
  if (x.low <= 0) fail(file, value != nullptr ? *value : *range, "targets must be positive");
  if (const toml::node* tol = t.get("tolerance")) {
    x.tolerance = number(file, *tol, "tolerance");
    if (x.tolerance <= 0 || x.tolerance >= 1) fail(file, *tol, "'tolerance' is a fraction in (0, 1)");
  }
  x.source = requireString(file, t, "source", t);
  if (set.sources.count(x.source) == 0) {
    fail(file, *t.get("source"), fmt::format("source '{}' is not in [sources]", x.source));
  }
  if (t.get("fit") != nullptr) x.fit = requireString(file, t, "fit", t);
  if (t.get("note") != nullptr) x.note = requireString(file, t, "note", t);
  for (const auto& [key, node] : t) {
    static const char* known[] = {"measurement", "value", "range", "tolerance", "source", "fit", "note"};
    if (std::find(std::begin(known), std::end(known), key.str()) == std::end(known)) {
      fail(file, node, fmt::format("unknown key '{}' in a target", key.str()));
    }
  }
  return x;
}

}  // namespace

double Target::error(double value) const {
  if (value < low) return (low - value) / low;
  if (value > high) return (value - high) / high;
  return 0;
}

TargetSet parseTargets(std::string_view text, const std::string& file) {
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(file));
  } catch (const toml::parse_error& e) {
    throw Error(fmt::format("{}:{}: error: {}", file, e.source().begin.line, e.description()));
  }
  TargetSet set;
  set.file = file;
  set.gpu = requireString(file, root, "gpu", root);
  if (const toml::node* sets = root.get("sets")) {
    const toml::array* a = sets->as_array();
    if (a == nullptr) fail(file, *sets, "'sets' must be an array of \"key=value\" strings");
    for (const toml::node& s : *a) {
      if (!s.is_string() || s.as_string()->get().find('=') == std::string::npos) {
        fail(file, s, "'sets' must be an array of \"key=value\" strings");
      }
      set.sets.push_back(s.as_string()->get());
    }
  }
  const toml::table* sources = root["sources"].as_table();
  if (sources == nullptr) fail(file, root, "'[sources]' is missing: every target names its source");
  for (const auto& [key, node] : *sources) {
    if (!node.is_string()) fail(file, node, "each source is a string naming the publication");
    set.sources[std::string(key.str())] = node.as_string()->get();
  }
  const toml::array* targets = root["target"].as_array();
  if (targets == nullptr || targets->empty()) fail(file, root, "no [[target]] entries");
  for (const toml::node& n : *targets) {
    const toml::table* t = n.as_table();
    if (t == nullptr) fail(file, n, "[[target]] entries must be tables");
    set.targets.push_back(parseTarget(file, *t, set));
  }
  for (const auto& [key, node] : root) {
    static const char* known[] = {"gpu", "sets", "sources", "target"};
    if (std::find(std::begin(known), std::end(known), key.str()) == std::end(known)) {
      fail(file, node, fmt::format("unknown key '{}'", key.str()));
    }
  }
  return set;
}

TargetSet loadTargets(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: error: cannot read the targets file", path));
  std::stringstream text;
  text << in.rdbuf();
  return parseTargets(text.str(), path);
}

std::string findTargets(const std::string& gpu) {
  for (const std::string& dir : config::Tree::searchPath(false)) {
    const std::filesystem::path p = std::filesystem::path(dir) / "calibration" / (gpu + ".toml");
    if (std::filesystem::exists(p)) return p.string();
  }
  return "";
}

}  // namespace warpsim::calibration
