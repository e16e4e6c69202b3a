#include "sweep/spec_parser.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sweep/spec_sections.h"

namespace warpsim::sweep {

Spec parseSpec(std::string_view text, const std::string& shownName,
               const std::string& defaultName, const SpecContext& context) {
  SpecToml toml(shownName);
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(shownName));
  } catch (const toml::parse_error& e) {
    toml.fail(e.source().begin.line, std::string(e.description()));
  }
  toml.checkKnown(root, {"name", "description", "axes", "variants", "programs", "exclude",
                         "columns", "derived"}, "the top level");
  Spec spec;
  spec.file = shownName;
  spec.name = defaultName;
  // The sections refer to each other: read them in dependency order, whatever the file order.
  std::vector<TomlEntry> entries = SpecToml::entries(root);
  auto find = [&](const std::string& key) -> const TomlEntry* {
    for (const TomlEntry& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  };
  if (const TomlEntry* e = find("name")) spec.name = toml.string(*e, "'name'");
  if (const TomlEntry* e = find("description")) spec.description = toml.string(*e, "'description'");
  if (const TomlEntry* e = find("variants")) spec.variants = parseVariants(toml, *e, context);
  if (const TomlEntry* e = find("programs")) spec.programs = parsePrograms(toml, *e);
  const TomlEntry* axes = find("axes");
  if (axes == nullptr) {
    toml.fail(0, "no [axes] table (the grid: workload = [...], variant = [...], ...)");
  }
  spec.axes = parseAxes(toml, *axes, spec, context);
  checkVariantOptions(toml, spec);
  if (const TomlEntry* e = find("exclude")) spec.excludes = parseExcludes(toml, *e, spec);
  if (const TomlEntry* e = find("columns")) spec.columns = parseColumns(toml, *e, spec);
  if (const TomlEntry* e = find("derived")) spec.derived = parseDerived(toml, *e, spec);
  return spec;
}

Spec loadSpec(const std::string& path, const SpecContext& context) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": error: cannot read the sweep spec");
  std::ostringstream text;
  text << in.rdbuf();
  return parseSpec(text.str(), path, std::filesystem::path(path).stem().string(), context);
}

}  // namespace warpsim::sweep
