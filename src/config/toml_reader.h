// TOML text -> the flat, ordered key list of one layer (the only file that sees toml++).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/tree_impl.h"

namespace warpsim::config {

struct ParsedFile {
  std::vector<LayerValue> values;  // every value, dotted keys, in file order; `base` excluded
  std::optional<std::string> base; // the top-level `base = "name"`
  uint32_t baseLine = 0;
};

// Parses a file's text; `shownName` names it in messages ("gtx480.toml:12: error: ...").
// Throws Error on a syntax error, an array, a date or time, a key that is not a bare word, or a
// `base` that is not a string.
ParsedFile parseToml(std::string_view text, const std::string& shownName);

// Parses the value of one --set argument ("sm.scheduler=gto"): TOML syntax, a bare word is a
// string, an inline table sets the keys below `key`. Throws Error "config: error: --set ...".
std::vector<LayerValue> parseSetArgument(std::string_view argument);

// The description of a configuration file for listings: its top-level `description` string,
// else its first comment line, else "".
std::string describeFile(std::string_view text);

// True for dotted names of bare TOML keys: letters, digits, '_' and '-'.
bool isDottedKey(std::string_view key);

}  // namespace warpsim::config
