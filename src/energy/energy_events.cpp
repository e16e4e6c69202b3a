#include "energy/energy_model.h"

namespace warpsim::energy {

// Counter paths follow docs/stats.md: SM counters summed over SMs under "sm", memory levels
// under "memory"; "a+b" sums two counters.
const std::vector<BaselineEvent>& baselineEvents() {
  static const std::vector<BaselineEvent> kEvents = {
      {"rf_array_read", "sm.register_file.array_reads", "register_file",
       "pJ per 128-bit SRAM array activated by a register read (a 32-lane register is 8 arrays)"},
      {"rf_array_write", "sm.register_file.array_writes", "register_file",
       "pJ per 128-bit SRAM array activated by a register write"},
      {"rf_crossbar_byte", "sm.register_file.crossbar_bytes", "rf_crossbar",
       "pJ per byte moved between the register banks and the operand collectors or write-back"},
      {"operand_collector", "sm.register_file.collector_allocations", "register_file",
       "pJ per operand-collector allocation (crossbar and collector latches)"},
      {"alu_lane_op", "sm.units.alu_lane_ops", "alu", "pJ per integer/fp32 operation of one lane"},
      {"sfu_lane_op", "sm.units.sfu_lane_ops", "sfu", "pJ per special-function operation of one lane"},
      {"fp64_lane_op", "sm.units.fp64_lane_ops", "fp64", "pJ per fp64 operation of one lane"},
      {"lsu_lane_op", "sm.units.lsu_lane_ops", "lsu", "pJ per address generation of one lane"},
      {"icache_access", "sm.icache.accesses", "icache", "pJ per instruction-cache access"},
      {"l1d_access", "memory.l1d.accesses", "l1d", "pJ per L1 data-cache access (one sector group of a line)"},
      {"shared_access", "memory.shared.accesses+memory.shared.bank_conflict_replays", "shared",
       "pJ per shared-memory pass over the 32 banks (an access and each conflict replay)"},
      {"const_access", "memory.const.accesses", "const", "pJ per constant-cache access"},
      {"l2_access", "memory.l2.accesses", "l2", "pJ per L2 access"},
      {"icnt_flit", "memory.icnt.flits", "interconnect", "pJ per interconnect flit"},
      {"dram_activate", "memory.dram.activates", "dram", "pJ per DRAM row activation (with its precharge)"},
      {"dram_read_burst", "memory.dram.read_bursts", "dram", "pJ per 32-byte DRAM read burst"},
      {"dram_write_burst", "memory.dram.write_bursts", "dram", "pJ per 32-byte DRAM write burst"},
  };
  return kEvents;
}

}  // namespace warpsim::energy
