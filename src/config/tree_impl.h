// The inside of config::Tree: every key set by the layers (flattened to full dotted paths), where
// each was set, and the record of every key read. Shared by the loader, Section and the dump.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/value.h"

namespace warpsim::config {

// Where a value was set: a file line, or a --set argument.
struct Origin {
  std::string file;     // name shown in messages; empty for --set
  uint32_t line = 0;
  std::string setText;  // the whole "key=value" argument, for --set

  bool isSet() const { return file.empty(); }
  // "gtx480.toml:12" or "--set"
  std::string where() const;
  // The start of an error line about this value: "gtx480.toml:12: error: " or
  // "config: error: --set 'sm.foo=1': ".
  std::string errorPrefix() const;
};

struct Entry {
  Value value;
  Origin origin;
  uint64_t order = 0;  // when the key first appeared in any layer (file order across layers)
  mutable bool used = false;
};

// A value of one layer before it is merged, in file order.
struct LayerValue {
  std::string key;
  Value value;
  Origin origin;
};

struct Tree::Impl {
  std::string name;
  std::map<std::string, Entry> entries;  // full dotted key -> value; sorted, so a table's keys
                                         // are the contiguous range [path + ".", path + "/")
  uint64_t nextOrder = 0;
  std::vector<ResolvedKey> reads;          // in the order first read
  std::map<std::string, size_t> readIndex;  // key -> index in reads

  // Merges one value on top of the layers so far. Throws Error when the key would turn a value
  // into a table or back, or changes the kind of an earlier layer's value.
  void set(LayerValue item);
  void setAll(std::vector<LayerValue> items) {
    for (LayerValue& item : items) set(std::move(item));
  }

  const Entry* find(const std::string& key) const;
  // The first entry below `path` (a table) in layer order, or null when `path` is no table.
  const Entry* firstUnder(const std::string& path) const;
  // Records a read (the first read of a key wins).
  void record(const std::string& key, std::string value, std::string_view doc, std::string source);
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string joinKey(std::string_view path, std::string_view key);

}  // namespace warpsim::config
