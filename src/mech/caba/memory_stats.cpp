#include "mech/caba/memory_stats.h"

#include <string>

#include <nlohmann/json.hpp>

namespace warpsim::mech::caba {

namespace {

void add(nlohmann::json& out, const std::string& key, uint64_t value) {
  out[key] = (out.contains(key) ? out[key].get<uint64_t>() : 0) + value;
}

void addDirection(nlohmann::json& out, const char* key, const DirectionCounters& c) {
  nlohmann::json& d = out[key];
  add(d, "lines", c.lines);
  add(d, "compressed_lines", c.compressedLines);
  add(d, "bursts", c.bursts);
  add(d, "baseline_bursts", c.baselineBursts);
}

}  // namespace

void MemoryCompressionStats::report(nlohmann::json& out, Algorithm algorithm) const {
  out["algorithm"] = algorithmName(algorithm);
  addDirection(out, "dram_reads", reads);
  addDirection(out, "dram_writes", writes);
  add(out, "read_modify_writes", readModifyWrites);
  add(out, "read_modify_write_bursts", readModifyWriteBursts);
  nlohmann::json& md = out["metadata_cache"];
  add(md, "hits", metadataHits);
  add(md, "misses", metadataMisses);
  add(md, "writebacks", metadataWritebacks);
  nlohmann::json& r = out["replies"];
  add(r, "count", replies);
  add(r, "compressed", compressedReplies);
  add(r, "bytes", replyBytes);
  add(r, "baseline_bytes", replyBaselineBytes);
  nlohmann::json& st = out["stores"];
  add(st, "compressed_lines", storesCompressed);
  add(st, "plain_lines", storesPlain);
  add(st, "partial", storesPartial);
  add(st, "refused", storesRefused);
  nlohmann::json& cap = out["l2_capacity"];
  add(cap, "compressed_lines", l2Sized);
  add(cap, "compressed_bytes", l2SizedBytes);
  add(out, "lines_compressed", compressions);
  add(out, "transfers_outside_device_memory", unknownLines);
  add(out, "line_bursts", lineBursts);
  add(out, "line_bursts_uncompressed", lineBurstsFull);
  add(out, "checked", checked);
  add(out, "check_failures", checkFailures);
  nlohmann::json& e = out["encodings"];
  for (uint32_t a = 0; a < kAlgorithms; ++a)
    for (uint32_t i = 0; i < encodings[a].size(); ++i)
      if (encodings[a][i] != 0)
        add(e, encodingName(static_cast<Algorithm>(a), static_cast<uint8_t>(i)), encodings[a][i]);
}

}  // namespace warpsim::mech::caba
