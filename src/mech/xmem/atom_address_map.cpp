#include "mech/xmem/atom_address_map.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "hints/atoms.h"

namespace warpsim::mech::xmem {
namespace {

// A bound on the ids per page entry: the paper's entry is 8 ids; far finer chunks would make a
// page's slot (and a 2-D map's work) absurdly large, which is a configuration error.
constexpr uint64_t kMaxChunksPerPage = uint64_t{1} << 16;

void checkAtom(const char* operation, uint32_t atom) {
  if (atom >= hints::kMaxAtoms) {
    throw std::invalid_argument(std::string("AtomAddressMap::") + operation + ": atom " + std::to_string(atom) +
                                " is not below " + std::to_string(hints::kMaxAtoms));
  }
}

void checkRange(const char* operation, uint64_t start, uint64_t bytes) {
  if (bytes != 0 && start + (bytes - 1) < start) {
    throw std::invalid_argument(std::string("AtomAddressMap::") + operation + ": " + std::to_string(bytes) +
                                " bytes from " + std::to_string(start) + " pass the end of the address space");
  }
}

}  // namespace

AtomAddressMap::AtomAddressMap(uint64_t pageBytes, uint64_t chunkBytes) {
  if (!std::has_single_bit(pageBytes) || !std::has_single_bit(chunkBytes) || chunkBytes > pageBytes ||
      pageBytes / chunkBytes > kMaxChunksPerPage) {
    throw std::invalid_argument("AtomAddressMap: page bytes (" + std::to_string(pageBytes) + ") and chunk bytes (" +
                                std::to_string(chunkBytes) + ") must be powers of two with chunk <= page and at most " +
                                std::to_string(kMaxChunksPerPage) + " chunks per page");
  }
  pageShift_ = static_cast<uint32_t>(std::countr_zero(pageBytes));
  chunkShift_ = static_cast<uint32_t>(std::countr_zero(chunkBytes));
  chunksPerPage_ = pageBytes / chunkBytes;
}

template <typename F>
void AtomAddressMap::forEachPage(uint64_t start, uint64_t bytes, bool create, F&& f) {
  if (bytes == 0) return;
  const uint64_t firstChunk = start >> chunkShift_;
  const uint64_t lastChunk = (start + (bytes - 1)) >> chunkShift_;
  const uint32_t chunksPerPageShift = pageShift_ - chunkShift_;
  const uint64_t lastPage = lastChunk >> chunksPerPageShift;
  // The loop stops at lastPage itself, since lastPage + 1 may wrap to 0.
  for (uint64_t page = firstChunk >> chunksPerPageShift;; ++page) {
    const uint64_t pageFirstChunk = page << chunksPerPageShift;
    const uint64_t first = std::max(firstChunk, pageFirstChunk) - pageFirstChunk;
    const uint64_t last = std::min(lastChunk, pageFirstChunk + (chunksPerPage_ - 1)) - pageFirstChunk;
    if (create) {
      f(page, slotFor(page), first, last + 1);
    } else if (auto it = slotOfPage_.find(page); it != slotOfPage_.end()) {
      f(page, it->second, first, last + 1);
    }
    if (page == lastPage) break;
  }
}

uint32_t AtomAddressMap::slotFor(uint64_t page) {
  auto [it, inserted] = slotOfPage_.try_emplace(page, 0);
  if (!inserted) return it->second;
  if (!freeSlots_.empty()) {
    it->second = freeSlots_.back();  // a released slot's ids are all kNoAtom already
    freeSlots_.pop_back();
  } else {
    it->second = static_cast<uint32_t>(ownedInSlot_.size());
    ids_.resize(ids_.size() + chunksPerPage_, kNoAtom);
    ownedInSlot_.push_back(0);
  }
  return it->second;
}

void AtomAddressMap::releaseSlot(uint64_t page, uint32_t slot) {
  slotOfPage_.erase(page);
  freeSlots_.push_back(slot);
}

void AtomAddressMap::map(uint32_t atom, uint64_t start, uint64_t bytes) {
  checkAtom("map", atom);
  checkRange("map", start, bytes);
  const auto id = static_cast<uint16_t>(atom);
  forEachPage(start, bytes, true, [&](uint64_t, uint32_t slot, uint64_t first, uint64_t end) {
    uint16_t* ids = ids_.data() + slot * chunksPerPage_;
    for (uint64_t c = first; c < end; ++c) {
      if (ids[c] == kNoAtom) {
        ++ownedInSlot_[slot];
        ++chunksOwned_;
      } else {
        --chunksOfAtom_[ids[c]];
      }
      ids[c] = id;
      ++chunksOfAtom_[id];
    }
    chunksWritten_ += end - first;
  });
}

void AtomAddressMap::unmap(uint32_t atom, uint64_t start, uint64_t bytes) {
  checkAtom("unmap", atom);
  checkRange("unmap", start, bytes);
  forEachPage(start, bytes, false, [&](uint64_t page, uint32_t slot, uint64_t first, uint64_t end) {
    uint16_t* ids = ids_.data() + slot * chunksPerPage_;
    for (uint64_t c = first; c < end; ++c) {
      if (ids[c] != atom) continue;
      ids[c] = kNoAtom;
      --ownedInSlot_[slot];
      --chunksOwned_;
      --chunksOfAtom_[atom];
      ++chunksWritten_;
    }
    if (ownedInSlot_[slot] == 0) releaseSlot(page, slot);
  });
}

std::optional<uint32_t> AtomAddressMap::owner(uint64_t address) const {
  const auto it = slotOfPage_.find(address >> pageShift_);
  if (it == slotOfPage_.end()) return std::nullopt;
  const uint16_t id = ids_[it->second * chunksPerPage_ + ((address >> chunkShift_) & (chunksPerPage_ - 1))];
  if (id == kNoAtom) return std::nullopt;
  return id;
}

}  // namespace warpsim::mech::xmem
