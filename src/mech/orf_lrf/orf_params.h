// Keys of the software-managed hierarchy ([sm.register_file] with impl = "orf-lrf"), read by
// both the register-file model and its compiler pass so that they agree. See README.md.
#pragma once
#include <cstdint>

#include "config/config.h"

namespace warpsim::mech::orf_lrf {

enum class LrfMode : uint8_t { None, Unified, Split };

// Energy of one 128-bit access (bank + wire to the private datapath), the allocator's savings
// terms (digest rf-hierarchy s6.3 Fig 6.5 / 6.8).
struct AccessEnergy {
  double read = 0, write = 0;
};

struct OrfParams {
  uint32_t entries = 3;            // ORF entries per thread
  LrfMode lrf = LrfMode::None;
  bool readOperands = true;        // read-operand allocation (s6.3 b)
  bool partialRanges = true;       // partial-range allocation (s6.3 c)
  bool forwardBranches = true;     // values stay up across forward branches inside a strand (s6.3 a)
  AccessEnergy mrf{15.6, 18.6}, orf{2.72, 5.92}, lrfEnergy{1.08, 2.38};
  bool check = true;               // count reads of invalid upper-level entries (must stay 0)
};

OrfParams readOrfParams(config::Section section);

}  // namespace warpsim::mech::orf_lrf
