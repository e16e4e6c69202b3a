#include "mech/locality_descriptor/numa_placement.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warpsim::mech::locality_descriptor {

namespace {

void checkZones(uint32_t zones) {
  if (zones == 0 || (zones & (zones - 1)) != 0) {
    throw std::invalid_argument("locality descriptor: " + std::to_string(zones) +
                                " NUMA zones (a power of two is needed)");
  }
}

void checkDescriptor(const TileGeometry& descriptor) {
  if (std::string why = describeProblem(descriptor); !why.empty()) {
    throw std::invalid_argument("locality descriptor: " + why);
  }
}

// Calls visit(computeTileCoord, dataTile or nullopt, ordinal) for every C-Tile of the grid.
template <class Visit>
void forEachComputeTile(const TileGeometry& g, Visit&& visit) {
  const Dims tiles = tileCounts(g.grid, g.computeTile);
  for (uint32_t z = 0; z < tiles.z; ++z) {
    for (uint32_t y = 0; y < tiles.y; ++y) {
      for (uint32_t x = 0; x < tiles.x; ++x) {
        const Dims tile{x, y, z};
        const uint64_t ordinal = computeTileOrdinal(g, tile);
        visit(tile, dataTileOfOrdinal(g, ordinal), ordinal);
      }
    }
  }
}

// The bytes of D-Tile `dataTile` in each zone (perZone is overwritten).
void dataTileBytesPerZone(const TileGeometry& g, const Dims& dataTile, uint32_t zoneBit,
                          std::span<uint64_t> perZone) {
  std::fill(perZone.begin(), perZone.end(), 0);
  forEachDataTileRange(g, dataTile, [&](const ByteRange& r) { addBytesPerZone(r, zoneBit, perZone); });
}

}  // namespace

void addBytesPerZone(const ByteRange& range, uint32_t zoneBit, std::span<uint64_t> perZone) {
  const uint32_t zones = static_cast<uint32_t>(perZone.size());
  const uint64_t piece = uint64_t{1} << zoneBit;
  // Every run of `zones` pieces holds one piece of each zone; the rest is walked piece by piece
  // (at most zones + 1 steps).
  const uint64_t period = piece * zones;
  const uint64_t periods = range.bytes / period;
  if (periods != 0) {
    for (uint64_t& bytes : perZone) bytes += periods * piece;
  }
  uint64_t address = range.begin + periods * period;
  uint64_t left = range.bytes - periods * period;
  while (left != 0) {
    const uint64_t chunk = std::min(left, piece - (address & (piece - 1)));
    perZone[zoneOfAddress(address, zoneBit, zones)] += chunk;
    address += chunk;
    left -= chunk;
  }
}

std::vector<uint32_t> numaPartition(const TileGeometry& g, uint32_t zoneBit, uint32_t zones,
                                    uint64_t ctasPerZone) {
  checkDescriptor(g);
  checkZones(zones);
  std::vector<uint32_t> zoneOfCta(g.grid.count());
  std::vector<uint64_t> perZone(zones);
  forEachComputeTile(g, [&](const Dims& tile, const std::optional<Dims>& dataTile, uint64_t ordinal) {
    // No data of this structure to be near: spread such C-Tiles over the zones.
    uint32_t zone = static_cast<uint32_t>(ordinal % zones);
    if (dataTile) {
      dataTileBytesPerZone(g, *dataTile, zoneBit, perZone);
      zone = static_cast<uint32_t>(std::max_element(perZone.begin(), perZone.end()) - perZone.begin());
    }
    uint64_t ctas = 0;
    forEachCtaOfTile(g.grid, g.computeTile, tile, [&](uint32_t) { ++ctas; });
    // More CTAs than one zone holds at once: split into that many zones' worth (at most all of
    // them), contiguous groups in CTA order, from the zone of the data on.
    const uint64_t groups =
        ctasPerZone == 0 ? 1 : std::min<uint64_t>(zones, (ctas + ctasPerZone - 1) / ctasPerZone);
    uint64_t i = 0;
    forEachCtaOfTile(g.grid, g.computeTile, tile, [&](uint32_t cta) {
      zoneOfCta[cta] = static_cast<uint32_t>((zone + i++ * groups / ctas) % zones);
    });
  });
  return zoneOfCta;
}

