// Separately compiled device code (nvcc -rdc=true): one PTX module per translation unit, whose
// .extern declarations name the functions and variables that another unit defines. Linking
// merges the units into one module, as nvlink links their device code:
//  * a declaration (.extern, or a prototype without a body) resolves to the unit that defines
//    the name with .visible, .weak or .common linkage (every .entry counts as .visible);
//  * a .visible definition wins over .weak and .common ones, the largest .common over other
//    .common ones, the first .weak over later ones; two .visible definitions are an error;
//  * names without linkage (file scope: strings of printf, function-scope variables, static
//    functions) stay private to their unit, even when another unit uses the same name;
//  * a declaration that is used (called, or its address or contents taken) and that no unit
//    defines is an error; vprintf, which the engine provides, needs no definition.
// Errors are ParseErrors naming the unit and line of the offending declaration.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace warpsim::ptx {

struct Unit {
  std::string_view text;
  std::string name;  // names the unit in messages ("<name>:<line>: error: ...")
};

// The units' texts one after another, each starting on a new line: the text of the linked
// module, in which its line numbers count.
std::string joinUnits(const std::vector<Unit>& units);

// Parses every unit and links them into one module called `name`. Its line numbers are lines of
// joinUnits(units); errors in one unit name that unit.
ir::Module parseLinked(const std::vector<Unit>& units, std::string name);

// Links parsed units (see the header comment) into one module called `name`; lineOffsets[i] is
// added to every line number of units[i].
ir::Module linkModules(std::vector<ir::Module> units, const std::vector<uint32_t>& lineOffsets,
                       std::string name);

}  // namespace warpsim::ptx
