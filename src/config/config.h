// Layered GPU configuration: a base GPU file, mechanism overlays on top, then "key=value"
// overrides from the command line. Parameters are declared where they are used: a component
// reads its keys from a Section with a default, a range or a set of choices, and a one-line
// description; the Tree remembers every key read (with the value used, default or not) so that
// `warpsim config show` prints the resolved configuration and keys nobody read are reported as
// unknown.
//
//   config::Tree tree = config::Tree::load("gtx480", {"gscalar"}, {"sm.scheduler=lrr"});
//   config::Section sm = tree.section("sm");
//   uint32_t warps = sm.u32("max_warps", 48, "warp slots per SM", 1, 64);
//   std::string policy = sm.choice("scheduler", "gto", {"lrr", "gto", "two-level"}, "...");
//   ... construct every component ...
//   tree.checkAllUsed();   // throws Error "gtx480.toml:12: error: unknown key 'sm.foo'"
//
// Files are TOML. Keys are dotted paths ("sm.l1.size"); tables nest. A file may name a file it
// builds on with a top-level `base = "name"` (resolved like a configuration name), so variants
// are presets, not copies. Overlays and overrides may only set keys that exist in the base
// layers or that a component declares (unknown keys are errors either way).
//
// Names resolve to <dir>/<name>.toml for each search directory: the directories listed in the
// environment variable WARPSIM_CONFIG_PATH (':'-separated), then the bundled configs/ directory
// of the source tree, then the current directory; overlays are looked up in the overlays/
// subdirectory of each. A name that contains '/' or ends in ".toml" is a path. A `base` name is
// looked up beside the file that names it first.
//
// Errors: config::Error with one line "<file>:<line>: error: <what>" (or "config: error: ..."
// when no file is involved, e.g. a bad --set).
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::config {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Tree;

// A view of one table of the tree ("" is the root). Cheap to copy. Every read records the key,
// its resolved value and its description in the tree.
class Section {
 public:
  Section(Tree& tree, std::string path) : tree_(&tree), path_(std::move(path)) {}
  const std::string& path() const { return path_; }
  Section sub(std::string_view name) const;
  bool has(std::string_view key) const;

  // Reads a key; the default is used when it is absent. Range or choice violations and type
  // mismatches throw Error naming the file and line where the value was set.
  bool flag(std::string_view key, bool def, std::string_view doc);
  int64_t i64(std::string_view key, int64_t def, std::string_view doc,
              int64_t min = INT64_MIN, int64_t max = INT64_MAX);
  uint32_t u32(std::string_view key, uint32_t def, std::string_view doc, uint32_t min = 0,
               uint32_t max = UINT32_MAX);
  uint64_t u64(std::string_view key, uint64_t def, std::string_view doc, uint64_t min = 0,
               uint64_t max = UINT64_MAX);
  double f64(std::string_view key, double def, std::string_view doc, double min = -1e300,
             double max = 1e300);
  std::string str(std::string_view key, std::string_view def, std::string_view doc);
  std::string choice(std::string_view key, std::string_view def,
                     std::initializer_list<std::string_view> choices, std::string_view doc);
  // A key that takes a name or a whole number (registers = "minimal" | 32), as text. `check`
  // returns "" when the text is acceptable, else what is wrong with it, which is thrown as an
  // Error naming the file and line where the value was set.
  std::string word(std::string_view key, std::string_view def, std::string_view doc,
                   const std::function<std::string(const std::string&)>& check);
  // Names of the entries set directly in this table, values and sub-tables alike, in the order
  // they first appear in the layers (file order).
  std::vector<std::string> keys() const;

 private:
  Tree* tree_;
  std::string path_;
};

// One resolved key as `config show` prints it.
struct ResolvedKey {
  std::string key;        // full dotted path
  std::string value;      // TOML literal
  std::string doc;
  std::string source;     // "file:line", "--set" or "default"
};

class Tree {
 public:
  // Loads `base` (name or path), applies overlays in order, then "key=value" overrides (value in
  // TOML syntax; a bare word is a string). Throws Error.
  static Tree load(std::string_view base, const std::vector<std::string>& overlays = {},
                   const std::vector<std::string>& sets = {});
  // A tree from TOML text (tests); `sourceName` names it in messages.
  static Tree fromString(std::string_view toml, std::string_view sourceName = "<string>");
  // Bundled configuration names (configs/*.toml) and overlay names (configs/overlays/*.toml),
  // sorted, each with a description: the file's top-level `description` string, else its first
  // comment line.
  static std::vector<std::pair<std::string, std::string>> listBundled(bool overlays);
  // Directories searched for names (the source tree's configs/ first).
  static std::vector<std::string> searchPath(bool overlays);

  Tree(Tree&&) noexcept;
  Tree& operator=(Tree&&) noexcept;
  ~Tree();

  Section root() { return Section(*this, ""); }
  Section section(std::string_view path) { return Section(*this, std::string(path)); }
  const std::string& name() const;   // the base configuration's name

  // Throws Error for the first key that was set (in any layer) but never read, naming the file
  // and line that set it.
  void checkAllUsed() const;
  // Every key read so far, in the order first read.
  std::vector<ResolvedKey> resolved() const;
  // The resolved configuration as TOML text (one table per section, each key with its source
  // and description as a trailing comment).
  std::string dump() const;

  struct Impl;
  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

 private:
  Tree();
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::config
