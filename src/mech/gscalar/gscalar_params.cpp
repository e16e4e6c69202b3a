#include "mech/gscalar/gscalar_params.h"

namespace warpsim::mech::gscalar {

GScalarParams readGScalarParams(config::Section s, uint32_t partitions) {
  GScalarParams p;
  p.geometry = timing::readBankGeometry(s, partitions);
  const std::string enc = s.choice("encoding", "byte_prefix", {"byte_prefix", "bdi", "word"},
                                   "register value encoding: byte_prefix (G-Scalar), bdi (base+delta, "
                                   "Warped-Compression), word (scalar or not, with a single-bank scalar "
                                   "register file)");
  p.state.encoding = enc == "bdi" ? Encoding::Bdi : enc == "word" ? Encoding::Word : Encoding::BytePrefix;
  p.state.halfRegister = s.flag("half_register", true,
                                "a second base/encoding per register: each 16-lane half compressed on its own");
  p.state.divergentWriteAllArrays =
      s.choice("divergent_write_arrays", "all", {"all", "active_halves"},
               "arrays a divergent write activates: all 8, or only the halves holding an active lane") == "all";
  p.scalar.alu = s.flag("scalar_alu", true, "non-divergent ALU instructions with scalar sources run on one lane");
  p.scalar.sfu = s.flag("scalar_sfu", true, "the same for special-function instructions");
  p.scalar.mem = s.flag("scalar_mem", true, "the same for loads and stores (address computation)");
  p.scalar.half = s.flag("half_scalar", true, "each 16-lane half whose sources are scalar runs on one lane");
  p.scalar.divergent = s.flag("divergent_scalar", true,
                              "divergent instructions whose sources are scalar under the same mask run on one lane");
  p.oneCycleScalar = s.choice("scalar_occupancy", "same_as_vector", {"same_as_vector", "one_cycle"},
                              "unit occupancy of a scalar instruction") == "one_cycle";
  p.extraReadCycles = s.u32("extra_read_cycles", 2, "pipelined cycles added to each instruction's "
                            "latency (metadata read, decompression)", 0, 16);
  p.extraWriteCycles = s.u32("extra_write_cycles", 1, "cycles added before a result is written (compression)", 0, 16);
  p.scalarRfSingleBank = s.flag("scalar_rf_single_bank", true,
                                "word encoding: scalar registers live in one single-ported scalar bank per "
                                "scheduler partition (false: in their own banks, no extra contention)");
  p.verify = s.flag("verify", false, "check every operand read against an uncompressed shadow register file");
  if (p.state.encoding != Encoding::BytePrefix) p.state.halfRegister = false;
  p.state.keepStoredForm = p.verify;  // the arrays' bytes are only needed to check decompression
  return p;
}

}  // namespace warpsim::mech::gscalar
