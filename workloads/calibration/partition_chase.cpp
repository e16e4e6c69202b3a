#include "calibration/partition_chase.h"

#include <fmt/format.h>

#include <vector>

#include "calibration/targets.h"
#include "timing/mem/hash_address_mapping.h"

namespace warpsim::calibration {

double partitionChaseCyclesPerHop(Probe& probe, bool near, uint64_t spanBytes,
                                  uint32_t strideBytes, bool warm, uint32_t hops) {
  config::Tree& tree = probe.tree();
  const uint32_t parts = tree.section("l2").u32("partitions", 1, "");
  config::Section d = tree.section("dram");
  if (parts < 2 && !near) throw Error("far-partition chase: the configuration has one L2 partition");
  if (parts >= 2 && (d.str("mapping", "hash", "") != "hash" ||
                     tree.section("page_placement").str("impl", "identity", "") != "identity")) {
    throw Error("partition chase: needs dram.mapping = \"hash\" and no page placement (it places "
                "the ring itself)");
  }
  if (hops == 0 || hops % 8 != 0) throw Error("partition chase: hops must be a multiple of 8");
  if (strideBytes == 0 || strideBytes % 128 != 0) {
    throw Error("partition chase: the stride must be whole 128-byte lines");
  }
  const uint32_t channels = d.u32("channels", 6, "");
  const timing::mem::HashAddressMapping mapping(channels, d.u32("banks", 16, ""),
                                                d.u32("row_bytes", 2048, ""),
                                                d.u32("interleave_bytes", 256, ""));
  runtime::Device& device = probe.device();
  const uint64_t base = device.malloc(spanBytes);
  // SM 0, which runs the chase, is in partition 0 with channels [0, channels / parts).
  std::vector<uint64_t> nodes;
  for (uint64_t a = base; a + 8 <= base + spanBytes; a += strideBytes) {
    const bool inNear = mapping.map(a).channel < channels / parts;
    if (inNear == near) nodes.push_back(a);
  }
  if (nodes.size() < 2) throw Error("partition chase: too few lines in the span");
  std::vector<uint64_t> ring(spanBytes / 8, 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    ring[(nodes[i] - base) / 8] = nodes[(i + 1) % nodes.size()];
  }
  device.memcpyHtoD(base, ring.data(), spanBytes);
  const uint64_t out = device.malloc(16);
  const uint32_t warmHops = warm ? static_cast<uint32_t>(nodes.size()) : 0;
  device.launch(probe.micro().kernel("chase"), {1}, {1}, 0, nodes[0], warmHops, hops, out);
  const std::vector<uint64_t> result = device.download<uint64_t>(out, 2);
  const uint64_t expectEnd = nodes[(uint64_t{warmHops} + hops) % nodes.size()];
  if (result[1] != expectEnd) {
    throw Error(fmt::format("partition chase: ended at 0x{:x}, expected 0x{:x}", result[1], expectEnd));
  }
  device.free(out);
  device.free(base);
  return static_cast<double>(result[0]) / hops;
}

}  // namespace warpsim::calibration
