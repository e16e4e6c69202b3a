#include "func/speculative_memory.h"

#include <bit>
#include <algorithm>
#include <cstring>

namespace warpsim::func {
namespace {

// What a line that has no page in device memory yet reads as.
constexpr uint8_t kZeroLine[SpeculativeMemory::kLineBytes] = {};

// Bytes [offset, offset + n) of a line as a mask; an aligned access of at most 16 bytes lies in
// one 64-byte half.
std::array<uint64_t, 2> lineByteMask(unsigned offset, unsigned n) {
  std::array<uint64_t, 2> m{};
  m[offset >> 6] = ((uint64_t{1} << n) - 1) << (offset & 63);
  return m;
}

constexpr uint32_t kEmptySlot = UINT32_MAX;

// Where a line's search starts in an open-addressing index of `size` (a power of two) slots.
size_t lineSlot(uint64_t tag, size_t size) {
  // Fibonacci hashing: consecutive lines spread over the table.
  return static_cast<size_t>((tag * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(size)));
}

// The first empty slot on a line's search path.
size_t freeLineSlot(const std::vector<uint32_t>& index, uint64_t tag) {
  size_t s = lineSlot(tag, index.size());
  while (index[s] != kEmptySlot) s = (s + 1) & (index.size() - 1);
  return s;
}

}  // namespace

void WrittenLines::clear() {
  entries_.clear();
  std::fill(index_.begin(), index_.end(), kEmptySlot);
}

void WrittenLines::add(uint64_t line, const std::array<uint64_t, 2>& bytes) {
  if (2 * (entries_.size() + 1) > index_.size()) {
    index_.assign(index_.empty() ? 256 : index_.size() * 2, kEmptySlot);
    for (uint32_t i = 0; i < entries_.size(); ++i) index_[freeLineSlot(index_, entries_[i].tag)] = i;
  }
  const size_t mask = index_.size() - 1;
  size_t s = lineSlot(line, index_.size());
  for (; index_[s] != kEmptySlot; s = (s + 1) & mask) {
    Entry& e = entries_[index_[s]];
    if (e.tag == line) {
      e.bytes[0] |= bytes[0];
      e.bytes[1] |= bytes[1];
      return;
    }
  }
  index_[s] = static_cast<uint32_t>(entries_.size());
  entries_.push_back({line, bytes});
}

bool WrittenLines::overlaps(uint64_t line, const std::array<uint64_t, 2>& bytes) const {
  if (entries_.empty()) return false;
  const size_t mask = index_.size() - 1;
  for (size_t s = lineSlot(line, index_.size()); index_[s] != kEmptySlot; s = (s + 1) & mask) {
    const Entry& e = entries_[index_[s]];
    if (e.tag == line) return ((e.bytes[0] & bytes[0]) | (e.bytes[1] & bytes[1])) != 0;
  }
  return false;
}

void SpeculativeMemory::clear() {
  lines_.clear();
  std::fill(index_.begin(), index_.end(), kEmptySlot);
  last_ = kEmptySlot;
}

void SpeculativeMemory::grow() {
  index_.assign(index_.empty() ? 256 : index_.size() * 2, kEmptySlot);
  for (uint32_t i = 0; i < lines_.size(); ++i) index_[freeLineSlot(index_, lines_[i].tag)] = i;
}

SpeculativeMemory::Line& SpeculativeMemory::lineOf(uint64_t tag) {
  if (last_ != kEmptySlot && lines_[last_].tag == tag) return lines_[last_];
  if (2 * (lines_.size() + 1) > index_.size()) grow();  // at most half full
  const size_t mask = index_.size() - 1;
  size_t s = lineSlot(tag, index_.size());
  while (index_[s] != kEmptySlot) {
    if (lines_[index_[s]].tag == tag) {
      last_ = index_[s];
      return lines_[last_];
    }
    s = (s + 1) & mask;
  }
  last_ = static_cast<uint32_t>(lines_.size());
  index_[s] = last_;
  Line& l = lines_.emplace_back();
  l.tag = tag;
  const uint64_t addr = tag << kLineBits;
  const uint8_t* page = base_->existingPage(addr >> DeviceMemory::kPageBits);
  l.source = page ? page + (addr & (DeviceMemory::kPageSize - 1)) : kZeroLine;
  return l;
}

uint8_t* SpeculativeMemory::access(uint64_t addr, unsigned n, Access kind) {
  Line& l = lineOf(addr >> kLineBits);
  const auto offset = static_cast<unsigned>(addr & (kLineBytes - 1));
  const std::array<uint64_t, 2> bytes = lineByteMask(offset, n);
  if (kind != Access::Write) {
    l.read[0] |= bytes[0] & ~l.written[0];
    l.read[1] |= bytes[1] & ~l.written[1];
  }
  if (kind != Access::Read) {
    if (!l.copied) {
      std::memcpy(l.data, l.source, kLineBytes);
      l.copied = true;
    }
    l.written[0] |= bytes[0];
    l.written[1] |= bytes[1];
  }
  // Reads of a line never written return device memory itself, which nothing writes meanwhile.
  return l.copied ? l.data + offset : const_cast<uint8_t*>(l.source) + offset;
}

bool SpeculativeMemory::readAnyOf(const WrittenLines& written) const {
  if (written.empty()) return false;
  for (const Line& l : lines_) {
    if ((l.read[0] | l.read[1]) != 0 && written.overlaps(l.tag, l.read)) return true;
  }
  return false;
}

void SpeculativeMemory::applyTo(DeviceMemory& memory, WrittenLines& written) const {
  for (const Line& l : lines_) {
    if ((l.written[0] | l.written[1]) == 0) continue;
    uint8_t* dst = memory.translate(l.tag << kLineBits);
    for (unsigned half = 0; half < 2; ++half) {
      for (uint64_t m = l.written[half]; m != 0;) {
        // One run of consecutive written bytes at a time.
        const auto from = static_cast<unsigned>(std::countr_zero(m));
        const auto len = static_cast<unsigned>(std::countr_one(m >> from));
        std::memcpy(dst + half * 64 + from, l.data + half * 64 + from, len);
        m = len + from >= 64 ? 0 : m & ~(((uint64_t{1} << len) - 1) << from);
      }
    }
    written.add(l.tag, l.written);
  }
}

}  // namespace warpsim::func
