// The data of local memory outside the AVC, word by word, as the AVC protocol needs it:
//   - the L1's local blocks: per 128-byte block, per word, valid and dirty bits (the per-word
//     coherence state digest s1.4 requires of the L1) and the word's value where known;
//   - the level below (L2/DRAM): the values written back to it.
// Values are only used by the correctness check (every load's value from this state and the
// AVC must equal the functional value) and to merge AVC and L1 words on write-back; sub-word
// stores to a word whose value is not known leave it unknown.
//
// The L1 blocks live in an open-addressing table sized to the L1 (entries follow the L1's own
// lines: created when the AVC sends a block to the L1, dropped when the L1 evicts it), the
// image in 4 KB pages made on first write-back.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace warpsim::mech::avc {

struct BlockWords {
  uint64_t block = 0;  // 0: free slot (local blocks are never at address 0)
  uint32_t valid = 0, dirty = 0, known = 0;
  uint32_t value[32] = {};
};

class PrivateWords {
 public:
  explicit PrivateWords(uint32_t l1Blocks);

  // The L1's state of `block`, or nullptr when the L1 holds none of its words.
  BlockWords* l1(uint64_t block);
  // The L1's state of `block`, created empty when absent.
  BlockWords& l1Make(uint64_t block);
  // The L1 dropped `block`: its dirty words go to the level below. Returns them.
  uint32_t l1Drop(uint64_t block);

  // The value of lane `lane`'s word in `block` below the L1; false when never written back.
  bool below(uint64_t block, unsigned lane, uint32_t& value) const;
  // Writes the lanes of `lanes` (values[lane], `known` lanes only) to the level below.
  void writeBelow(uint64_t block, uint32_t lanes, uint32_t known, const uint32_t* values);

  void clear();
  uint32_t l1Blocks() const { return used_; }

 private:
  struct Page {
    uint32_t known[32] = {};  // per block of the page: lanes with a value
    uint32_t value[32][32] = {};
  };
  static constexpr uint64_t kPageBytes = 32 * 128;

  size_t slotOf(uint64_t block) const;
  void grow();

  std::vector<BlockWords> table_;
  uint32_t used_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace warpsim::mech::avc
