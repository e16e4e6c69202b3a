#include "sweep/spec_toml.h"

#include <algorithm>

namespace warpsim::sweep {

void SpecToml::fail(uint32_t line, const std::string& message) const {
  if (line == 0) throw Error(file_ + ": error: " + message);
  throw Error(file_ + ":" + std::to_string(line) + ": error: " + message);
}

std::vector<TomlEntry> SpecToml::entries(const toml::table& table) {
  std::vector<std::pair<toml::source_position, TomlEntry>> sorted;
  for (auto&& [key, node] : table) {
    // A key's own position; a table made implicitly by a dotted header has none, then the
    // position of its value is the best there is.
    toml::source_position at = key.source().begin;
    if (at.line == 0) at = node.source().begin;
    sorted.push_back({at, TomlEntry{std::string(key.str()), at.line, &node}});
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line
                                        : a.first.column < b.first.column;
  });
  std::vector<TomlEntry> out;
  for (auto& [at, entry] : sorted) out.push_back(std::move(entry));
  return out;
}

void SpecToml::checkKnown(const toml::table& table, std::initializer_list<std::string_view> known,
                          const std::string& where) const {
  for (const TomlEntry& e : entries(table)) {
    if (std::find(known.begin(), known.end(), e.key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(e.line, "unknown key '" + e.key + "' in " + where + " (known: " + list + ")");
  }
}

const toml::table& SpecToml::table(const TomlEntry& e, const std::string& what) const {
  if (const toml::table* t = e.node->as_table()) return *t;
  fail(e.line, what + " must be a table");
}

std::string SpecToml::string(const TomlEntry& e, const std::string& what) const {
  if (const auto* s = e.node->as_string()) return s->get();
  fail(e.line, what + " must be a string");
}

bool SpecToml::boolean(const TomlEntry& e, const std::string& what) const {
  if (const auto* b = e.node->as_boolean()) return b->get();
  fail(e.line, what + " must be true or false");
}

std::vector<TomlEntry> SpecToml::array(const TomlEntry& e, const std::string& what) const {
  const toml::array* a = e.node->as_array();
  if (a == nullptr) fail(e.line, what + " must be an array ([...])");
  std::vector<TomlEntry> out;
  for (const toml::node& element : *a) {
    const uint32_t line = lineOf(element);
    out.push_back(TomlEntry{e.key, line != 0 ? line : e.line, &element});
  }
  return out;
}

std::vector<std::string> SpecToml::strings(const TomlEntry& e, const std::string& what) const {
  std::vector<std::string> out;
  for (const TomlEntry& element : array(e, what)) {
    const auto* s = element.node->as_string();
    if (s == nullptr) fail(element.line, what + " must be an array of strings");
    out.push_back(s->get());
  }
  return out;
}

}  // namespace warpsim::sweep
