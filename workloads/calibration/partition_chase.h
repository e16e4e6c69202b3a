// The pointer chase of the micro suite (micro.ptx `chase`: one thread, on SM 0) over lines that
// all live in one partition of a partitioned L2 (l2.partitions, crossbar.h): SM 0's own (near)
// or another (far). Published A100 and H100 figures give the two latencies apart; a chase over
// every line would average them. The lines are placed with the configuration's address mapping
// ("hash", the bundled GPUs'), which decides each line's channel and so its partition.
#pragma once
#include <cstdint>

#include "calibration/measurements.h"

namespace warpsim::calibration {

// Core cycles per dependent load over a ring of nodes `strideBytes` apart (a multiple of the
// 128-byte line) in the first `spanBytes` of an allocation, keeping the nodes whose zone is
// SM 0's (near) or not (far); with `warm`, one untimed pass over the whole ring first (how many
// nodes the partition holds depends on the mapping, so the pass is counted from the ring). Throws
// Error for a far chase on an L2 of one partition, and for a mapping other than "hash" or a page
// placement.
double partitionChaseCyclesPerHop(Probe& probe, bool near, uint64_t spanBytes,
                                  uint32_t strideBytes, bool warm, uint32_t hops);

}  // namespace warpsim::calibration
