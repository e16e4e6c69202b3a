#include "cudart/graph_dot.h"

#include <fmt/format.h>

#include "cudart/context.h"
#include "cudart/graph.h"

namespace warpsim::cudart {

namespace {

const char* kindName(cudaMemcpyKind k) {
  switch (k) {
    case cudaMemcpyHostToHost: return "HtoH";
    case cudaMemcpyHostToDevice: return "HtoD";
    case cudaMemcpyDeviceToHost: return "DtoH";
    case cudaMemcpyDeviceToDevice: return "DtoD";
    default: return "Default";
  }
}

bool wants(unsigned flags, unsigned flag) {
  return (flags & (flag | cudaGraphDebugDotFlagsVerbose)) != 0;
}

std::string label(const GraphNode& n, unsigned flags) {
  std::string text = fmt::format("{} {}", nodeTypeName(n.type), n.id);
  if (wants(flags, cudaGraphDebugDotFlagsHandles)) {
    text += fmt::format("\\nnode {}", static_cast<const void*>(&n));
  }
  switch (n.type) {
    case cudaGraphNodeTypeKernel: {
      const auto& w = std::get<KernelWork>(n.work);
      text += "\\n" + w.kernel->name;
      if (wants(flags, cudaGraphDebugDotFlagsKernelNodeParams)) {
        text += fmt::format("\\ngrid ({},{},{}) block ({},{},{}) shared {}", w.grid.x, w.grid.y,
                            w.grid.z, w.block.x, w.block.y, w.block.z, w.sharedBytes);
      }
      break;
    }
    case cudaGraphNodeTypeMemcpy: {
      const cudaMemcpy3DParms& p = std::get<CopyWork>(n.work).params;
      text += fmt::format("\\n{} {}x{}x{} bytes", kindName(p.kind), p.extent.width,
                          p.extent.height, p.extent.depth);
      if (wants(flags, cudaGraphDebugDotFlagsMemcpyNodeParams)) {
        text += fmt::format("\\nsrc {} pitch {}\\ndst {} pitch {}", p.srcPtr.ptr, p.srcPtr.pitch,
                            p.dstPtr.ptr, p.dstPtr.pitch);
      }
      break;
    }
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams& p = std::get<MemsetWork>(n.work).params;
      text += fmt::format("\\n{}x{} elements of {} bytes", p.width, p.height, p.elementSize);
      if (wants(flags, cudaGraphDebugDotFlagsMemsetNodeParams)) {
        text += fmt::format("\\ndst {} pitch {} value 0x{:x}", p.dst, p.pitch, p.value);
      }
      break;
    }
    case cudaGraphNodeTypeHost:
      if (wants(flags, cudaGraphDebugDotFlagsHostNodeParams)) {
        const auto& w = std::get<HostWork>(n.work);
        text += fmt::format("\\nfn {} userData {}", reinterpret_cast<const void*>(w.fn),
                            w.userData);
      }
      break;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
      if (wants(flags, cudaGraphDebugDotFlagsEventNodeParams)) {
        text += fmt::format("\\nevent {}", static_cast<const void*>(std::get<EventWork>(n.work).event));
      }
      break;
    case cudaGraphNodeTypeMemAlloc: {
      const auto& a = *std::get<AllocWork>(n.work).allocation;
      text += fmt::format("\\n{} bytes at 0x{:x}", a.bytes, a.address);
      break;
    }
    case cudaGraphNodeTypeMemFree:
      text += fmt::format("\\n0x{:x}", std::get<FreeWork>(n.work).address);
      break;
    default:
      break;
  }
  return text;
}

// Writes the nodes and edges of `g`, naming its nodes `prefix` + id.
void writeGraph(std::string& out, const Graph& g, const std::string& prefix, unsigned flags,
                const std::string& indent) {
  for (const auto& n : g.nodes()) {
    std::string name = fmt::format("{}{}", prefix, n->id);
    out += fmt::format("{}{} [shape=box, label=\"{}\"];\n", indent, name, label(*n, flags));
    const auto* child = std::get_if<ChildWork>(&n->work);
    if (child == nullptr) continue;
    std::string inner = name + "_";
    out += fmt::format("{}subgraph cluster_{} {{\n{}  label=\"{} contents\";\n", indent, name,
                       indent, name);
    writeGraph(out, *child->graph, inner, flags, indent + "  ");
    out += indent + "}\n";
    for (const auto& c : child->graph->nodes()) {
      if (c->dependencies.empty()) {
        out += fmt::format("{}{} -> {}{} [style=dashed];\n", indent, name, inner, c->id);
      }
    }
  }
  for (const auto& n : g.nodes()) {
    for (const GraphNode* d : n->dependencies) {
      out += fmt::format("{}{}{} -> {}{};\n", indent, prefix, d->id, prefix, n->id);
    }
  }
}

}  // namespace

std::string graphDot(const Graph& g, unsigned flags) {
  std::string out = "digraph warpsim_graph {\n";
  writeGraph(out, g, "node_", flags, "  ");
  out += "}\n";
  return out;
}

}  // namespace warpsim::cudart
