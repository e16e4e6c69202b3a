// Configuration of the "gscalar" register-file model ([sm.register_file], impl = "gscalar"):
// the banked geometry keys of the baseline plus the mechanism's switches (README.md lists them
// with their defaults and sources).
#pragma once
#include "config/config.h"
#include "mech/gscalar/register_state.h"
#include "timing/sm/banked_register_file.h"

namespace warpsim::mech::gscalar {

struct GScalarParams {
  timing::BankGeometry geometry;
  StateOptions state;
  ScalarSwitches scalar;             // categories that execute on one lane
  bool oneCycleScalar = false;       // scalar instructions occupy their unit for one cycle
  uint32_t extraReadCycles = 2;      // metadata read + decompression before dispatch
  uint32_t extraWriteCycles = 1;     // compression at write-back
  bool verify = false;               // check every read against the uncompressed shadow
  bool scalarRfSingleBank = true;    // word encoding: scalar registers in one extra bank
};

GScalarParams readGScalarParams(config::Section section, uint32_t partitions);

}  // namespace warpsim::mech::gscalar
