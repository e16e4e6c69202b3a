// Graph node work made from the API's parameter structures (cudaKernelNodeParams,
// cudaMemcpy3DParms, ...), shared by the explicit graph API, the executable-graph setters and
// stream capture. Each checks what CUDA checks when a node is created and reports a bad value
// as an error naming `call`.
#pragma once
#include <cuda_runtime_api.h>

#include "cudart/graph.h"

namespace warpsim::cudart {

class Context;
class GraphExec;
struct StreamRecord;

cudaError_t makeKernelWork(Context& cx, const char* call, const void* func, dim3 grid, dim3 block,
                           size_t sharedBytes, void** kernelParams, void** extra, Work& out);
cudaError_t makeCopyWork(Context& cx, const char* call, const cudaMemcpy3DParms* p, Work& out);
// Copies to and from module variables: the symbol's address is resolved now.
cudaError_t makeSymbolCopyWork(Context& cx, const char* call, const void* symbol, void* other,
                               size_t count, size_t offset, cudaMemcpyKind kind, bool toSymbol,
                               Work& out);
cudaError_t makeMemsetWork(Context& cx, const char* call, const cudaMemsetParams* p, Work& out);
cudaError_t makeHostWork(Context& cx, const char* call, const cudaHostNodeParams* p, Work& out);
cudaError_t makeChildWork(Context& cx, const char* call, cudaGraph_t child, Work& out);
cudaError_t makeEventWork(Context& cx, const char* call, cudaEvent_t event, Work& out);
// A memory allocation node's work: the graph allocation is made now (its address goes to
// p->dptr).
cudaError_t makeAllocWork(Context& cx, const char* call, cudaMemAllocNodeParams* p, Work& out);
// A memory free node: `address` must be a graph allocation.
cudaError_t makeFreeWork(Context& cx, const char* call, void* address, Work& out);
// Work from the generic cudaGraphNodeParams (cudaGraphAddNode, cudaGraph*NodeSetParams).
cudaError_t makeWork(Context& cx, const char* call, cudaGraphNodeParams* p, Work& out);

// The handles a program passes, checked: nullptr (and an error printed for `call`) when the
// handle is not a live graph, node (of the wanted type, unless cudaGraphNodeTypeCount) or
// executable graph.
Graph* graphOf(Context& cx, const char* call, cudaGraph_t graph);
GraphNode* nodeOf(Context& cx, const char* call, cudaGraphNode_t node,
                  cudaGraphNodeType type = cudaGraphNodeTypeCount);
GraphExec* execOf(Context& cx, const char* call, cudaGraphExec_t exec);

}  // namespace warpsim::cudart