LocalBytes localBytes(const TileGeometry& g, std::span<const uint32_t> zoneOfCta, uint32_t zoneBit, uint32_t zones) {
  checkDescriptor(g);
  checkZones(zones);
  if (zoneOfCta.size() != g.grid.count()) {
    throw std::invalid_argument("locality descriptor: a partition of " + std::to_string(zoneOfCta.size()) +
                                " CTAs for a grid of " + std::to_string(g.grid.count()));
  }
  LocalBytes result;
  std::vector<uint64_t> perZone(zones);
  forEachComputeTile(g, [&](const Dims& tile, const std::optional<Dims>& dataTile, uint64_t) {
    if (!dataTile) return;  // this C-Tile reads nothing of the structure
    dataTileBytesPerZone(g, *dataTile, zoneBit, perZone);
    const uint64_t bytes = dataTileBytes(g, *dataTile);
    forEachCtaOfTile(g.grid, g.computeTile, tile, [&](uint32_t cta) {
      result.local += perZone.at(zoneOfCta[cta]);
      result.read += bytes;
    });
  });
  return result;
}

NumaPlacement placeForNuma(std::span<const TileGeometry> descriptors, uint32_t zones, uint64_t ctasPerZone,
                           std::span<const std::optional<uint32_t>> fixedBit) {
  if (std::string why = describeProblem(descriptors); !why.empty()) {
    throw std::invalid_argument("locality descriptor: " + why);
  }
  checkZones(zones);
  if (!fixedBit.empty() && fixedBit.size() != descriptors.size()) {
    throw std::invalid_argument("NUMA placement: " + std::to_string(fixedBit.size()) + " fixed bits for " +
                                std::to_string(descriptors.size()) + " descriptors");
  }
  // The candidate bits of descriptor i: all of 7..16, or its fixed one.
  auto firstBit = [&](size_t i) { return fixedBit.empty() || !fixedBit[i] ? kFirstZoneBit : *fixedBit[i]; };
  auto lastBit = [&](size_t i) { return fixedBit.empty() || !fixedBit[i] ? kLastZoneBit : *fixedBit[i]; };
  for (size_t i = 0; i < fixedBit.size(); ++i) {
    if (firstBit(i) < kFirstZoneBit || firstBit(i) > kLastZoneBit) {
      throw std::invalid_argument("NUMA placement: fixed zone bit " + std::to_string(firstBit(i)) +
                                  " is outside 7..16");
    }
  }
  const std::vector<size_t> order = byPriority(descriptors);
  const size_t n = order.size();
  NumaPlacement best;
  best.zoneBit.assign(n, kFirstZoneBit);
  best.localFraction.assign(n, 0.0);
  double bestTotal = -1;  // below any candidate's: the first candidate is always taken
  std::vector<uint32_t> candidateBit(n);
  std::vector<double> candidateFraction(n);
  for (uint32_t high = firstBit(order[0]); high <= lastBit(order[0]); ++high) {
    const TileGeometry& first = descriptors[order[0]];
    std::vector<uint32_t> partition = numaPartition(first, high, zones, ctasPerZone);
    candidateBit[order[0]] = high;
    candidateFraction[order[0]] = localBytes(first, partition, high, zones).fraction();
    double total = static_cast<double>(n) * candidateFraction[order[0]];
    for (size_t i = 1; i < n; ++i) {
      // The weight N - i (0-based i) does not change which bit is best for this descriptor,
      // and the bytes read do not depend on the bit: compare local bytes, exactly.
      const TileGeometry& lower = descriptors[order[i]];
      uint32_t bestBit = firstBit(order[i]);
      LocalBytes bestBytes = localBytes(lower, partition, bestBit, zones);
      for (uint32_t low = bestBit + 1; low <= lastBit(order[i]); ++low) {
        const LocalBytes bytes = localBytes(lower, partition, low, zones);
        if (bytes.local > bestBytes.local) {
          bestBit = low;
          bestBytes = bytes;
        }
      }
      candidateBit[order[i]] = bestBit;
      candidateFraction[order[i]] = bestBytes.fraction();
      total += static_cast<double>(n - i) * bestBytes.fraction();
    }
    if (total > bestTotal) {
      bestTotal = total;
      best.zoneOfCta = std::move(partition);
      best.zoneBit = candidateBit;
      best.localFraction = candidateFraction;
    }
  }
  best.utilisation = bestTotal / (static_cast<double>(n) * static_cast<double>(n + 1) / 2);
  return best;
}

}  // namespace warpsim::mech::locality_descriptor
