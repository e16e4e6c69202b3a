// Shared-memory bank conflicts. Shared memory is `banks` banks of `bankBytes`-byte words; word
// w lives in bank w % banks. Within one pass over the banks, lanes that access the same word
// are served together (broadcast) and lanes that access different words of one bank are
// serialised, so a pass costs as many cycles as the most distinct words any bank must deliver
// (the conflict degree).
//
// Wide accesses follow NVIDIA's documented behaviour (compute capability 2.x and later): the
// warp is processed in groups of consecutive lanes whose accesses fill at most one row of all
// banks — 32 lanes for accesses of up to 4 bytes, half-warps for 8 bytes, quarter-warps for 16
// bytes (with 32 x 4-byte banks) — one pass per group that has an active lane, each pass with
// its own conflict degree. Conflict-free 8-byte accesses therefore take 2 passes and 16-byte
// accesses 4, which are not counted as conflicts.
//
// Wide bank words (bankBytes larger than the access, e.g. 8 banks of 16-byte rows, one per
// cluster of a unified register/shared/L1 array): lanes whose accesses fall in one row share
// its word, so 32 consecutive 4-byte accesses are one conflict-free pass over the 8 banks.
//
// Gathering banks (`gather` > 1, the unified array's aggressive variant): each of the `banks`
// ports is fed by `gather` banks of its own (the banks of a cluster), each delivering one row
// per cycle, and the port carries at most bankBytes bytes per cycle gathered from them. Row w
// lies in port w % banks, in its bank (w / banks) % gather. A port then needs as many cycles as
// the most distinct rows one of its banks must deliver, or as its distinct 4-byte words fill
// bankBytes-byte transfers, whichever is more.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

struct SharedPasses {
  uint32_t passes = 0;  // lane groups with an active lane
  uint32_t cycles = 0;  // sum over passes of their conflict degree (>= passes)
  uint32_t replays() const { return cycles - passes; }
};

class SharedBanks {
 public:
  SharedBanks(uint32_t banks, uint32_t bankBytes, uint32_t gather = 1);
  // Lanes of `mask` access `bytes` bytes each at shared offset offset[lane].
  SharedPasses passes(const uint64_t* offset, uint32_t mask, uint32_t bytes);

 private:
  uint32_t degree(const uint64_t* offset, uint32_t groupMask, uint32_t bytes);

  uint32_t banks_;
  uint32_t bankBytes_;
  uint32_t gather_;
  // Per pass: distinct words seen, chained per bank (head_/next_), and their count per bank.
  std::vector<uint64_t> words_;
  std::vector<uint32_t> next_;
  std::vector<uint32_t> wordMask_;   // gathering: the 4-byte words of the row the pass uses
  std::vector<uint32_t> portWords_;  // gathering: distinct 4-byte words per port this pass
  std::vector<uint32_t> head_;
  std::vector<uint32_t> count_;
  std::vector<uint32_t> touched_;  // banks touched this pass (to reset only those)
};

}  // namespace warpsim::timing::mem
