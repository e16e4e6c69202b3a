// NUMA placement coordinated with CTA partitioning, the driver's part (digest
// xmem-and-locality-descriptor.md s2.4.4, Algorithm 2): one zone-bit position per data
// structure and a CTA -> zone partition, chosen so that CTAs find their D-Tiles in their own
// zone.
//
// An address's zone is log2(zones) consecutive address bits from the structure's zone bit b:
//   zone = (address >> b) & (zones - 1),
// so each structure is interleaved across the zones in 2^b-byte pieces; b is 7 (128 B, the
// smallest DRAM burst) to 16 (64 KB, the page). Addresses are the structures' device addresses;
// how bits at and above the page offset reach physical frames is the memory model's business
// (digest L7).
//
// Choices where the thesis is silent (README.md):
//   - NUMA_PART puts each C-Tile in the zone holding most of its D-Tile's bytes, the lowest
//     such zone on a tie; a C-Tile with no D-Tile goes to zone (ordinal mod zones);
//   - COMP_UTIL is the fraction of the bytes CTAs read that lie in their own zone, counting
//     each CTA of a C-Tile as reading its C-Tile's whole D-Tile once; its first argument
//     (N - i + 1 for the i-th descriptor by priority) multiplies that fraction;
//   - the best total is kept across candidate bits (the fix of the printed reset, digest L6);
//     on equal totals the lowest bit wins, here and for each lower-priority descriptor.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mech/locality_descriptor/tile_geometry.h"

namespace warpsim::mech::locality_descriptor {

constexpr uint32_t kFirstZoneBit = 7;   // 128-byte pieces
constexpr uint32_t kLastZoneBit = 16;   // 64 KB pieces

// The zone of `address` (zones: a power of two; zoneBit < 64).
inline uint32_t zoneOfAddress(uint64_t address, uint32_t zoneBit, uint32_t zones) {
  return static_cast<uint32_t>((address >> zoneBit) & (zones - 1));
}

// Adds the bytes of `range` lying in each zone to perZone[zone] (perZone.size(): the zones, a
// power of two). Constant time in the range's length.
void addBytesPerZone(const ByteRange& range, uint32_t zoneBit, std::span<uint64_t> perZone);

// NUMA_PART: the zone of every CTA (by linear id) when each C-Tile of `descriptor` goes where
// its D-Tile's bytes mostly are under zone bit `zoneBit`. A C-Tile of more CTAs than one zone
// holds at once (`ctasPerZone`; 0: not known, no split) is split across
// min(zones, ceil(CTAs / ctasPerZone)) zones, in equal contiguous groups of its CTAs (X -> Y ->
// Z order), the first in its data's zone and the next ones in the zones after it: the thesis's
// "favours parallelism", so that a structure shared by more CTAs than fit in a zone does not
// leave the other zones idle. Throws std::invalid_argument on a problem of the descriptor
// (describeProblem) or a zone count that is not a power of two.
std::vector<uint32_t> numaPartition(const TileGeometry& descriptor, uint32_t zoneBit, uint32_t zones,
                                    uint64_t ctasPerZone = 0);

// The bytes CTAs read from `descriptor`'s structure (each CTA its C-Tile's whole D-Tile) and
// how many of them lie in the reading CTA's zone, under zone bit `zoneBit` and the partition
// `zoneOfCta` (one zone per CTA of the grid).
struct LocalBytes {
  uint64_t local = 0;
  uint64_t read = 0;
  double fraction() const { return read == 0 ? 0.0 : static_cast<double>(local) / static_cast<double>(read); }
};
LocalBytes localBytes(const TileGeometry& descriptor, std::span<const uint32_t> zoneOfCta, uint32_t zoneBit,
                      uint32_t zones);

struct NumaPlacement {
  std::vector<uint32_t> zoneOfCta;      // CTA_NPART: the zone of each CTA, by linear id
  std::vector<uint32_t> zoneBit;        // MAP: each descriptor's zone bit, in the input order
  std::vector<double> localFraction;    // each descriptor's LocalBytes::fraction(), input order
  // The chosen candidate's sum of weighted fractions divided by the sum of the weights
  // (N + (N - 1) + ... + 1): 1 when every byte read is local.
  double utilisation = 0;
};

// Algorithm 2 over the descriptors of one launch, in any order (byPriority()); `ctasPerZone` as
// numaPartition's. `fixedBit` (empty, or one per descriptor in the input order): a descriptor
// with a value keeps that bit (its structure was placed by an earlier launch, placement_history.h)
// and only the others' bits are chosen. Throws std::invalid_argument when describeProblem() finds
// a problem, `zones` is not a power of two or a fixed bit is outside 7..16.
NumaPlacement placeForNuma(std::span<const TileGeometry> descriptors, uint32_t zones, uint64_t ctasPerZone = 0,
                           std::span<const std::optional<uint32_t>> fixedBit = {});

}  // namespace warpsim::mech::locality_descriptor
