// Tree::load and friends: finding configuration files by name, following `base`, applying
// overlays and --set arguments in order.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "config/toml_reader.h"
#include "config/tree_impl.h"

#ifndef WARPSIM_CONFIG_DIR
#define WARPSIM_CONFIG_DIR "configs"
#endif

namespace warpsim::config {

namespace fs = std::filesystem;

namespace {

struct Found {
  fs::path path;
  std::string shown;  // the name messages use: relative to its configuration directory
};

bool isPathName(std::string_view name) {
  return name.find('/') != std::string_view::npos ||
         (name.size() >= 5 && name.substr(name.size() - 5) == ".toml");
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// Resolves a configuration name or path. `beside` is the file naming it as its `base` (looked
// beside first), or null for names from the command line.
std::optional<Found> resolve(std::string_view name, bool overlay, const Found* beside) {
  if (isPathName(name)) {
    fs::path p(name);
    std::string shown(name);
    if (p.is_relative() && beside != nullptr) {
      p = beside->path.parent_path() / p;
      shown = (fs::path(beside->shown).parent_path() / name).lexically_normal().string();
    }
    if (isFile(p)) return Found{p, shown};
    return std::nullopt;
  }
  const std::string file = std::string(name) + ".toml";
  if (beside != nullptr) {
    fs::path p = beside->path.parent_path() / file;
    if (isFile(p)) return Found{p, (fs::path(beside->shown).parent_path() / file).string()};
  }
  for (const std::string& dir : Tree::searchPath(overlay)) {
    fs::path p = fs::path(dir) / file;
    if (isFile(p)) return Found{p, (overlay && dir != "." ? "overlays/" : "") + file};
  }
  return std::nullopt;
}

std::string knownNames(bool overlay) {
  std::string list;
  for (const auto& [name, description] : Tree::listBundled(overlay)) {
    list += (list.empty() ? "" : ", ") + name;
  }
  return "(bundled: " + (list.empty() ? std::string("none") : list) + ")";
}

Error notFound(std::string_view name, bool overlay) {
  if (isPathName(name)) {
    return Error("config: error: cannot read configuration file '" + std::string(name) + "'");
  }
  return Error("config: error: no " + std::string(overlay ? "overlay" : "configuration") +
               " named '" + std::string(name) + "' " + knownNames(overlay));
}

std::string readText(const fs::path& path, const std::string& shown) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("config: error: cannot read configuration file '" + shown + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Loads files and their `base` chains into the tree, bases first.
class Loader {
 public:
  explicit Loader(Tree::Impl& impl) : impl_(impl) {}

  void loadFile(const Found& file, bool overlay) {
    loadParsed(parseToml(readText(file.path, file.shown), file.shown), file, overlay);
  }

  // `file` may have an empty path (text not from a file): its base is then found by name only.
  void loadParsed(ParsedFile parsed, const Found& file, bool overlay) {
    std::error_code ec;
    const std::string canonical =
        file.path.empty() ? file.shown : fs::weakly_canonical(file.path, ec).string();
    chain_.push_back({canonical, file.shown});
    if (parsed.base) {
      const std::string& name = *parsed.base;
      const std::string at = file.shown + ":" + std::to_string(parsed.baseLine) + ": error: ";
      std::optional<Found> base = resolve(name, overlay, file.path.empty() ? nullptr : &file);
      if (!base) throw Error(at + "base '" + name + "' not found " + knownNames(overlay));
      const std::string baseCanonical = fs::weakly_canonical(base->path, ec).string();
      for (size_t i = 0; i < chain_.size(); ++i) {
        if (chain_[i].first != baseCanonical) continue;
        std::string cycle;
        for (size_t j = i; j < chain_.size(); ++j) cycle += chain_[j].second + " -> ";
        throw Error(at + "base '" + name + "' makes a cycle: " + cycle + base->shown);
      }
      loadFile(*base, overlay);
    }
    chain_.pop_back();
    impl_.setAll(std::move(parsed.values));
  }

 private:
  Tree::Impl& impl_;
  std::vector<std::pair<std::string, std::string>> chain_;  // (canonical path, shown name)
};

// The top-level keys the configuration itself describes.
void readDescription(Tree& tree) {
  Section root = tree.root();
  if (root.has("name")) root.str("name", "", "name of the simulated GPU");
  if (root.has("description")) root.str("description", "", "one-line description");
  if (root.has("source")) root.str("source", "", "where the numbers come from");
}

}  // namespace

std::vector<std::string> Tree::searchPath(bool overlays) {
  std::vector<std::string> roots;
  if (const char* env = std::getenv("WARPSIM_CONFIG_PATH")) {
    std::string_view list(env);
    size_t start = 0;
    while (start <= list.size()) {
      size_t colon = list.find(':', start);
      if (colon == std::string_view::npos) colon = list.size();
      if (colon > start) roots.emplace_back(list.substr(start, colon - start));
      start = colon + 1;
    }
  }
  roots.emplace_back(WARPSIM_CONFIG_DIR);
  std::vector<std::string> dirs;
  for (const std::string& root : roots) {
    dirs.push_back(overlays ? (fs::path(root) / "overlays").string() : root);
  }
  dirs.emplace_back(".");
  return dirs;
}

std::vector<std::pair<std::string, std::string>> Tree::listBundled(bool overlays) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  std::vector<std::string> dirs = searchPath(overlays);
  dirs.pop_back();  // the current directory holds no bundled files
  for (const std::string& dir : dirs) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.is_regular_file(ec) && e.path().extension() == ".toml") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const std::string name = f.stem().string();
      if (!seen.insert(name).second) continue;
      std::ifstream in(f, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      out.emplace_back(name, describeFile(text.str()));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Tree::Tree() : impl_(std::make_unique<Impl>()) {}
Tree::Tree(Tree&&) noexcept = default;
Tree& Tree::operator=(Tree&&) noexcept = default;
Tree::~Tree() = default;

const std::string& Tree::name() const { return impl_->name; }

Tree Tree::load(std::string_view base, const std::vector<std::string>& overlays,
                const std::vector<std::string>& sets) {
  Tree tree;
  std::optional<Found> file = resolve(base, false, nullptr);
  if (!file) throw notFound(base, false);
  tree.impl_->name = file->path.stem().string();
  Loader loader(*tree.impl_);
  loader.loadFile(*file, false);
  for (const std::string& name : overlays) {
    std::optional<Found> overlay = resolve(name, true, nullptr);
    if (!overlay) throw notFound(name, true);
    loader.loadFile(*overlay, true);
  }
  for (const std::string& set : sets) tree.impl_->setAll(parseSetArgument(set));
  readDescription(tree);
  return tree;
}

Tree Tree::fromString(std::string_view toml, std::string_view sourceName) {
  Tree tree;
  tree.impl_->name = std::string(sourceName);
  Loader loader(*tree.impl_);
  const std::string shown(sourceName);
  loader.loadParsed(parseToml(toml, shown), Found{fs::path(), shown}, false);
  readDescription(tree);
  return tree;
}

}  // namespace warpsim::config
