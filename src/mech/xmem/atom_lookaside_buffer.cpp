#include "mech/xmem/atom_lookaside_buffer.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace warpsim::mech::xmem {

AtomLookasideBuffer::AtomLookasideBuffer(uint32_t entries, uint32_t ways) {
  if (ways == 0 || entries == 0 || entries % ways != 0 || !std::has_single_bit(entries / ways)) {
    throw std::invalid_argument("AtomLookasideBuffer: entries (" + std::to_string(entries) + ") must be a positive "
                                "multiple of ways (" + std::to_string(ways) + ") giving a power-of-two set count");
  }
  ways_ = ways;
  sets_ = entries / ways;
  tags_.assign(entries, 0);
  stamps_.assign(entries, 0);
}

int64_t AtomLookasideBuffer::find(uint64_t page) const {
  const uint64_t first = (page & (sets_ - 1)) * ways_;
  for (uint64_t way = first; way < first + ways_; ++way) {
    if (stamps_[way] != 0 && tags_[way] == page) return static_cast<int64_t>(way);
  }
  return -1;
}

bool AtomLookasideBuffer::access(uint64_t page) {
  ++clock_;
  const uint64_t first = (page & (sets_ - 1)) * ways_;
  uint64_t victim = first;
  for (uint64_t way = first; way < first + ways_; ++way) {
    if (stamps_[way] != 0 && tags_[way] == page) {
      stamps_[way] = clock_;
      ++hits_;
      return true;
    }
    if (stamps_[way] < stamps_[victim]) victim = way;  // an invalid way (stamp 0) is the oldest
  }
  tags_[victim] = page;
  stamps_[victim] = clock_;
  ++misses_;
  return false;
}

bool AtomLookasideBuffer::contains(uint64_t page) const { return find(page) >= 0; }

void AtomLookasideBuffer::invalidate(uint64_t page) {
  if (const int64_t way = find(page); way >= 0) stamps_[static_cast<uint64_t>(way)] = 0;
}

void AtomLookasideBuffer::flush() { stamps_.assign(stamps_.size(), 0); }

}  // namespace warpsim::mech::xmem
