// Expanding a spec into its points: the product of the axes, the first axis outermost and values
// in spec order, less the [[exclude]]d combinations; each point with its `warpsim run` arguments
// and its id (point_id.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sweep/spec.h"

namespace warpsim::sweep {

struct Point {
  std::string id;
  std::vector<AxisValue> axes;     // one per axis of the spec, in axis order
  std::vector<std::string> argv;   // after the program name: "run", WORKLOAD, options... [-- CMD]
};

// The arguments of one point, in a fixed order that does not depend on the order of the axes in
// the spec: "run", the workload, --size, --mode, --config, --seed, --max-registers, the
// variant's --overlay and --set, the set axes' --set (in axis order, so they override the
// variant's), the variant's other options, then "--" and the program's command.
// `values[i]` is the value of spec.axes[i].
std::vector<std::string> runArguments(const Spec& spec, const std::vector<const AxisValue*>& values);

// Throws Error "SPEC: error: ..." when two points run the same command (two variants that give
// the same options): they would share one result.
std::vector<Point> expandGrid(const Spec& spec, std::string_view version);

// "workload=vecadd variant=gscalar set:sm.banks=4": a point's axes for messages.
std::string describeAxes(const std::vector<std::string>& names, const std::vector<AxisValue>& values);

}  // namespace warpsim::sweep
