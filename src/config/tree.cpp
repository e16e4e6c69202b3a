// What a Tree reports after the model has read it: unread keys, the resolved keys, and the
// resolved configuration as TOML text.
#include <algorithm>

#include "config/tree_impl.h"

namespace warpsim::config {

namespace {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string tableOf(const std::string& key) {
  const size_t dot = key.rfind('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

std::string leafOf(const std::string& key) { return key.substr(key.rfind('.') + 1); }

// " (did you mean 'sm.max_warps'?)" for a read key of the same table close in spelling.
std::string suggestion(const Tree::Impl& impl, const std::string& key) {
  const std::string table = tableOf(key);
  const std::string leaf = leafOf(key);
  std::string best;
  size_t bestDistance = std::max<size_t>(2, leaf.size() / 3) + 1;
  for (const ResolvedKey& r : impl.reads) {
    if (tableOf(r.key) != table || impl.find(r.key) != nullptr) continue;
    const size_t d = editDistance(leaf, leafOf(r.key));
    if (d < bestDistance) {
      bestDistance = d;
      best = r.key;
    }
  }
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace

void Tree::checkAllUsed() const {
  const Entry* first = nullptr;
  const std::string* firstKey = nullptr;
  for (const auto& [key, e] : impl_->entries) {
    if (!e.used && (first == nullptr || e.order < first->order)) {
      first = &e;
      firstKey = &key;
    }
  }
  if (first != nullptr) {
    throw Error(first->origin.errorPrefix() + "unknown key '" + *firstKey + "'" +
                suggestion(*impl_, *firstKey));
  }
}

std::vector<ResolvedKey> Tree::resolved() const { return impl_->reads; }

std::string Tree::dump() const {
  // Every key set by a layer (in layer order) and every key read at its default (in read
  // order after them), grouped by table; tables in the order of their first key.
  struct Row {
    uint64_t order;
    std::string key, value, source, doc;
  };
  std::vector<Row> rows;
  const uint64_t afterSet = impl_->nextOrder;
  for (const auto& [key, e] : impl_->entries) {
    auto read = impl_->readIndex.find(key);
    const std::string doc = read == impl_->readIndex.end() ? "" : impl_->reads[read->second].doc;
    rows.push_back({e.order, key, literal(e.value), e.origin.where(), doc});
  }
  for (size_t i = 0; i < impl_->reads.size(); ++i) {
    const ResolvedKey& r = impl_->reads[i];
    if (impl_->find(r.key) == nullptr) {
      rows.push_back({afterSet + i, r.key, r.value, r.source, r.doc});
    }
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.order < b.order; });

  std::vector<std::string> tables;  // root first, then in order of first key
  tables.emplace_back();
  for (const Row& r : rows) {
    const std::string t = tableOf(r.key);
    if (std::find(tables.begin(), tables.end(), t) == tables.end()) tables.push_back(t);
  }

  std::string out =
      "# configuration '" + impl_->name + "': every key with its source and meaning\n";
  for (const std::string& table : tables) {
    std::vector<std::pair<std::string, std::string>> lines;  // (key = value, comment)
    size_t width = 0;
    for (const Row& r : rows) {
      if (tableOf(r.key) != table) continue;
      lines.emplace_back(leafOf(r.key) + " = " + r.value,
                         r.source + (r.doc.empty() ? "" : ": " + r.doc));
      width = std::max(width, lines.back().first.size());
    }
    if (lines.empty()) continue;
    if (!table.empty()) out += "\n[" + table + "]\n";
    width = std::min<size_t>(width, 40);
    for (const auto& [assignment, comment] : lines) {
      out += assignment;
      out.append(assignment.size() < width ? width - assignment.size() : 0, ' ');
      out += "  # " + comment + "\n";
    }
  }
  return out;
}

}  // namespace warpsim::config
