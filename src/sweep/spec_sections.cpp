// [variants], [programs], [[exclude]], [columns] and [derived] of a spec.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sweep/spec_sections.h"

namespace warpsim::sweep {

namespace {

std::string axisNames(const Spec& spec) {
  std::string out;
  for (const Axis& a : spec.axes) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

// The axis named `name` (with where it was named, for the message).
const Axis& namedAxis(const SpecToml& toml, const Spec& spec, const std::string& name,
                      uint32_t line, const std::string& where) {
  const Axis* axis = spec.axis(name);
  if (axis == nullptr) {
    toml.fail(line, fmt::format("'{}' in {} is not an axis of this sweep (axes: {})", name, where,
                                axisNames(spec)));
  }
  return *axis;
}

// The value texts of one entry of an exclusion or baseline: a value, or (unless `single`) an
// array of values, each on the axis.
std::vector<std::string> matchValues(const SpecToml& toml, const TomlEntry& e, const Axis& axis,
                                     bool single, const std::string& where) {
  std::vector<TomlEntry> elements;
  if (e.node->is_array() && !single) {
    elements = toml.array(e, where);
    if (elements.empty()) toml.fail(e.line, fmt::format("'{}' in {} has no values", axis.name, where));
  } else {
    elements.push_back(e);
  }
  std::vector<std::string> texts;
  for (const TomlEntry& element : elements) {
    const AxisValue v = scalarValue(toml, element, axis.kind,
                                    fmt::format("'{}' in {}", axis.name, where));
    if (std::find(axis.values.begin(), axis.values.end(), v) == axis.values.end()) {
      toml.fail(element.line, fmt::format("'{}' in {} is not a value of axis '{}'", v.text, where,
                                          axis.name));
    }
    texts.push_back(v.text);
  }
  return texts;
}

// An exclusion or a baseline: axis = value (or [values]); configuration keys under `set`.
AxisMatch parseMatch(const SpecToml& toml, const TomlEntry& e, const Spec& spec, bool single,
                     const std::string& where) {
  AxisMatch match;
  match.line = e.line;
  for (const TomlEntry& k : SpecToml::entries(toml.table(e, where))) {
    std::vector<TomlEntry> keys;
    std::string prefix;
    if (k.key == "set" && k.node->is_table()) {
      keys = SpecToml::entries(*k.node->as_table());
      prefix = "set:";
    } else {
      keys.push_back(k);
    }
    for (const TomlEntry& key : keys) {
      const Axis& axis = namedAxis(toml, spec, prefix + key.key, key.line, where);
      match.axes.emplace_back(axis.name, matchValues(toml, key, axis, single, where));
    }
  }
  if (match.axes.empty()) toml.fail(e.line, where + " names no axis");
  return match;
}

void checkColumnName(const SpecToml& toml, const Spec& spec, const std::string& name,
                     uint32_t line, const std::string& what) {
  if (name == "id" || name == "status" || name == "wall_seconds" || spec.axis(name) != nullptr) {
    toml.fail(line, fmt::format("{} '{}' has the name of a fixed column (id, the axes, status, "
                                "wall_seconds)", what, name));
  }
}

}  // namespace

std::vector<Variant> parseVariants(const SpecToml& toml, const TomlEntry& section,
                                   const SpecContext& context) {
  std::vector<Variant> variants;
  for (const TomlEntry& e : SpecToml::entries(toml.table(section, "[variants]"))) {
    const std::string where = "[variants." + e.key + "]";
    const toml::table& t = toml.table(e, where);
    toml.checkKnown(t, {"description", "overlays", "sets", "options"}, where);
    Variant v;
    v.name = e.key;
    v.line = e.line;
    for (const TomlEntry& k : SpecToml::entries(t)) {
      if (k.key == "description") v.description = toml.string(k, "'description'");
      if (k.key == "overlays") {
        v.overlays = toml.strings(k, "'overlays'");
        for (const std::string& o : v.overlays) {
          const std::string problem = context.checkConfig ? context.checkConfig(o, true) : "";
          if (!problem.empty()) toml.fail(k.line, fmt::format("overlay '{}': {}", o, problem));
        }
      }
      if (k.key == "sets") {
        v.sets = toml.strings(k, "'sets'");
        for (const std::string& s : v.sets) {
          if (s.find('=') == std::string::npos || s.front() == '=') {
            toml.fail(k.line, fmt::format("'{}' in 'sets' is not key=value", s));
          }
        }
      }
      if (k.key == "options") {
        v.options = toml.strings(k, "'options'");
        v.optionsLine = k.line;
      }
    }
    variants.push_back(std::move(v));
  }
  return variants;
}

void checkVariantOptions(const SpecToml& toml, const Spec& spec) {
  // Options the sweep itself gives, and those an axis gives when the spec has that axis.
  static constexpr std::pair<const char*, const char*> kOwned[] = {
      {"--stats", nullptr}, {"-q", nullptr},    {"--quiet", nullptr},
      {"--all", nullptr},   {"--", nullptr},    {"--size", "size"},
      {"--config", "config"}, {"--mode", "mode"}, {"--seed", "seed"},
      {"--max-registers", "registers"},
  };
  for (const Variant& v : spec.variants) {
    for (const std::string& option : v.options) {
      for (const auto& [name, axis] : kOwned) {
        const std::string n = name;
        const bool same = option == n || (n != "--" && option.rfind(n + "=", 0) == 0);
        if (!same) continue;
        if (axis == nullptr) {
          toml.fail(v.optionsLine, fmt::format("variant '{}': option '{}' is the sweep's own (it adds "
                                        "--stats and -q to every run)", v.name, option));
        }
        if (spec.axis(axis) != nullptr) {
          toml.fail(v.optionsLine, fmt::format("variant '{}': option '{}' conflicts with the '{}' axis",
                                        v.name, option, axis));
        }
      }
    }
  }
}

std::vector<Program> parsePrograms(const SpecToml& toml, const TomlEntry& section) {
  std::vector<Program> programs;
  for (const TomlEntry& e : SpecToml::entries(toml.table(section, "[programs]"))) {
    const std::string where = "[programs." + e.key + "]";
    const toml::table& t = toml.table(e, where);
    toml.checkKnown(t, {"description", "command"}, where);
    Program p;
    p.name = e.key;
    p.line = e.line;
    for (const TomlEntry& k : SpecToml::entries(t)) {
      if (k.key == "description") p.description = toml.string(k, "'description'");
      if (k.key == "command") {
        p.command = toml.strings(k, "'command'");
        if (p.command.empty() || p.command.front().empty()) {
          toml.fail(k.line, where + ": 'command' needs at least the program to run");
        }
      }
    }
    if (p.command.empty()) toml.fail(e.line, where + " has no 'command'");
    programs.push_back(std::move(p));
  }
  return programs;
}

std::vector<AxisMatch> parseExcludes(const SpecToml& toml, const TomlEntry& section,
                                     const Spec& spec) {
  std::vector<AxisMatch> excludes;
  for (const TomlEntry& e : toml.array(section, "'exclude' ([[exclude]] tables)")) {
    if (!e.node->is_table()) toml.fail(e.line, "'exclude' must be an array of tables ([[exclude]])");
    excludes.push_back(parseMatch(toml, e, spec, false, "[[exclude]]"));
  }
  return excludes;
}

std::vector<Column> parseColumns(const SpecToml& toml, const TomlEntry& section, const Spec& spec) {
  std::vector<Column> columns;
  for (const TomlEntry& e : SpecToml::entries(toml.table(section, "[columns]"))) {
    checkColumnName(toml, spec, e.key, e.line, "column");
    Column c;
    c.name = e.key;
    c.line = e.line;
    const std::string path = toml.string(e, "column '" + e.key + "' (a JSON path)");
    try {
      c.path = JsonPath::parse(path);
    } catch (const std::invalid_argument& bad) {
      toml.fail(e.line, fmt::format("column '{}': bad JSON path '{}': {}", e.key, path, bad.what()));
    }
    columns.push_back(std::move(c));
  }
  return columns;
}

std::vector<Derived> parseDerived(const SpecToml& toml, const TomlEntry& section, const Spec& spec) {
  std::vector<Derived> derived;
  for (const TomlEntry& e : SpecToml::entries(toml.table(section, "[derived]"))) {
    const std::string where = "[derived." + e.key + "]";
    checkColumnName(toml, spec, e.key, e.line, "derived column");
    if (std::any_of(spec.columns.begin(), spec.columns.end(),
                    [&](const Column& c) { return c.name == e.key; })) {
      toml.fail(e.line, fmt::format("derived column '{}' has the name of a [columns] entry", e.key));
    }
    const toml::table& t = toml.table(e, where);
    toml.checkKnown(t, {"ratio", "baseline", "invert"}, where);
    Derived d;
    d.name = e.key;
    d.line = e.line;
    bool hasBaseline = false;
    for (const TomlEntry& k : SpecToml::entries(t)) {
      if (k.key == "invert") d.invert = toml.boolean(k, "'invert'");
      if (k.key == "ratio") {
        d.ratio = toml.string(k, "'ratio'");
        const bool known = d.ratio == "wall_seconds" ||
                           std::any_of(spec.columns.begin(), spec.columns.end(),
                                       [&](const Column& c) { return c.name == d.ratio; });
        if (!known) {
          std::string names;
          for (const Column& c : spec.columns) names += c.name + ", ";
          toml.fail(k.line, fmt::format("{}: ratio '{}' is not a column (columns: {}wall_seconds)",
                                        where, d.ratio, names));
        }
      }
      if (k.key == "baseline") {
        for (auto& [axis, values] : parseMatch(toml, k, spec, true, where + " baseline").axes) {
          d.baseline.emplace_back(axis, values.front());
        }
        hasBaseline = true;
      }
    }
    if (d.ratio.empty()) toml.fail(e.line, where + " needs 'ratio' (the column to divide)");
    if (!hasBaseline) {
      toml.fail(e.line, where + " needs 'baseline' (the axis values of the point to compare with)");
    }
    derived.push_back(std::move(d));
  }
  return derived;
}

}  // namespace warpsim::sweep
