// Running an executable graph: each node's work at once, in the graph's run order (every node
// after its dependencies), with the same effect as the stream work it stands for. A failing
// node (a kernel fault, a refused launch) stops the launch and its error is returned.
#pragma once
#include <cuda_runtime_api.h>

namespace warpsim::cudart {

class Context;
class GraphExec;

cudaError_t launchGraph(Context& cx, GraphExec& exec);

}  // namespace warpsim::cudart
