// The Affine Vector Cache as a local-memory path (timing/mem/i_local_memory_path.h): per SM, an
// AVC beside the L1 (avc_array.h) plus the per-word state of the L1's local blocks and of the
// level below (private_words.h), driven by the paper's Algorithms 1 (read) and 2 (write) with
// the invalidation Algorithm 2 misses (digest s1.5-s1.8; README.md lists every decision).
//
// Each warp instruction's local lanes become transactions: one per 128-byte block and 4-byte
// word of the access (a block holds the same private word of the 32 lanes, so the lanes that
// address one block form its mask). Decisions are taken when the instruction reaches the memory
// pipeline, on the real values (loads: the values the functional engine loaded; stores: the
// data the SM copied at issue); each transaction becomes one LSU pass: served by the AVC
// (l1.hit_latency), through the L1, or around it (an affine fill: fetched from the L2 into the
// AVC). A partial hit's missing lanes are a replay, a second pass.
#pragma once
#include <vector>

#include "mech/avc/avc_array.h"
#include "mech/avc/avc_params.h"
#include "mech/avc/avc_stats.h"
#include "mech/avc/private_words.h"
#include "timing/mem/i_local_memory_path.h"

namespace warpsim::mech::avc {

class AvcLocalPath final : public timing::mem::ILocalMemoryPath {
 public:
  AvcLocalPath(const Context& context, const AvcParams& params);

  Outcome access(const Access& access, timing::Cycle now) override;
  void l1Dropped(uint64_t line) override;
  void beginKernel() override;
  void reportStats(nlohmann::json& out) const override;

  const AvcStats& stats() const { return stats_; }
  AvcArray& array() { return avc_; }
  PrivateWords& words() { return words_; }

 private:
  struct Transaction {
    uint64_t block = 0;
    uint32_t mask = 0;
    uint32_t known = 0;      // lanes whose data is a whole word
    uint32_t data[32] = {};  // the lane's word (loads: loaded; stores: stored)
    uint32_t byteOffset[32] = {};
    uint8_t bytes = 4;  // bytes per lane in this word (1, 2 or 4)
    bool isFloat = false;
  };

  uint32_t formTransactions(const Access& access);
  void load(const Transaction& t);
  void loadMiss(const Transaction& t, uint32_t lanes);
  void store(const Transaction& t);
  void classifyInto(const Transaction& t, uint64_t* classes);
  bool encode(const Transaction& t, uint32_t mask, AffineCode& code);

  // AVC line and vector management.
  AvcVector& vectorFor(uint64_t block);  // present, allocating (and evicting) as needed
  void evictLine(AvcLine& line);
  // Writes the `lanes` of `vector` (block `block`) below, merged with the L1's dirty words of
  // the block, and drops the L1 copy. Returns whether anything was written.
  bool writeBackVector(uint64_t block, const AvcVector& vector, uint32_t lanes);
  void dropL1Copy(uint64_t block);
  void sendWriteback(uint64_t block, uint32_t lanes);
  void retryWritebacks();

  void request(uint64_t block, uint32_t lanes, bool aroundL1, bool byPath, uint32_t bytes = 0);
  uint32_t sectorsOf(uint32_t lanes) const;
  void checkWord(const Transaction& t, unsigned lane, uint32_t expected);

  const AvcParams params_;
  timing::mem::LocalPathPort* port_;
  const uint32_t sectorBytes_, hitLatency_;
  const timing::mem::LocalLayout layout_;
  AvcArray avc_;
  PrivateWords words_;
  AvcStats stats_;

  // Scratch of access().
  std::vector<Transaction> transactions_;
  Request* requests_ = nullptr;
  uint32_t count_ = 0;
  bool anyServed_ = false;
  struct PendingWriteback {
    uint64_t block;
    uint32_t sectors;
  };
  std::vector<PendingWriteback> pending_;
};

}  // namespace warpsim::mech::avc
