#include "mech/locality_descriptor/cluster_cta_scheduler.h"

#include <nlohmann/json.hpp>

#include "mech/locality_descriptor/launch_plan.h"

namespace warpsim::mech::locality_descriptor {

ClusterCtaScheduler::ClusterCtaScheduler(const Context& context)
    : numSms_(context.numSms),
      pairs_(context.tree->section("cta_scheduler")
                .choice("clusters", "descriptors", {"descriptors", "pairs"},
                        "what a cluster of CTAs on one SM is: Algorithm 1's from the locality descriptors, "
                        "or two consecutive CTAs (BCS)") == "pairs"),
      sms_(context.numSms) {}

void ClusterCtaScheduler::beginKernel(uint64_t numCtas) {
  Launch launch;
  launch.numCtas = numCtas;
  launch.grid[0] = static_cast<uint32_t>(numCtas);
  beginLaunch(launch);
}

void ClusterCtaScheduler::beginLaunch(const Launch& launch) {
  total_ = launch.numCtas;
  started_ = 0;
  lastSm_ = numSms_ - 1;  // the first CTA goes to SM 0
  clustersStolen_ = ctasStolen_ = 0;
  const Dims grid{launch.grid[0], launch.grid[1], launch.grid[2]};
  list_ = ClusterList{};
  if (total_ == 0) {
    deal();
    return;
  }
  if (pairs_) {
    // Linear pairs, across rows of the grid: the BCS heuristic counts CTAs in issue order.
    clusterDims_ = Dims{2, 1, 1};
    for (uint64_t c = 0; c < total_; ++c) {
      if (c % 2 == 0) list_.first.push_back(static_cast<uint32_t>(c));
      list_.ctas.push_back(static_cast<uint32_t>(c));
    }
    list_.first.push_back(static_cast<uint32_t>(total_));
  } else {
    clusterDims_ = Dims{1, 1, 1};
    if (launch.hints != nullptr) {
      // The runtime checked each descriptor against the grid before the launch
      // (hints::checkForGrid), so the plan does not throw for a launch that got here.
      if (const LaunchPlan plan = planLaunch(*launch.hints, grid, numSms_); plan.clusterDims) {
        clusterDims_ = *plan.clusterDims;
      }
    }
    list_ = listClusters(grid, clusterDims_);
  }
  deal();
}

void ClusterCtaScheduler::deal() {
  for (SmState& s : sms_) {
    s = SmState{};
  }
  const size_t clusters = list_.first.empty() ? 0 : list_.first.size() - 1;
  for (size_t i = 0; i < clusters; ++i) sms_[i % numSms_].queue.push_back(static_cast<uint32_t>(i));
}

bool ClusterCtaScheduler::next(uint32_t sm, bool steal, uint32_t& cta) {
  SmState& s = sms_[sm];
  if (s.begin == s.end) {
    if (s.queued() == 0 && !steal) return false;
    if (s.queued() == 0) {
      // Steal a whole queued cluster: the last one of the SM with the most queued.
      uint32_t from = sm;
      for (uint32_t o = 0; o < numSms_; ++o) {
        if (sms_[o].queued() > sms_[from].queued()) from = o;
      }
      if (sms_[from].queued() > 0) {
        s.queue.push_back(sms_[from].queue.back());
        sms_[from].queue.pop_back();
        ++clustersStolen_;
      }
    }
    if (s.queued() > 0) {
      const uint32_t c = s.queue[s.head++];
      s.begin = list_.first[c];
      s.end = list_.first[c + 1];
    } else {
      // Nothing queued anywhere: the last CTA of the largest current cluster.
      uint32_t from = sm;
      for (uint32_t o = 0; o < numSms_; ++o) {
        if (sms_[o].end - sms_[o].begin > sms_[from].end - sms_[from].begin) from = o;
      }
      SmState& f = sms_[from];
      if (f.begin == f.end) return false;
      cta = list_.ctas[--f.end];
      ++ctasStolen_;
      return true;
    }
  }
  cta = list_.ctas[s.begin++];
  return true;
}

void ClusterCtaScheduler::schedule(timing::CtaDispatcher& dispatcher, timing::Cycle) {
  const uint32_t n = dispatcher.numSms();
  const uint32_t first = lastSm_ + 1;
  for (uint32_t i = 0; i < n && started_ < total_; ++i) {
    const uint32_t sm = (first + i) % n;
    if (!dispatcher.canStart(sm)) continue;
    uint32_t cta = 0;
    if (!next(sm, dispatcher.residentCtas(sm) == 0, cta)) continue;
    dispatcher.start(cta, sm);
    ++started_;
    lastSm_ = sm;
  }
}

void ClusterCtaScheduler::reportStats(nlohmann::json& out) const {
  out["clusters"] = list_.first.empty() ? 0 : list_.first.size() - 1;
  out["cluster_dims"] = {clusterDims_.x, clusterDims_.y, clusterDims_.z};
  out["clusters_stolen"] = clustersStolen_;
  out["ctas_stolen"] = ctasStolen_;
}

}  // namespace warpsim::mech::locality_descriptor
