// Shell words for commands a user may paste (the reproduce line of a failure) and for the SLURM
// job script: a word of safe characters as it is, anything else in single quotes.
#pragma once
#include <string>
#include <vector>

namespace warpsim::sweep {

std::string shellQuote(const std::string& word);
// The words quoted and joined by spaces.
std::string shellCommand(const std::vector<std::string>& words);

}  // namespace warpsim::sweep
