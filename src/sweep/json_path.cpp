#include "sweep/json_path.h"

#include <charconv>
#include <stdexcept>

namespace warpsim::sweep {

namespace {

bool parseIndex(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

JsonPath JsonPath::parse(std::string_view text) {
  JsonPath path;
  path.text_ = std::string(text);
  if (text.empty()) throw std::invalid_argument("empty path");
  size_t i = 0;
  // A step is a name up to '.', '[' or the end; "[N]" follows a name or another "[N]".
  while (i < text.size()) {
    if (text[i] == '[') {
      const size_t close = text.find(']', i);
      if (close == std::string_view::npos) {
        throw std::invalid_argument("'[' without ']' at offset " + std::to_string(i));
      }
      Step step;
      step.name = std::string(text.substr(i + 1, close - i - 1));
      if (!parseIndex(step.name, step.index)) {
        throw std::invalid_argument("'[" + step.name + "]' is not a whole-number index");
      }
      step.isIndex = true;
      path.steps_.push_back(std::move(step));
      i = close + 1;
      if (i < text.size() && text[i] != '.' && text[i] != '[') {
        throw std::invalid_argument("expected '.' or '[' after ']' at offset " + std::to_string(i));
      }
      if (i < text.size() && text[i] == '.') {
        ++i;
        if (i == text.size()) throw std::invalid_argument("path ends with '.'");
      }
      continue;
    }
    const size_t end = text.find_first_of(".[]", i);
    const std::string_view name = text.substr(i, end == std::string_view::npos ? end : end - i);
    if (name.empty()) {
      throw std::invalid_argument("empty name at offset " + std::to_string(i));
    }
    if (end != std::string_view::npos && text[end] == ']') {
      throw std::invalid_argument("']' without '[' at offset " + std::to_string(end));
    }
    Step step;
    step.name = std::string(name);
    step.isIndex = parseIndex(name, step.index);
    path.steps_.push_back(std::move(step));
    i = end == std::string_view::npos ? text.size() : end;
    if (i < text.size() && text[i] == '.') {
      ++i;
      if (i == text.size()) throw std::invalid_argument("path ends with '.'");
    }
  }
  return path;
}

const nlohmann::json* JsonPath::find(const nlohmann::json& document) const {
  const nlohmann::json* node = &document;
  for (const Step& step : steps_) {
    if (node->is_object()) {
      auto it = node->find(step.name);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array() && step.isIndex) {
      const int64_t size = static_cast<int64_t>(node->size());
      const int64_t index = step.index < 0 ? size + step.index : step.index;
      if (index < 0 || index >= size) return nullptr;
      node = &(*node)[static_cast<size_t>(index)];
    } else {
      return nullptr;
    }
  }
  return node;
}

}  // namespace warpsim::sweep
