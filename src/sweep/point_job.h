// One point's run, as every executor runs it: `warpsim <argv> --stats <tmp> -q` with stdout and
// stderr in temporary files of the point's directory; when it ends, the files renamed into
// place and result.json written last (out_dir.h).
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

#include "sweep/grid.h"
#include "sweep/out_dir.h"
#include "sweep/result.h"

namespace warpsim::sweep {

// The arguments a point runs with: its argv with --stats STATS and -q added (before "--", which
// starts an external program's own command line).
std::vector<std::string> pointCommand(const Point& point, const std::string& statsFile);

// Creates the point's directory, removes its result.json (a rerun of a failed point) and starts
// the run. Throws Error when it cannot.
pid_t startPoint(const OutDir& dir, const Point& point, const std::string& warpsim);

// The run ended with `waitStatus`: moves its files into place and writes result.json.
PointResult finishPoint(const OutDir& dir, const Point& point, int waitStatus,
                        double wallSeconds, const std::string& host);

// The run was stopped by the sweep: removes its temporary files; the point stays without a
// result and runs again next time.
void discardPoint(const OutDir& dir, const Point& point);

// This machine's name (result.json records where each point ran).
std::string hostName();

}  // namespace warpsim::sweep
