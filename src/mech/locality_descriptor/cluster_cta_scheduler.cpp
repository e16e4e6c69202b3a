#include "mech/locality_descriptor/cluster_cta_scheduler.h"

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "mech/locality_descriptor/launch_plan.h"

namespace warpsim::mech::locality_descriptor {

ClusterCtaScheduler::ClusterCtaScheduler(const Context& context)
    : numSms_(context.numSms), modules_(std::max<uint32_t>(context.modules, 1)), sms_(context.numSms) {
  config::Section s = context.tree->section("cta_scheduler");
  const std::string mode =
      s.choice("clusters", "descriptors", {"descriptors", "pairs", "fixed"},
               "what a cluster of CTAs on one SM is: Algorithm 1's from the locality descriptors, "
               "two consecutive CTAs (BCS), or cluster_x x cluster_y x cluster_z CTAs of the grid");
  mode_ = mode == "pairs" ? Mode::Pairs : mode == "fixed" ? Mode::Fixed : Mode::Descriptors;
  if (mode_ == Mode::Fixed) {
    fixedDims_.x = s.u32("cluster_x", 1, "CTAs per cluster along the grid's x (clusters = fixed)", 1);
    fixedDims_.y = s.u32("cluster_y", 1, "CTAs per cluster along the grid's y (clusters = fixed)", 1);
    fixedDims_.z = s.u32("cluster_z", 1, "CTAs per cluster along the grid's z (clusters = fixed)", 1);
  }
}

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
  clusterZone_.clear();
  if (total_ == 0) {
    deal();
    return;
  }
  if (mode_ == Mode::Pairs) {
    // Linear pairs, across rows of the grid: the BCS heuristic counts CTAs in issue order.
    clusterDims_ = Dims{2, 1, 1};
    for (uint64_t c = 0; c < total_; ++c) {
      if (c % 2 == 0) list_.first.push_back(static_cast<uint32_t>(c));
      list_.ctas.push_back(static_cast<uint32_t>(c));
    }
    list_.first.push_back(static_cast<uint32_t>(total_));
  } else if (mode_ == Mode::Fixed) {
    // Clipped to the grid, so that the statistics say what the launch got.
    for (int d = 0; d < 3; ++d) clusterDims_[d] = std::min(fixedDims_[d], grid[d]);
    list_ = listClusters(grid, clusterDims_);
  } else {
    clusterDims_ = Dims{1, 1, 1};
    std::vector<uint32_t> zoneOfCta;
    if (launch.hints != nullptr && !launch.hints->locality.empty()) {
      // The runtime checked each descriptor against the grid before the launch
      // (hints::checkForGrid), so the plan does not throw for a launch that got here. On a GPU of
      // several modules, Algorithm 2 first partitions the CTAs across the zones, and Algorithm 1
      // then chooses clusters within each zone: a zone's share of the grid on its SMs, which over
      // the whole grid is every SM (with one zone's SMs, each zone got a quarter of the clusters
      // it needs and most of its SMs started idle).
      const uint32_t smsPerZone = numSms_ / modules_;
      if (const LaunchPlan plan = planLaunch(*launch.hints, grid, numSms_); plan.clusterDims) {
        clusterDims_ = *plan.clusterDims;
      }
      if (modules_ > 1) {
        std::vector<TileGeometry> geometry;
        for (const hints::LocalityDescriptor& d : launch.hints->locality) geometry.push_back(geometryOf(d, grid));
        zoneOfCta = placements_.place(geometry, modules_, uint64_t{smsPerZone} * launch.ctasPerSm).zoneOfCta;
      }
    }
    list_ = listClusters(grid, clusterDims_);
    if (!zoneOfCta.empty()) splitByZone(zoneOfCta);
  }
  deal();
}

void ClusterCtaScheduler::splitByZone(const std::vector<uint32_t>& zoneOfCta) {
  // Each cluster's CTAs of one zone stay together; zone by zone, clusters in their order.
  ClusterList split;
  clusterZone_.clear();
  for (uint32_t z = 0; z < modules_; ++z) {
    for (size_t c = 0; c < list_.size(); ++c) {
      const size_t before = split.ctas.size();
      for (uint32_t cta : list_.cluster(c)) {
        if (zoneOfCta[cta] == z) split.ctas.push_back(cta);
      }
      if (split.ctas.size() == before) continue;
      split.first.push_back(static_cast<uint32_t>(before));
      clusterZone_.push_back(z);
    }
  }
  split.first.push_back(static_cast<uint32_t>(split.ctas.size()));
  list_ = std::move(split);
}

void ClusterCtaScheduler::deal() {
  for (SmState& s : sms_) {
    s = SmState{};
  }
  const size_t clusters = list_.size();
  if (clusterZone_.empty()) {
    for (size_t i = 0; i < clusters; ++i) sms_[i % numSms_].queue.push_back(static_cast<uint32_t>(i));
    return;
  }
  // Each zone's clusters to that zone's SMs in turn.
  const uint32_t smsPerZone = numSms_ / modules_;
  std::vector<uint32_t> dealt(modules_, 0);
  for (size_t i = 0; i < clusters; ++i) {
    const uint32_t z = clusterZone_[i];
    sms_[z * smsPerZone + dealt[z]++ % smsPerZone].queue.push_back(static_cast<uint32_t>(i));
  }
}

bool ClusterCtaScheduler::next(uint32_t sm, bool steal, uint32_t& cta) {
  SmState& s = sms_[sm];
  if (s.begin == s.end) {
    if (s.queued() == 0 && !steal) return false;
    if (s.queued() == 0) {
      // Steal a whole queued cluster: the last one of the SM with the most queued (of this SM's
      // zone if any is queued there).
      uint32_t from = sm;
      for (int pass = 0; pass < 2 && sms_[from].queued() == 0; ++pass) {
        for (uint32_t o = 0; o < numSms_; ++o) {
          if ((pass == 1 || sameZone(o, sm)) && sms_[o].queued() > sms_[from].queued()) from = o;
        }
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
      // Nothing queued anywhere: the last CTA of the largest current cluster (of this SM's zone
      // if one there has CTAs left).
      uint32_t from = sm;
      for (int pass = 0; pass < 2 && sms_[from].begin == sms_[from].end; ++pass) {
        for (uint32_t o = 0; o < numSms_; ++o) {
          if ((pass == 1 || sameZone(o, sm)) &&
              sms_[o].end - sms_[o].begin > sms_[from].end - sms_[from].begin)
            from = o;
        }
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
  out["clusters"] = list_.size();
  out["cluster_dims"] = {clusterDims_.x, clusterDims_.y, clusterDims_.z};
  out["clusters_stolen"] = clustersStolen_;
  out["ctas_stolen"] = ctasStolen_;
}

}  // namespace warpsim::mech::locality_descriptor
