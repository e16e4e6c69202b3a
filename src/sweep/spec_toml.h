// Reading a spec's TOML with toml++ (spec_parser.cpp's helper; the only other file that sees
// toml++): entries in file order (toml++ keeps tables sorted by key) and typed reads that throw
// Error "SPEC:LINE: error: ..." naming the line of the offending key or value.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "sweep/error.h"

namespace warpsim::sweep {

struct TomlEntry {
  std::string key;
  uint32_t line = 0;  // of the key
  const toml::node* node = nullptr;
};

class SpecToml {
 public:
  explicit SpecToml(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  // Error "FILE:LINE: error: MESSAGE" ("FILE: error: MESSAGE" when line is 0).
  [[noreturn]] void fail(uint32_t line, const std::string& message) const;

  // The entries of a table in file order.
  static std::vector<TomlEntry> entries(const toml::table& table);
  static uint32_t lineOf(const toml::node& node) { return node.source().begin.line; }
  // Throws for the first key (in file order) not in `known`:
  // "unknown key 'x' in [where] (known: a, b, c)".
  void checkKnown(const toml::table& table, std::initializer_list<std::string_view> known,
                  const std::string& where) const;

  // Typed reads; `what` names the value in the message ("'name' must be a string").
  const toml::table& table(const TomlEntry& e, const std::string& what) const;
  std::string string(const TomlEntry& e, const std::string& what) const;
  bool boolean(const TomlEntry& e, const std::string& what) const;
  // An array of strings (empty allowed).
  std::vector<std::string> strings(const TomlEntry& e, const std::string& what) const;
  // An array (its elements, each with its line); a non-array fails.
  std::vector<TomlEntry> array(const TomlEntry& e, const std::string& what) const;

 private:
  std::string file_;
};

}  // namespace warpsim::sweep
