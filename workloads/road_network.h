// Shared by the graph workloads on road maps (sssp, mst): a synthetic city street network with
// the structure of real road graphs (planar, degree 2 to 4, local links, a few long ones), and
// its directed CSR form.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"

namespace warpsim::workloads {

struct Road {
  int a, b;     // intersections y * width + x
  int seconds;  // travel time
  bool oneWay;  // a -> b only
};

struct RoadNetwork {
  int width = 0, height = 0;
  std::vector<Road> roads;
  int vertices() const { return width * height; }
};

// A width x height grid of intersections laid out as a city:
//  * blocks 80 to 140 m long (every column and row of its own spacing), intersections shifted by
//    up to 10 m;
//  * every 8th row and column an arterial road (50 km/h, 0 to 6 s at its traffic lights), the
//    others local streets (30 km/h, 2 to 10 s at stop signs), of which 6% are missing (parks,
//    dead ends) and 8% are one-way;
//  * a river meandering north-south through the middle, crossed only by the arterials (bridges);
//  * expressways (90 km/h) along rows and columns 16 mod 32, one link per 8 blocks between the
//    interchanges at the arterials: the few long edges.
// Travel times are whole seconds: 5 to about 30 s a street, 30 to 40 s an expressway link.
inline RoadNetwork makeRoadNetwork(InputGenerator& gen, int width, int height) {
  RoadNetwork net{width, height, {}};
  std::vector<double> colX(width), rowY(height);
  for (int x = 1; x < width; ++x) colX[x] = colX[x - 1] + uniformReal(gen, 80.0, 140.0);
  for (int y = 1; y < height; ++y) rowY[y] = rowY[y - 1] + uniformReal(gen, 80.0, 140.0);
  std::vector<double> px(net.vertices()), py(net.vertices());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      px[y * width + x] = colX[x] + uniformReal(gen, -10.0, 10.0);
      py[y * width + x] = rowY[y] + uniformReal(gen, -10.0, 10.0);
    }
  }
  const double pi = 3.14159265358979323846, phase = uniformReal(gen, 0.0, 2 * pi);
  auto westOfRiver = [&](int x, int y) {
    double riverX = width / 2.0 + width / 8.0 * std::sin(3 * pi * y / height + phase);
    return x + 0.5 < riverX;
  };
  auto length = [&](int a, int b) { return std::hypot(px[a] - px[b], py[a] - py[b]); };
  auto street = [&](int x0, int y0, int x1, int y1) {
    const int a = y0 * width + x0, b = y1 * width + x1;
    const bool arterial = y0 == y1 ? y0 % 8 == 0 : x0 % 8 == 0;
    if (westOfRiver(x0, y0) != westOfRiver(x1, y1) && !arterial) return;
    const double metresPerSecond = arterial ? 50 / 3.6 : 30 / 3.6;
    const int delay = static_cast<int>(arterial ? gen.uniform(0, 6) : gen.uniform(2, 10));
    if (!arterial && gen.uniform(0, 99) < 6) return;
    bool oneWay = !arterial && gen.uniform(0, 99) < 8;
    bool reversed = oneWay && gen.uniform(0, 1) == 1;
    int seconds = static_cast<int>(std::lround(length(a, b) / metresPerSecond)) + delay;
    net.roads.push_back({reversed ? b : a, reversed ? a : b, seconds, oneWay});
  };
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (x + 1 < width) street(x, y, x + 1, y);
      if (y + 1 < height) street(x, y, x, y + 1);
    }
  }
  const double expressway = 90 / 3.6;
  auto link = [&](int a, int b) {
    net.roads.push_back({a, b, static_cast<int>(std::lround(length(a, b) / expressway)), false});
  };
  for (int y = 16; y < height; y += 32) {
    for (int x = 0; x + 8 < width; x += 8) link(y * width + x, y * width + x + 8);
  }
  for (int x = 16; x < width; x += 32) {
    for (int y = 0; y + 8 < height; y += 8) link(y * width + x, (y + 8) * width + x);
  }
  return net;
}

// Directed CSR form: every road a -> b, and b -> a unless it is one-way; each row sorted by
// target. edgeId[k] is the index in net.roads of arc k.
struct RoadCsr {
  std::vector<int> rowStart, target, seconds, edgeId;
};

inline RoadCsr roadCsr(const RoadNetwork& net, bool bothWays) {
  const int n = net.vertices();
  std::vector<std::vector<std::pair<int, int>>> out(n);  // (target, road)
  for (int r = 0; r < static_cast<int>(net.roads.size()); ++r) {
    const Road& road = net.roads[r];
    out[road.a].push_back({road.b, r});
    if (bothWays || !road.oneWay) out[road.b].push_back({road.a, r});
  }
  RoadCsr csr;
  csr.rowStart.push_back(0);
  for (int v = 0; v < n; ++v) {
    std::sort(out[v].begin(), out[v].end());
    for (auto [t, r] : out[v]) {
      csr.target.push_back(t);
      csr.seconds.push_back(net.roads[r].seconds);
      csr.edgeId.push_back(r);
    }
    csr.rowStart.push_back(static_cast<int>(csr.target.size()));
  }
  return csr;
}

}  // namespace warpsim::workloads
