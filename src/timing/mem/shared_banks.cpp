#include "timing/mem/shared_banks.h"

#include <algorithm>
#include <bit>

namespace warpsim::timing::mem {

namespace {
constexpr uint32_t kNone = UINT32_MAX;
constexpr uint32_t kMaxWordsPerPass = 32 * 4;  // 32 lanes x a 16-byte access of 4-byte words
constexpr uint32_t kMaxBytes = 32;             // widest access per lane considered
}  // namespace

SharedBanks::SharedBanks(uint32_t banks, uint32_t bankBytes, uint32_t gather)
    : banks_(banks),
      bankBytes_(bankBytes),
      gather_(gather),
      head_(size_t{banks} * gather, kNone),
      count_(size_t{banks} * gather, 0),
      portWords_(banks, 0) {
  // A lane touches at most kMaxBytes / bankBytes + 1 words.
  const uint32_t perLane = kMaxBytes / bankBytes + 1;
  words_.resize(std::max(kMaxWordsPerPass, 32 * perLane));
  next_.resize(words_.size());
  wordMask_.resize(words_.size());
  touched_.reserve(size_t{banks} * gather);
}

SharedPasses SharedBanks::passes(const uint64_t* offset, uint32_t mask, uint32_t bytes) {
  SharedPasses out;
  const uint32_t n = std::clamp<uint32_t>(bytes, 1, kMaxBytes);
  const uint32_t rowBytes = banks_ * bankBytes_;
  const uint32_t groupLanes = std::clamp<uint32_t>(rowBytes / n, 1, 32);
  const uint32_t groupMaskBits = groupLanes >= 32 ? ~0u : ((1u << groupLanes) - 1);
  for (uint32_t first = 0; first < 32; first += groupLanes) {
    const uint32_t group = mask & (groupMaskBits << first);
    if (group == 0) continue;
    ++out.passes;
    out.cycles += degree(offset, group, n);
  }
  return out;
}

uint32_t SharedBanks::degree(const uint64_t* offset, uint32_t groupMask, uint32_t bytes) {
  uint32_t used = 0;
  uint32_t worst = 0;
  for (uint32_t m = groupMask; m != 0; m &= m - 1) {
    const uint64_t a = offset[std::countr_zero(m)];
    const uint64_t lastWord = (a + bytes - 1) / bankBytes_;
    for (uint64_t w = a / bankBytes_; w <= lastWord; ++w) {
      const auto port = static_cast<uint32_t>(w % banks_);
      const uint32_t bank = port * gather_ + static_cast<uint32_t>(w / banks_ % gather_);
      uint32_t i = head_[bank];
      while (i != kNone && words_[i] != w) i = next_[i];
      if (i == kNone) {
        if (head_[bank] == kNone) touched_.push_back(bank);
        words_[used] = w;
        wordMask_[used] = 0;
        next_[used] = head_[bank];
        head_[bank] = i = used++;
        worst = std::max(worst, ++count_[bank]);
      }  // else the same row: broadcast
      if (gather_ > 1) {
        // The 4-byte words of this row that the lane's bytes cover.
        const uint64_t rowStart = w * bankBytes_;
        const uint64_t from = std::max(a, rowStart), to = std::min(a + bytes, rowStart + bankBytes_);
        for (uint64_t b = from / 4 * 4; b < to; b += 4) wordMask_[i] |= 1u << ((b - rowStart) / 4 % 32);
      }
    }
  }
  if (gather_ > 1) {
    for (uint32_t bank : touched_) {
      uint32_t& words = portWords_[bank / gather_];
      for (uint32_t i = head_[bank]; i != kNone; i = next_[i])
        words += static_cast<uint32_t>(std::popcount(wordMask_[i]));
    }
    for (uint32_t bank : touched_) {
      uint32_t& words = portWords_[bank / gather_];
      worst = std::max(worst, (words * 4 + bankBytes_ - 1) / bankBytes_);
    }
    for (uint32_t bank : touched_) portWords_[bank / gather_] = 0;
  }
  for (uint32_t bank : touched_) {
    head_[bank] = kNone;
    count_[bank] = 0;
  }
  touched_.clear();
  return worst;
}

}  // namespace warpsim::timing::mem
