// cudaGraphDebugDotPrint: a graph in Graphviz DOT. Each node is a box labelled with its type and
// id and what it does (the kernel's name, the copy's direction and size, ...); the flags add
// parameters (cudaGraphDebugDotFlags*). A child graph is drawn as a cluster of its own nodes,
// reached from its node by dashed edges.
#pragma once
#include <string>

namespace warpsim::cudart {

class Graph;

std::string graphDot(const Graph& g, unsigned flags);

}  // namespace warpsim::cudart
