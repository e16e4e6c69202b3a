// Section: typed reads of one table, each recorded in the tree with the value used.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "config/tree_impl.h"

namespace warpsim::config {

namespace {

// The entry a read finds, or null when the key is absent. Throws when the key names a table or
// holds another kind of value than `want` (an integer is a good float).
const Entry* lookup(const Tree::Impl& impl, const std::string& key, Value::Kind want) {
  if (const Entry* child = impl.firstUnder(key)) {
    throw Error(child->origin.errorPrefix() + "'" + key + "' is a table, but it is read as " +
                kindName(want));
  }
  const Entry* e = impl.find(key);
  if (e == nullptr) return nullptr;
  const bool ok =
      e->value.kind == want || (want == Value::Kind::Float && e->value.kind == Value::Kind::Int);
  if (!ok) {
    throw Error(e->origin.errorPrefix() + "'" + key + "' must be " + kindName(want) + ", not " +
                kindName(e->value.kind));
  }
  return e;
}

std::string docSuffix(std::string_view doc) {
  return doc.empty() ? std::string() : " (" + std::string(doc) + ")";
}

// Bounds in messages: the float defaults (+-1e300) read as unbounded.
std::string bound(double v) {
  if (v >= 1e300) return "inf";
  if (v <= -1e300) return "-inf";
  return literal(v);
}
template <class T>
std::string bound(T v) {
  return std::to_string(v);
}

template <class T>
T readInteger(Tree& tree, const std::string& path, std::string_view name, T def,
              std::string_view doc, T min, T max) {
  Tree::Impl& impl = tree.impl();
  const std::string key = joinKey(path, name);
  const Entry* e = lookup(impl, key, Value::Kind::Int);
  if (e == nullptr) {
    impl.record(key, std::to_string(def), doc, "default");
    return def;
  }
  const int64_t v = e->value.i;
  bool inRange;
  if constexpr (std::is_unsigned_v<T>) {
    inRange = v >= 0 && static_cast<uint64_t>(v) >= min && static_cast<uint64_t>(v) <= max;
  } else {
    inRange = v >= min && v <= max;
  }
  if (!inRange) {
    throw Error(e->origin.errorPrefix() + "'" + key + "' = " + literal(v) +
                " is out of range [" + bound(min) + ", " + bound(max) + "]" + docSuffix(doc));
  }
  e->used = true;
  impl.record(key, literal(v), doc, e->origin.where());
  return static_cast<T>(v);
}

}  // namespace

Section Section::sub(std::string_view name) const { return Section(*tree_, joinKey(path_, name)); }

bool Section::has(std::string_view key) const {
  const std::string full = joinKey(path_, key);
  return tree_->impl().find(full) != nullptr || tree_->impl().firstUnder(full) != nullptr;
}

bool Section::flag(std::string_view name, bool def, std::string_view doc) {
  Tree::Impl& impl = tree_->impl();
  const std::string key = joinKey(path_, name);
  const Entry* e = lookup(impl, key, Value::Kind::Bool);
  if (e == nullptr) {
    impl.record(key, def ? "true" : "false", doc, "default");
    return def;
  }
  e->used = true;
  impl.record(key, literal(e->value), doc, e->origin.where());
  return e->value.b;
}

int64_t Section::i64(std::string_view key, int64_t def, std::string_view doc, int64_t min,
                     int64_t max) {
  return readInteger<int64_t>(*tree_, path_, key, def, doc, min, max);
}

uint32_t Section::u32(std::string_view key, uint32_t def, std::string_view doc, uint32_t min,
                      uint32_t max) {
  return readInteger<uint32_t>(*tree_, path_, key, def, doc, min, max);
}

uint64_t Section::u64(std::string_view key, uint64_t def, std::string_view doc, uint64_t min,
                      uint64_t max) {
  return readInteger<uint64_t>(*tree_, path_, key, def, doc, min, max);
}

double Section::f64(std::string_view name, double def, std::string_view doc, double min,
                    double max) {
  Tree::Impl& impl = tree_->impl();
  const std::string key = joinKey(path_, name);
  const Entry* e = lookup(impl, key, Value::Kind::Float);
  if (e == nullptr) {
    impl.record(key, literal(def), doc, "default");
    return def;
  }
  const double v = e->value.kind == Value::Kind::Int ? static_cast<double>(e->value.i) : e->value.f;
  if (!(v >= min && v <= max)) {  // also refuses nan
    throw Error(e->origin.errorPrefix() + "'" + key + "' = " + literal(e->value) +
                " is out of range [" + bound(min) + ", " + bound(max) + "]" + docSuffix(doc));
  }
  e->used = true;
  impl.record(key, literal(e->value), doc, e->origin.where());
  return v;
}

std::string Section::str(std::string_view name, std::string_view def, std::string_view doc) {
  Tree::Impl& impl = tree_->impl();
  const std::string key = joinKey(path_, name);
  const Entry* e = lookup(impl, key, Value::Kind::String);
  if (e == nullptr) {
    impl.record(key, literal(def), doc, "default");
    return std::string(def);
  }
  e->used = true;
  impl.record(key, literal(e->value), doc, e->origin.where());
  return e->value.s;
}

std::string Section::word(std::string_view name, std::string_view def, std::string_view doc,
                          const std::function<std::string(const std::string&)>& check) {
  Tree::Impl& impl = tree_->impl();
  const std::string key = joinKey(path_, name);
  if (impl.firstUnder(key) == nullptr) {
    const Entry* e = impl.find(key);
    if (e == nullptr) {
      impl.record(key, literal(def), doc, "default");
      return std::string(def);
    }
    if (e->value.kind == Value::Kind::String || e->value.kind == Value::Kind::Int) {
      const std::string text =
          e->value.kind == Value::Kind::String ? e->value.s : std::to_string(e->value.i);
      if (const std::string why = check(text); !why.empty()) {
        throw Error(e->origin.errorPrefix() + "'" + key + "' = " + literal(e->value) + ": " + why);
      }
      e->used = true;
      impl.record(key, literal(e->value), doc, e->origin.where());
      return text;
    }
  }
  const Entry* e = impl.firstUnder(key);
  if (e != nullptr) {
    throw Error(e->origin.errorPrefix() + "'" + key +
                "' is a table, but it is read as a name or a number");
  }
  e = impl.find(key);
  throw Error(e->origin.errorPrefix() + "'" + key + "' must be a name or a whole number, not " +
              kindName(e->value.kind));
}

std::string Section::choice(std::string_view name, std::string_view def,
                            std::initializer_list<std::string_view> choices, std::string_view doc) {
  Tree::Impl& impl = tree_->impl();
  const std::string key = joinKey(path_, name);
  const Entry* e = lookup(impl, key, Value::Kind::String);
  if (e == nullptr) {
    impl.record(key, literal(def), doc, "default");
    return std::string(def);
  }
  if (std::find(choices.begin(), choices.end(), e->value.s) == choices.end()) {
    std::string list;
    for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
    throw Error(e->origin.errorPrefix() + "'" + key + "' = " + literal(e->value) +
                " is not one of " + list + docSuffix(doc));
  }
  e->used = true;
  impl.record(key, literal(e->value), doc, e->origin.where());
  return e->value.s;
}

std::vector<std::string> Section::keys() const {
  const Tree::Impl& impl = tree_->impl();
  const std::string prefix = path_.empty() ? std::string() : path_ + ".";
  std::vector<std::pair<uint64_t, std::string>> found;  // (first order, name)
  for (auto it = impl.entries.lower_bound(prefix);
       it != impl.entries.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    std::string name = it->first.substr(prefix.size());
    name.resize(std::min(name.size(), name.find('.')));
    auto same = std::find_if(found.begin(), found.end(),
                             [&](const auto& f) { return f.second == name; });
    if (same == found.end()) {
      found.emplace_back(it->second.order, std::move(name));
    } else {
      same->first = std::min(same->first, it->second.order);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& f : found) names.push_back(std::move(f.second));
  return names;
}

}  // namespace warpsim::config
