// [axes]: the grid's dimensions, each a non-empty array of distinct values, checked per kind.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "config/value.h"
#include "sweep/spec_sections.h"

namespace warpsim::sweep {

namespace {

struct KindName {
  const char* name;
  AxisKind kind;
};
// In the order of the "known" list of the unknown-key message.
constexpr KindName kKinds[] = {
    {"workload", AxisKind::Workload}, {"program", AxisKind::Program},
    {"size", AxisKind::Size},         {"config", AxisKind::Config},
    {"mode", AxisKind::Mode},         {"variant", AxisKind::Variant},
    {"registers", AxisKind::Registers}, {"seed", AxisKind::Seed},
    {"set", AxisKind::Set},
};

// A string that `--set key=WORD` reads back as the same string: TOML would not parse it as
// another type (true, inf, 12, 1e5 ...), so it can go unquoted.
bool bareWord(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  if (s == "true" || s == "false" || s == "inf" || s == "nan") return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Checks one value of an axis; returns "" or what is wrong with it.
std::string checkValue(AxisKind kind, const std::string& text, const Spec& spec,
                       const SpecContext& context) {
  switch (kind) {
    case AxisKind::Workload:
      if (std::find(context.workloads.begin(), context.workloads.end(), text) ==
          context.workloads.end()) {
        return fmt::format("unknown workload '{}' (known: {})", text, joined(context.workloads));
      }
      return "";
    case AxisKind::Program:
      return spec.program(text) ? "" : fmt::format("no [programs.{}] for program '{}'", text, text);
    case AxisKind::Variant:
      return spec.variant(text) ? "" : fmt::format("no [variants.{}] for variant '{}'", text, text);
    case AxisKind::Size:
      if (text == "small" || text == "default" || text == "large") return "";
      if (allDigits(text) && text.find_first_not_of('0') != std::string::npos) return "";
      return fmt::format("size '{}' is neither small, default, large nor a whole number of at "
                         "least 1", text);
    case AxisKind::Mode:
      return text == "timing" || text == "functional"
                 ? ""
                 : fmt::format("mode '{}' is neither timing nor functional", text);
    case AxisKind::Registers:
      if (text == "off" || text == "minimal") return "";
      if (allDigits(text) && text.size() <= 3 && std::stoi(text) >= 1 && std::stoi(text) <= 255) {
        return "";
      }
      return fmt::format("registers '{}' is neither off, minimal nor a count from 1 to 255", text);
    case AxisKind::Seed:
      return allDigits(text) ? "" : fmt::format("seed '{}' is not a whole number", text);
    case AxisKind::Config: {
      if (!context.checkConfig) return "";
      const std::string problem = context.checkConfig(text, false);
      return problem.empty() ? "" : fmt::format("config '{}': {}", text, problem);
    }
    case AxisKind::Set:
      return "";
  }
  return "";
}

}  // namespace

const char* axisKindName(AxisKind kind) {
  for (const KindName& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

AxisValue scalarValue(const SpecToml& toml, const TomlEntry& e, AxisKind kind,
                      const std::string& what) {
  AxisValue v;
  v.line = e.line;
  const toml::node& node = *e.node;
  if (const auto* s = node.as_string()) {
    v.text = kind == AxisKind::Set && !bareWord(s->get()) ? config::literal(s->get()) : s->get();
    v.kind = AxisValue::Kind::String;
  } else if (const auto* i = node.as_integer()) {
    v.text = std::to_string(i->get());
    v.kind = AxisValue::Kind::Integer;
  } else if (kind == AxisKind::Set && node.as_floating_point()) {
    v.text = fmt::format("{}", node.as_floating_point()->get());
    // 2.0 prints as "2", which --set would read as an integer.
    if (v.text.find_first_of(".en") == std::string::npos) v.text += ".0";
    v.kind = AxisValue::Kind::Float;
  } else if (kind == AxisKind::Set && node.as_boolean()) {
    v.text = node.as_boolean()->get() ? "true" : "false";
    v.kind = AxisValue::Kind::Boolean;
  } else {
    toml.fail(e.line, what + (kind == AxisKind::Set
                                  ? " must be a string, a number or true/false"
                                  : " must be a string or a whole number"));
  }
  return v;
}

std::vector<Axis> parseAxes(const SpecToml& toml, const TomlEntry& section, const Spec& spec,
                            const SpecContext& context) {
  const toml::table& table = toml.table(section, "[axes]");
  toml.checkKnown(table, {"workload", "program", "size", "config", "mode", "variant",
                          "registers", "seed", "set"}, "[axes]");
  // (name, kind, key line, values entry)
  std::vector<std::pair<Axis, TomlEntry>> found;
  for (const TomlEntry& e : SpecToml::entries(table)) {
    const auto k = std::find_if(std::begin(kKinds), std::end(kKinds),
                                [&](const KindName& kn) { return e.key == kn.name; });
    if (k->kind != AxisKind::Set) {
      Axis axis;
      axis.kind = k->kind;
      axis.name = e.key;
      axis.line = e.line;
      found.emplace_back(std::move(axis), e);
      continue;
    }
    for (const TomlEntry& s : SpecToml::entries(toml.table(e, "[axes.set]"))) {
      Axis axis;
      axis.kind = AxisKind::Set;
      axis.name = "set:" + s.key;
      axis.setKey = s.key;
      axis.line = s.line;
      const bool dotted = !s.key.empty() && s.key.front() != '.' && s.key.back() != '.' &&
                          s.key.find("..") == std::string::npos &&
                          std::all_of(s.key.begin(), s.key.end(), [](char c) {
                            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                                   c == '-' || c == '.';
                          });
      if (!dotted) {
        toml.fail(s.line, "'" + s.key + "' in [axes.set] is not a configuration key (dotted "
                          "names of letters, digits, '_' and '-')");
      }
      found.emplace_back(std::move(axis), s);
    }
  }
  std::vector<Axis> axes;
  for (auto& [axis, e] : found) {
    const std::string what = "axis '" + axis.name + "'";
    for (const TomlEntry& element : toml.array(e, "axis '" + axis.name + "'")) {
      AxisValue v = scalarValue(toml, element, axis.kind, "a value of " + what);
      std::vector<AxisValue> expanded;
      if (axis.kind == AxisKind::Workload && v.text == "all") {
        for (const std::string& w : context.workloads) expanded.push_back({w, v.kind, v.line});
      } else {
        const std::string problem = checkValue(axis.kind, v.text, spec, context);
        if (!problem.empty()) toml.fail(v.line, problem);
        expanded.push_back(v);
      }
      for (AxisValue& x : expanded) {
        if (std::find(axis.values.begin(), axis.values.end(), x) != axis.values.end()) {
          toml.fail(x.line, "'" + x.text + "' appears twice in " + what);
        }
        axis.values.push_back(std::move(x));
      }
    }
    if (axis.values.empty()) toml.fail(axis.line, what + " is empty (give at least one value)");
    axes.push_back(std::move(axis));
  }
  const bool workload = std::any_of(axes.begin(), axes.end(),
                                    [](const Axis& a) { return a.kind == AxisKind::Workload; });
  const bool program = std::any_of(axes.begin(), axes.end(),
                                   [](const Axis& a) { return a.kind == AxisKind::Program; });
  if (workload && program) {
    const Axis& second = *std::find_if(axes.rbegin(), axes.rend(), [](const Axis& a) {
      return a.kind == AxisKind::Workload || a.kind == AxisKind::Program;
    });
    toml.fail(second.line, "axes 'workload' and 'program' exclude each other (a point runs a "
                           "suite workload or an external program)");
  }
  if (!workload && !program) {
    toml.fail(section.line, "[axes] needs a 'workload' axis (suite workloads) or a 'program' "
                            "axis (external programs)");
  }
  return axes;
}

}  // namespace warpsim::sweep
