#include "cudart/graph.h"

#include <gtest/gtest.h>

#include "cudart/graph_dot.h"
#include "cudart/graph_exec.h"

namespace warpsim::cudart {
namespace {

cudaGraphNode_t handle(GraphNode* n) { return reinterpret_cast<cudaGraphNode_t>(n); }

MemsetWork memset1D(void* dst, size_t width) {
  MemsetWork w;
  w.params.dst = dst;
  w.params.value = 7;
  w.params.elementSize = 1;
  w.params.width = width;
  w.params.height = 1;
  return w;
}

std::vector<uint64_t> ids(const std::vector<GraphNode*>& nodes) {
  std::vector<uint64_t> out;
  for (const GraphNode* n : nodes) out.push_back(n->id);
  return out;
}

TEST(Graph, ChecksDependencies) {
  GraphRegistry r;
  Graph g(r), other(r);
  GraphNode* a = g.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  GraphNode* x = other.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  cudaGraphNode_t twice[] = {handle(a), handle(a)};
  cudaGraphNode_t foreign[] = {handle(x)};
  cudaGraphNode_t bogus[] = {reinterpret_cast<cudaGraphNode_t>(&r)};
  EXPECT_EQ(g.checkDependencies(twice, 1), "");
  EXPECT_EQ(g.checkDependencies(twice, 2), "dependency 1 is listed twice");
  EXPECT_NE(g.checkDependencies(foreign, 1).find("is not a node of this graph"), std::string::npos);
  EXPECT_NE(g.checkDependencies(bogus, 1).find("is not a node of this graph"), std::string::npos);
  EXPECT_EQ(g.checkDependencies(nullptr, 2), "2 dependencies but no array");
}

TEST(Graph, OrdersNodesAfterTheirDependenciesInCreationOrder) {
  GraphRegistry r;
  Graph g(r);
  GraphNode* n0 = g.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  GraphNode* n1 = g.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  cudaGraphNode_t d1[] = {handle(n1)};
  GraphNode* n2 = g.add(cudaGraphNodeTypeEmpty, {}, d1, 1);
  cudaGraphNode_t d0[] = {handle(n0)};
  GraphNode* n3 = g.add(cudaGraphNodeTypeEmpty, {}, d0, 1);
  // n2 -> n0: n0 now waits for n1 and n2.
  ASSERT_TRUE(g.addEdge(n2, n0));
  EXPECT_FALSE(g.addEdge(n2, n0));
  std::vector<GraphNode*> order;
  ASSERT_TRUE(g.topologicalOrder(order));
  EXPECT_EQ(ids(order), (std::vector<uint64_t>{1, 2, 0, 3}));
  EXPECT_EQ(n0->dependencies, std::vector<GraphNode*>{n2});
  EXPECT_EQ(n3->dependencies.size(), 1u);
  // A cycle n3 -> n1 leaves the nodes on it out.
  ASSERT_TRUE(g.addEdge(n3, n1));
  EXPECT_FALSE(g.topologicalOrder(order));
  EXPECT_TRUE(order.empty());
  ASSERT_TRUE(g.removeEdge(n3, n1));
  EXPECT_FALSE(g.removeEdge(n3, n1));
  EXPECT_TRUE(g.topologicalOrder(order));
}

TEST(Graph, RemovingANodeRemovesItsEdgesAndHandle) {
  GraphRegistry r;
  Graph g(r);
  GraphNode* a = g.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  cudaGraphNode_t da[] = {handle(a)};
  GraphNode* b = g.add(cudaGraphNodeTypeEmpty, {}, da, 1);
  cudaGraphNode_t db[] = {handle(b)};
  GraphNode* c = g.add(cudaGraphNodeTypeEmpty, {}, db, 1);
  g.remove(b);
  EXPECT_FALSE(r.isNode(b));
  EXPECT_TRUE(a->dependents.empty());
  EXPECT_TRUE(c->dependencies.empty());
  EXPECT_EQ(g.nodes().size(), 2u);
}

TEST(Graph, ClonesStructureWorkAndChildGraphs) {
  GraphRegistry r;
  int target = 0;
  auto child = std::make_unique<Graph>(r);
  child->add(cudaGraphNodeTypeMemset, memset1D(&target, 4), nullptr, 0);
  Graph g(r);
  GraphNode* c = g.add(cudaGraphNodeTypeGraph, ChildWork{std::move(child)}, nullptr, 0);
  cudaGraphNode_t dc[] = {handle(c)};
  GraphNode* m = g.add(cudaGraphNodeTypeMemset, memset1D(&target, 2), dc, 1);
  std::unique_ptr<Graph> copy = g.clone();
  ASSERT_EQ(copy->nodes().size(), 2u);
  const GraphNode& c2 = *copy->nodes()[0];
  const GraphNode& m2 = *copy->nodes()[1];
  EXPECT_EQ(c2.origin, c);
  EXPECT_EQ(m2.origin, m);
  EXPECT_EQ(m2.dependencies, std::vector<GraphNode*>{copy->nodes()[0].get()});
  EXPECT_EQ(std::get<MemsetWork>(m2.work).params.width, 2u);
  // The child graph is a copy too, not shared.
  const Graph* inner = std::get<ChildWork>(c2.work).graph.get();
  EXPECT_NE(inner, std::get<ChildWork>(c->work).graph.get());
  EXPECT_TRUE(r.isGraph(inner));
  EXPECT_EQ(inner->nodes().size(), 1u);
  EXPECT_FALSE(g.hasMemoryNodes());
  copy.reset();
  EXPECT_FALSE(r.isGraph(inner));
}

TEST(GraphExec, InstantiationIsACopyAndRefusesCycles) {
  GraphRegistry r;
  int target = 0;
  Graph g(r);
  GraphNode* a = g.add(cudaGraphNodeTypeMemset, memset1D(&target, 4), nullptr, 0);
  std::string why;
  const GraphNode* bad = nullptr;
  auto exec = GraphExec::instantiate(g, 0, why, bad);
  ASSERT_TRUE(exec);
  GraphNode* mine = exec->nodeFor(a);
  ASSERT_NE(mine, nullptr);
  EXPECT_NE(mine, a);
  std::get<MemsetWork>(a->work).params.width = 1;
  EXPECT_EQ(std::get<MemsetWork>(mine->work).params.width, 4u);
  EXPECT_TRUE(exec->enabled(mine));
  exec->setEnabled(mine, false);
  EXPECT_FALSE(exec->enabled(mine));

  cudaGraphNode_t da[] = {handle(a)};
  GraphNode* b = g.add(cudaGraphNodeTypeEmpty, {}, da, 1);
  g.addEdge(b, a);
  EXPECT_FALSE(GraphExec::instantiate(g, 0, why, bad));
  EXPECT_EQ(bad, a);
  EXPECT_EQ(why, "the graph's dependencies form a cycle (through node 0)");
}

TEST(GraphExec, UpdatesFromAGraphOfTheSameShapeOnly) {
  GraphRegistry r;
  int target[4] = {};
  auto build = [&](size_t width, size_t height, bool extraEdge) {
    auto g = std::make_unique<Graph>(r);
    MemsetWork w = memset1D(target, width);
    w.params.height = height;
    w.params.pitch = 16;
    GraphNode* a = g->add(cudaGraphNodeTypeMemset, w, nullptr, 0);
    GraphNode* b = g->add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
    if (extraEdge) g->addEdge(a, b);
    return g;
  };
  auto isDevice = [](const void*) { return true; };
  auto source = build(4, 1, false);
  std::string why;
  const GraphNode* bad = nullptr;
  auto exec = GraphExec::instantiate(*source, 0, why, bad);
  const GraphNode* errorNode = nullptr;
  const GraphNode* errorFrom = nullptr;

  auto wider = build(8, 1, false);  // a 1D memset may change its size
  EXPECT_EQ(exec->update(*wider, isDevice, errorNode, errorFrom), cudaGraphExecUpdateSuccess);
  EXPECT_EQ(std::get<MemsetWork>(exec->graph().nodes()[0]->work).params.width, 8u);
  auto twoD = build(8, 2, false);
  EXPECT_EQ(exec->update(*twoD, isDevice, errorNode, errorFrom),
            cudaGraphExecUpdateErrorParametersChanged);
  EXPECT_EQ(errorNode, twoD->nodes()[0].get());
  auto edged = build(8, 1, true);
  EXPECT_EQ(exec->update(*edged, isDevice, errorNode, errorFrom),
            cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(errorNode, edged->nodes()[1].get());
  Graph retyped(r);
  retyped.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  retyped.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  EXPECT_EQ(exec->update(retyped, isDevice, errorNode, errorFrom),
            cudaGraphExecUpdateErrorNodeTypeChanged);
  Graph smaller(r);
  EXPECT_EQ(exec->update(smaller, isDevice, errorNode, errorFrom),
            cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(errorNode, nullptr);
}

TEST(GraphDot, DrawsNodesEdgesAndChildGraphs) {
  GraphRegistry r;
  int target = 0;
  auto child = std::make_unique<Graph>(r);
  child->add(cudaGraphNodeTypeMemset, memset1D(&target, 4), nullptr, 0);
  Graph g(r);
  GraphNode* e = g.add(cudaGraphNodeTypeEmpty, {}, nullptr, 0);
  cudaGraphNode_t de[] = {handle(e)};
  g.add(cudaGraphNodeTypeGraph, ChildWork{std::move(child)}, de, 1);
  EXPECT_EQ(graphDot(g, 0),
            "digraph warpsim_graph {\n"
            "  node_0 [shape=box, label=\"EMPTY 0\"];\n"
            "  node_1 [shape=box, label=\"GRAPH 1\"];\n"
            "  subgraph cluster_node_1 {\n"
            "    label=\"node_1 contents\";\n"
            "    node_1_0 [shape=box, label=\"MEMSET 0\\n4x1 elements of 1 bytes\"];\n"
            "  }\n"
            "  node_1 -> node_1_0 [style=dashed];\n"
            "  node_0 -> node_1;\n"
            "}\n");
}

}  // namespace
}  // namespace warpsim::cudart
