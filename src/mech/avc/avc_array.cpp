#include "mech/avc/avc_array.h"

#include <algorithm>
#include <bit>

namespace warpsim::mech::avc {

AvcArray::AvcArray(uint64_t bytes, uint32_t ways)
    : sets_(ways == 0 ? 0 : static_cast<uint32_t>(bytes / (uint64_t{ways} * kBlockBytes))),
      ways_(ways),
      plru_(std::max<uint32_t>(ways, 1)),
      lines_(size_t{sets_} * ways),
      plruBits_(sets_, 0) {}

AvcLine* AvcArray::find(uint64_t block) {
  if (sets_ == 0) return nullptr;
  const uint64_t tag = lineOf(block);
  AvcLine* set = &lines_[size_t{setOf(block)} * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (set[w].allocated && set[w].tag == tag) return &set[w];
  }
  return nullptr;
}

void AvcArray::touch(uint64_t block) {
  const uint32_t s = setOf(block);
  AvcLine* l = find(block);
  if (l != nullptr) plru_.touch(plruBits_[s], static_cast<uint32_t>(l - &lines_[size_t{s} * ways_]));
}

AvcLine& AvcArray::victimFor(uint64_t block) {
  const uint32_t s = setOf(block);
  AvcLine* set = &lines_[size_t{s} * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!set[w].allocated) return set[w];
  }
  return set[plru_.victim(plruBits_[s])];
}

AvcLine& AvcArray::install(uint64_t block, AvcLine& way) {
  way = AvcLine{};
  way.tag = lineOf(block);
  way.allocated = true;
  const uint32_t s = setOf(block);
  plru_.touch(plruBits_[s], static_cast<uint32_t>(&way - &lines_[size_t{s} * ways_]));
  return way;
}

void AvcArray::clear() {
  std::fill(lines_.begin(), lines_.end(), AvcLine{});
  std::fill(plruBits_.begin(), plruBits_.end(), 0);
}

uint64_t AvcArray::validWords() const {
  uint64_t n = 0;
  for (const AvcLine& l : lines_) {
    if (!l.allocated) continue;
    for (const AvcVector& v : l.vectors) n += static_cast<uint64_t>(std::popcount(v.valid));
  }
  return n;
}

}  // namespace warpsim::mech::avc
