// Which shared libraries a program asks the dynamic loader for (the DT_NEEDED entries of its
// ELF dynamic section). `warpsim run -- ./app` uses it to tell, before running anything, whether
// the program will load the drop-in libcudart.so.13 or carries the CUDA runtime inside itself.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::app {

struct ProgramImports {
  enum class Kind {
    NotElf,   // not an ELF file (a script, for example): nothing to check
    Static,   // an ELF executable without a dynamic section
    Dynamic,  // an ELF executable with a dynamic section; `needed` lists its DT_NEEDED names
  } kind = Kind::NotElf;
  std::vector<std::string> needed;
};

// From the bytes of a file. Throws runtime::Error naming `what` when the file is an ELF file
// that is not a 64-bit little-endian one or whose headers point outside it.
ProgramImports parseProgramImports(std::string_view bytes, const std::string& what);

// Reads `path` (throws runtime::Error when it cannot be read).
ProgramImports readProgramImports(const std::string& path);

}  // namespace warpsim::app
