#include "config/toml_reader.h"

#include <algorithm>
#include <toml++/toml.h>

namespace warpsim::config {

namespace {

bool isBareKey(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
  });
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

struct Flattener {
  // Where each value was set; `forSet` replaces file lines for --set arguments.
  std::string file;
  const Origin* forSet = nullptr;
  std::vector<std::pair<toml::source_position, LayerValue>> out;

  Origin originOf(const toml::node& node) const {
    if (forSet) return *forSet;
    return Origin{file, node.source().begin.line, ""};
  }

  void table(const toml::table& t, const std::string& prefix) {
    for (auto&& [k, node] : t) {
      const std::string key = joinKey(prefix, k.str());
      if (!isBareKey(k.str())) {
        throw Error(originOf(node).errorPrefix() + "key " + literal(k.str()) +
                    " is not a bare key (letters, digits, '_' and '-')");
      }
      if (const toml::table* sub = node.as_table()) {
        table(*sub, key);
      } else {
        out.emplace_back(node.source().begin, LayerValue{key, value(node, key), originOf(node)});
      }
    }
  }

  Value value(const toml::node& node, const std::string& key) const {
    if (auto v = node.as_boolean()) return Value::ofBool(v->get());
    if (auto v = node.as_integer()) return Value::ofInt(v->get());
    if (auto v = node.as_floating_point()) return Value::ofFloat(v->get());
    if (auto v = node.as_string()) return Value::ofString(v->get());
    const char* what = node.is_array() ? "arrays" : "dates and times";
    throw Error(originOf(node).errorPrefix() + "'" + key + "': " + what +
                " are not supported in configurations");
  }

  // The values in file order (toml++ tables iterate sorted by key).
  std::vector<LayerValue> ordered() {
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.first.line != b.first.line ? a.first.line < b.first.line
                                          : a.first.column < b.first.column;
    });
    std::vector<LayerValue> values;
    for (auto& [pos, v] : out) values.push_back(std::move(v));
    return values;
  }
};

}  // namespace

bool isDottedKey(std::string_view key) {
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    if (!isBareKey(key.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

ParsedFile parseToml(std::string_view text, const std::string& shownName) {
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(shownName));
  } catch (const toml::parse_error& e) {
    throw Error(shownName + ":" + std::to_string(e.source().begin.line) +
                ": error: " + std::string(e.description()));
  }
  ParsedFile parsed;
  if (toml::node* base = root.get("base")) {
    if (!base->is_string()) {
      throw Error(shownName + ":" + std::to_string(base->source().begin.line) +
                  ": error: 'base' must be a string naming a configuration");
    }
    parsed.base = base->as_string()->get();
    parsed.baseLine = base->source().begin.line;
    root.erase("base");
  }
  Flattener f;
  f.file = shownName;
  f.table(root, "");
  parsed.values = f.ordered();
  return parsed;
}

std::vector<LayerValue> parseSetArgument(std::string_view argument) {
  const Origin origin{"", 0, std::string(argument)};
  const size_t eq = argument.find('=');
  if (eq == std::string_view::npos) {
    throw Error(origin.errorPrefix() + "expected key=value");
  }
  const std::string key = trim(argument.substr(0, eq));
  const std::string text = trim(argument.substr(eq + 1));
  if (!isDottedKey(key)) {
    throw Error(origin.errorPrefix() + "'" + key +
                "' is not a key (dotted names of letters, digits, '_' and '-')");
  }
  if (text.empty()) throw Error(origin.errorPrefix() + "no value after '='");

  toml::table parsed;
  try {
    const std::string document = "v = " + text + "\n";
    parsed = toml::parse(std::string_view(document), std::string_view("--set"));
  } catch (const toml::parse_error& e) {
    // A bare word (gto, two-level, 1.2.3) is a string; text that starts like a quoted string,
    // an array or an inline table was meant as TOML and is an error.
    if (text.find_first_of("\"'[{") == 0) {
      throw Error(origin.errorPrefix() + "bad value: " + std::string(e.description()));
    }
    return {LayerValue{key, Value::ofString(text), origin}};
  }
  if (parsed.size() != 1 || !parsed.contains("v")) {
    throw Error(origin.errorPrefix() + "bad value (one TOML value expected)");
  }
  Flattener f;
  f.forSet = &origin;
  toml::node& node = *parsed.get("v");
  if (const toml::table* t = node.as_table()) {
    f.table(*t, key);
    return f.ordered();
  }
  return {LayerValue{key, f.value(node, key), origin}};
}

std::string describeFile(std::string_view text) {
  try {
    toml::table root = toml::parse(text);
    if (auto d = root["description"].value<std::string>()) return *d;
  } catch (const toml::parse_error&) {
  }
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line = trim(text.substr(start, end - start));
    if (!line.empty() && line[0] == '#') {
      const std::string comment = trim(std::string_view(line).substr(1));
      if (!comment.empty()) return comment;
    }
    start = end + 1;
  }
  return "";
}

}  // namespace warpsim::config
