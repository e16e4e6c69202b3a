// Page placement "atoms" (XMem use case 2, digest s1.8.2; the study's OS allocator, which the
// paper leaves open: A2, README): the frame of each page chosen by what the program's atoms say
// of the data in it, so that structures that keep DRAM rows open stay apart.
//
//   - A frame's colour is the DRAM bank its first byte maps to under the configured address
//     mapping (dram.mapping): the bank bits above the page offset are what a frame choice can
//     set (the channel bits of a GPU's mapping lie inside a page: every page spans the channels).
//   - Isolated atoms: REGULAR atoms whose intensity is at least `isolate_min_intensity`, the most
//     intense first (ties by id), as many as there are reserved banks. `isolate_share` of the
//     banks are reserved and split evenly among them: each isolated atom's pages go round robin
//     over its own banks, so its row-buffer locality is not broken by other structures.
//   - Every other page (IRREGULAR and NON_DET atoms, REGULAR ones below the threshold or beyond
//     the reserved banks, data no atom owns) goes round robin over the remaining banks: spread
//     for bank parallelism, and away from the isolated structures.
//   - A page's atom is the owner of the chunk its first request touches in the program's atom
//     address map, active or not (the OS learns a structure's atom when it is allocated, as
//     with the paper's malloc(size, atomID)). Pages keep their frames for the whole run; the
//     partition is recomputed at each launch for the pages placed from then on.
//   - Within a colour, frames are taken in ascending order; when a colour has none left, the
//     next colour of the set, then any free frame (counted as a fallback).
//
// Keys in [page_placement]: isolate_share (0.5), isolate_min_intensity (128), chunk_bytes (512,
// the atom address map's granularity). Statistics (memory.pages, per kernel, counts only):
// isolated_pages, spread_pages, unannotated_pages (no atom owns them; spread), fallback_pages,
// and `atoms`, by atom id (one entry per atom of the program): pages. The partition itself
// (which banks each atom has) is not a count and is not reported; isolatedBanks() has it.
#pragma once
#include <cstdint>
#include <vector>

#include "hints/atoms.h"
#include "mech/xmem/atom_address_map.h"
#include "timing/mem/frame_pool.h"
#include "timing/mem/i_page_placement.h"

namespace warpsim::mech::xmem {

struct AtomPlacementOptions {
  double isolateShare = 0.5;
  uint32_t isolateMinIntensity = 128;
  uint64_t chunkBytes = 512;

  // From [page_placement] of `tree`.
  static AtomPlacementOptions read(config::Tree& tree);
};

class AtomPagePlacement final : public timing::mem::IPagePlacement {
 public:
  AtomPagePlacement(const Context& context, const AtomPlacementOptions& options);

  uint64_t frameFor(uint64_t page, uint64_t address) override;
  void beginLaunch(const hints::LaunchHints* hints) override;
  void reportStats(nlohmann::json& out) const override;

  // The bank a frame's first byte maps to.
  uint32_t colourOf(uint64_t frame) const;
  // The banks atom `atom`'s pages go to (empty: it is not isolated) and those of everything else.
  const std::vector<uint32_t>& isolatedBanks(uint32_t atom) const { return isolated_[atom].banks; }
  const std::vector<uint32_t>& sharedBanks() const { return shared_.banks; }

 private:
  struct BankSet {
    std::vector<uint32_t> banks;
    uint32_t next = 0;  // round robin
  };
  struct Counts {
    uint64_t isolated = 0, spread = 0, unannotated = 0, fallback = 0;
  };
  void partition();
  uint64_t takeFrom(BankSet& set);
  uint64_t takeOfColour(uint32_t bank);

  Context context_;
  AtomPlacementOptions options_;
  AtomAddressMap aam_;
  uint64_t appliedOps_ = 0;
  std::vector<hints::AtomAttributes> attributes_;
  timing::mem::FramePool pool_;
  std::vector<uint64_t> cursor_;  // per bank: the first frame not yet looked at for it
  std::vector<BankSet> isolated_;  // per atom id
  BankSet shared_;
  Counts counts_;
  std::vector<uint64_t> atomPages_;  // per atom id, this launch
};

}  // namespace warpsim::mech::xmem
