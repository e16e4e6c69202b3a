// CTA scheduler "clusters" (digest s2.4.1 and s2.6): CTAs grouped into clusters, each cluster
// placed on one SM, so that CTAs sharing data share that SM's L1.
//
//   cta_scheduler.clusters = "descriptors"  the clusters Algorithm 1 chooses from the launch's
//                                           INTER_THREAD descriptors (LDesc-Sched); a launch
//                                           without them is scheduled as the round-robin
//                                           baseline places it (clusters of one CTA)
//                          = "pairs"        two consecutive CTAs (linear ids 2k, 2k + 1) per
//                                           cluster: the BCS baseline
//                          = "fixed"        clusters of cluster_x x cluster_y x cluster_z CTAs
//                                           of the grid (clipped to it), whatever the launch's
//                                           descriptors say: the motivation study's strategies
//
// Clusters are dealt to SMs in turn (cluster i to SM i mod SMs); each SM starts the CTAs of its
// current cluster in order, then its next one. An SM with nothing left of its own takes work
// from others only once it runs no CTA of the kernel (CtaDispatcher::residentCtas), so that
// stealing keeps SMs busy without breaking clusters that would fit: it takes the last queued
// cluster of the SM with the most queued clusters, or, when none is queued anywhere, the last
// CTA of the current cluster with the most CTAs left (the thesis spreads the last C-Tile over
// several SMs to keep every SM busy). SMs are visited in turn after the last one served, at most
// one new CTA per SM per cycle, as in the baseline.
//
// On a GPU of several modules (context.modules > 1, NUMA zones) with "descriptors": Algorithm 2
// partitions the CTAs across the zones (numa_placement.h, all the launch's descriptors, with the
// zone bits earlier launches fixed: placement_history.h), the
// cluster dimensions come from Algorithm 1 for the SMs of one zone, each cluster's CTAs of one
// zone stay together, and each zone's clusters go to that zone's SMs. Stealing looks in the
// SM's own zone first, then anywhere (the thesis favours parallelism over locality).
#pragma once
#include <cstdint>
#include <vector>

#include "mech/locality_descriptor/cta_clustering.h"
#include "mech/locality_descriptor/placement_history.h"
#include "timing/i_cta_scheduler.h"

namespace warpsim::mech::locality_descriptor {

class ClusterCtaScheduler final : public timing::ICtaScheduler {
 public:
  explicit ClusterCtaScheduler(const Context& context);

  void beginKernel(uint64_t numCtas) override;
  void beginLaunch(const Launch& launch) override;
  void schedule(timing::CtaDispatcher& dispatcher, timing::Cycle now) override;
  uint64_t pending() const override { return total_ - started_; }
  void reportStats(nlohmann::json& out) const override;

 private:
  struct SmState {
    uint32_t begin = 0, end = 0;        // CTAs left of the current cluster: list_.ctas[begin, end)
    std::vector<uint32_t> queue;        // clusters dealt to this SM, taken from `head`
    size_t head = 0;
    size_t queued() const { return queue.size() - head; }
  };
  // Deals the clusters of `list_` to the SMs (with zones, each zone's to its own SMs).
  void deal();
  // Splits the clusters of `list_` by the zone of their CTAs (Algorithm 2's partition) and
  // orders them zone by zone, noting each one's zone in clusterZone_.
  void splitByZone(const std::vector<uint32_t>& zoneOfCta);
  bool sameZone(uint32_t a, uint32_t b) const {
    const uint32_t per = numSms_ / modules_;
    return a / per == b / per;
  }
  // The next CTA for SM `sm`, or false when it has none of its own and may not (`steal`
  // false) or cannot take one from another SM.
  bool next(uint32_t sm, bool steal, uint32_t& cta);

  enum class Mode : uint8_t { Descriptors, Pairs, Fixed };
  uint32_t numSms_;
  uint32_t modules_;               // NUMA zones (gpu.modules): SMs numSms_ / modules_ each
  Mode mode_ = Mode::Descriptors;  // cta_scheduler.clusters, read once
  Dims fixedDims_;                 // clusters = "fixed"
  ClusterList list_;
  std::vector<uint32_t> clusterZone_;  // per cluster of list_, with zones; empty otherwise
  PlacementHistory placements_;    // the zone bits earlier launches fixed (as the zone placement's)
  Dims clusterDims_;
  std::vector<SmState> sms_;
  uint64_t total_ = 0, started_ = 0;
  uint32_t lastSm_ = 0;
  uint64_t clustersStolen_ = 0, ctasStolen_ = 0;
};

}  // namespace warpsim::mech::locality_descriptor
