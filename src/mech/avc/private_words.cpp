#include "mech/avc/private_words.h"

#include <bit>

namespace warpsim::mech::avc {

PrivateWords::PrivateWords(uint32_t l1Blocks)
    : table_(std::bit_ceil(std::max<uint32_t>(4 * l1Blocks, 64))) {}

size_t PrivateWords::slotOf(uint64_t block) const {
  // Blocks are 128-byte aligned: mix the block number.
  return static_cast<size_t>(((block / 128) * 0x9E3779B97F4A7C15ull) >> 20) & (table_.size() - 1);
}

BlockWords* PrivateWords::l1(uint64_t block) {
  for (size_t i = slotOf(block);; i = (i + 1) & (table_.size() - 1)) {
    if (table_[i].block == block) return &table_[i];
    if (table_[i].block == 0) return nullptr;
  }
}

BlockWords& PrivateWords::l1Make(uint64_t block) {
  if (BlockWords* b = l1(block)) return *b;
  if (4 * (used_ + 1) > 3 * table_.size()) grow();
  size_t i = slotOf(block);
  while (table_[i].block != 0) i = (i + 1) & (table_.size() - 1);
  table_[i] = BlockWords{};
  table_[i].block = block;
  ++used_;
  return table_[i];
}

uint32_t PrivateWords::l1Drop(uint64_t block) {
  BlockWords* b = l1(block);
  if (b == nullptr) return 0;
  const uint32_t dirty = b->dirty & b->valid;
  if (dirty != 0) writeBelow(block, dirty, b->known, b->value);
  // Backward-shift deletion keeps every probe chain unbroken.
  const size_t mask = table_.size() - 1;
  size_t hole = static_cast<size_t>(b - table_.data());
  table_[hole] = BlockWords{};
  for (size_t i = (hole + 1) & mask; table_[i].block != 0; i = (i + 1) & mask) {
    const size_t home = slotOf(table_[i].block);
    // Move entry i into the hole when its home is not between the hole and i (cyclically).
    if (((i - home) & mask) >= ((i - hole) & mask)) {
      table_[hole] = table_[i];
      table_[i] = BlockWords{};
      hole = i;
    }
  }
  --used_;
  return dirty;
}

void PrivateWords::grow() {
  std::vector<BlockWords> old;
  old.swap(table_);
  table_.assign(old.size() * 2, BlockWords{});
  used_ = 0;
  for (const BlockWords& b : old) {
    if (b.block != 0) l1Make(b.block) = b;
  }
}

bool PrivateWords::below(uint64_t block, unsigned lane, uint32_t& value) const {
  const auto it = pages_.find(block / kPageBytes);
  if (it == pages_.end()) return false;
  const unsigned inPage = static_cast<unsigned>(block % kPageBytes / 128);
  if ((it->second->known[inPage] >> lane & 1) == 0) return false;
  value = it->second->value[inPage][lane];
  return true;
}

void PrivateWords::writeBelow(uint64_t block, uint32_t lanes, uint32_t known,
                              const uint32_t* values) {
  std::unique_ptr<Page>& page = pages_[block / kPageBytes];
  if (!page) page = std::make_unique<Page>();
  const unsigned inPage = static_cast<unsigned>(block % kPageBytes / 128);
  for (uint32_t m = lanes; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    page->value[inPage][lane] = values[lane];
  }
  page->known[inPage] = (page->known[inPage] & ~lanes) | (lanes & known);
}

void PrivateWords::clear() {
  std::fill(table_.begin(), table_.end(), BlockWords{});
  used_ = 0;
  pages_.clear();
}

}  // namespace warpsim::mech::avc
