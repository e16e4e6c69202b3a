// PTX text -> verified IR module.
#pragma once
#include <string>
#include <string_view>

#include "ir/module.h"
#include "ptx/parse_error.h"

namespace warpsim::ptx {

// Parses, lowers and verifies a PTX module, then runs ir::analyze on it. `sourceName` names the
// text in error messages ("<file>:<line>: error: ..."). Throws ParseError on any bad input.
ir::Module parseModule(std::string_view text, std::string sourceName = "<string>");

// Reads `path` and parses it; an unreadable file is a ParseError at line 0.
ir::Module parseFile(const std::string& path);

}  // namespace warpsim::ptx
