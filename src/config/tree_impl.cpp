#include "config/tree_impl.h"

namespace warpsim::config {

std::string Origin::where() const {
  return isSet() ? std::string("--set") : file + ":" + std::to_string(line);
}

std::string Origin::errorPrefix() const {
  return isSet() ? "config: error: --set '" + setText + "': " : where() + ": error: ";
}

std::string joinKey(std::string_view path, std::string_view key) {
  std::string out(path);
  if (!out.empty()) out += '.';
  out += key;
  return out;
}

const Entry* Tree::Impl::find(const std::string& key) const {
  auto it = entries.find(key);
  return it == entries.end() ? nullptr : &it->second;
}

const Entry* Tree::Impl::firstUnder(const std::string& path) const {
  const std::string prefix = path + ".";
  const Entry* first = nullptr;
  for (auto it = entries.lower_bound(prefix);
       it != entries.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (first == nullptr || it->second.order < first->order) first = &it->second;
  }
  return first;
}

void Tree::Impl::set(LayerValue item) {
  const std::string& key = item.key;
  const std::string prefix = item.origin.errorPrefix();
  for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1)) {
    const std::string parent = key.substr(0, dot);
    if (const Entry* e = find(parent)) {
      throw Error(prefix + "'" + key + "' needs '" + parent + "' to be a table, but " +
                  e->origin.where() + " sets it to a value");
    }
  }
  if (const Entry* child = firstUnder(key)) {
    throw Error(prefix + "'" + key + "' is a table (" + child->origin.where() +
                "); it cannot be set to a value");
  }
  auto it = entries.find(key);
  if (it == entries.end()) {
    entries.emplace(key, Entry{std::move(item.value), std::move(item.origin), nextOrder++});
    return;
  }
  const Value& old = it->second.value;
  if (old.kind != item.value.kind && !(old.isNumber() && item.value.isNumber())) {
    throw Error(prefix + "'" + key + "' is " + kindName(item.value.kind) + " here but " +
                kindName(old.kind) + " in " + it->second.origin.where());
  }
  it->second.value = std::move(item.value);
  it->second.origin = std::move(item.origin);
}

void Tree::Impl::record(const std::string& key, std::string value, std::string_view doc,
                        std::string source) {
  if (readIndex.count(key)) return;
  readIndex.emplace(key, reads.size());
  reads.push_back({key, std::move(value), std::string(doc), std::move(source)});
}

}  // namespace warpsim::config
