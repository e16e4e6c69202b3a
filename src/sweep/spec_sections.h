// The sections of a spec file, one reader each (spec_parser.cpp calls them in dependency order:
// variants and programs, then axes, then the rest, which refer to the axes).
#pragma once
#include <string>
#include <vector>

#include "sweep/spec.h"
#include "sweep/spec_parser.h"
#include "sweep/spec_toml.h"

namespace warpsim::sweep {

std::vector<Variant> parseVariants(const SpecToml& toml, const TomlEntry& section,
                                   const SpecContext& context);
std::vector<Program> parsePrograms(const SpecToml& toml, const TomlEntry& section);
// Needs spec.variants and spec.programs.
std::vector<Axis> parseAxes(const SpecToml& toml, const TomlEntry& section, const Spec& spec,
                            const SpecContext& context);
// Variant options that the sweep or one of the spec's axes already gives. Needs spec.axes.
void checkVariantOptions(const SpecToml& toml, const Spec& spec);
// Need spec.axes (and spec.columns for derived).
std::vector<AxisMatch> parseExcludes(const SpecToml& toml, const TomlEntry& section,
                                     const Spec& spec);
std::vector<Column> parseColumns(const SpecToml& toml, const TomlEntry& section, const Spec& spec);
std::vector<Derived> parseDerived(const SpecToml& toml, const TomlEntry& section, const Spec& spec);

// The name of an axis kind as spec files spell it ("workload", ..., "set").
const char* axisKindName(AxisKind kind);

// A value as an axis of `kind` holds it (text for the command line and the table), checked only
// for its TOML type; `what` names it in messages.
AxisValue scalarValue(const SpecToml& toml, const TomlEntry& e, AxisKind kind,
                      const std::string& what);

}  // namespace warpsim::sweep
