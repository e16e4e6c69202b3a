// XMem's Atom Address Map (AAM; digest xmem-and-locality-descriptor.md s1.6, s1.11 item 5).
//
// The paper: one global in-memory table indexed by physical page; each page's entry holds the
// atom id of each of its chunks (default 512 B = 8 cache lines, so 8 ids of 8 bits = 8 B per
// 4 KB page). A chunk belongs to at most one atom, the latest one mapped over it; the
// granularity is configurable and an approximate mapping only costs optimisation accuracy.
//
// What we chose:
//   - Page and chunk sizes are constructor parameters (powers of two, chunk <= page).
//   - A5 (no spare code for "no atom" with 256 8-bit ids): an id is 8 bits plus a valid bit, so
//     all of 0..255 are atoms. Stored as uint16_t with kNoAtom (0xFFFF) for an invalid entry;
//     owner() returns std::nullopt for it.
//   - A7: map() gives every chunk the range touches, even partly, to the atom (the latest mapping
//     wins, so unaligned tile edges are attributed to whichever tile was mapped last).
//   - unmap() clears only the chunks of the range that the unmapping atom owns; a chunk a later
//     mapping gave to another atom keeps that owner.
//   - A6: the table is indexed by whatever addresses it is given (the simulator's device
//     addresses, no translation), so there are no stale entries after migration to handle.
//   - Storage is sparse: a hash map from page index to a slot of chunk ids in one pool. A page
//     whose chunks are all cleared gives its slot back. Lookups never allocate.
//
// Counters: chunksWritten, the chunk ids map() writes (every chunk it covers) and unmap() clears
// (only the chunks it takes from their owner). Entry reads are counted by the AMU, which knows
// which reads reach the table (ALB misses).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "hints/atoms.h"

namespace warpsim::mech::xmem {

class AtomAddressMap {
 public:
  static constexpr uint16_t kNoAtom = 0xFFFF;  // the valid bit clear

  // Throws std::invalid_argument unless both sizes are powers of two and chunkBytes <= pageBytes.
  explicit AtomAddressMap(uint64_t pageBytes = 4096, uint64_t chunkBytes = 512);

  // Every chunk [start, start + bytes) touches now belongs to `atom`. Throws std::invalid_argument
  // for an atom of hints::kMaxAtoms or more, or a range past the end of the address space.
  void map(uint32_t atom, uint64_t start, uint64_t bytes);
  // The chunks [start, start + bytes) touches that `atom` owns lose their owner. Same throws.
  void unmap(uint32_t atom, uint64_t start, uint64_t bytes);

  // The atom owning `address`'s chunk, or std::nullopt.
  std::optional<uint32_t> owner(uint64_t address) const;

  uint64_t pageBytes() const { return uint64_t{1} << pageShift_; }
  uint64_t chunkBytes() const { return uint64_t{1} << chunkShift_; }
  uint64_t chunksPerPage() const { return chunksPerPage_; }
  uint64_t pageOf(uint64_t address) const { return address >> pageShift_; }

  uint64_t chunksWritten() const { return chunksWritten_; }
  // Pages holding at least one owned chunk, and owned chunks in all.
  uint64_t pagesWithEntries() const { return slotOfPage_.size(); }
  uint64_t chunksOwned() const { return chunksOwned_; }
  // The chunks `atom` owns now (its working set, in chunks; 0 for an id out of range).
  uint64_t chunksOwnedBy(uint32_t atom) const { return atom < chunksOfAtom_.size() ? chunksOfAtom_[atom] : 0; }

 private:
  // Calls `f(page, slot, firstChunk, endChunk)` for each page the range touches, chunks counted
  // within the page; `create` says whether a page without a slot gets one (map) or is skipped
  // (unmap).
  template <typename F>
  void forEachPage(uint64_t start, uint64_t bytes, bool create, F&& f);
  uint32_t slotFor(uint64_t page);
  void releaseSlot(uint64_t page, uint32_t slot);

  uint32_t pageShift_ = 0;
  uint32_t chunkShift_ = 0;
  uint64_t chunksPerPage_ = 0;
  std::unordered_map<uint64_t, uint32_t> slotOfPage_;  // page index -> slot
  std::vector<uint16_t> ids_;                          // chunksPerPage_ ids per slot
  std::vector<uint32_t> ownedInSlot_;                  // owned chunks per slot
  std::vector<uint32_t> freeSlots_;
  uint64_t chunksWritten_ = 0;
  uint64_t chunksOwned_ = 0;
  std::array<uint64_t, hints::kMaxAtoms> chunksOfAtom_{};
};

}  // namespace warpsim::mech::xmem
