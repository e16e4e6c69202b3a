// `warpsim report DIR`: a Markdown page with PNG plots from a sweep's table (docs/experiments.md,
// "Reports"). The page is written by scripts/report/report.py (matplotlib); this command checks
// what it can first, each failure one line: DIR is a sweep directory with a table, the
// --baseline axes and values exist in it, the template exists, and a Python 3.11+ with
// matplotlib is there (WARPSIM_PYTHON, else python3 on $PATH, else /usr/bin/python3).
#pragma once
#include <string>
#include <vector>

namespace warpsim::app {

struct ReportArgs {
  std::string dir;                    // warpsim report DIR
  std::string out;                    // --out PAGE.md ("": DIR/report.md)
  std::string templateFile;           // --template FILE.py
  std::vector<std::string> baseline;  // --baseline AXIS=VALUE, each once
};

// The script's exit status: 0 when the page was written, 1 on an error.
int reportCommand(const ReportArgs& args);

}  // namespace warpsim::app
