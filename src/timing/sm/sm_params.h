// The SM's configuration keys ([sm] and its tables), read once when the SM is built.
//
//   [sm]                 max_warps, schedulers, sub_cores, ibuffer_entries, decode_latency
//   [sm.icache]          size, assoc, line, miss_latency, instruction_bytes
//   [sm.units.<class>]   count, lanes, latency, initiation_interval (class: alu sfu fp64 lsu
//                        tensor)
//   [sm.warp_scheduler]  impl (+ the policy's keys)      default "gto"
//   [sm.register_file]   impl (+ the model's keys)       default "banked"
//   [sm.assist_warp]     impl                            default "none"
//   [sm.storage_banks]   shared_with_registers, clusters, banks_per_cluster, row_bytes
//                        (timing/storage_banks.h)
// Defaults: GTX 480 (Fermi) at the 1.4 GHz core clock (see README.md).
#pragma once
#include <cstdint>
#include <string>

#include "config/config.h"
#include "timing/sm/unit_class.h"

namespace warpsim::timing {

struct UnitParams {
  uint32_t count = 1;        // instances per SM (divided among schedulers with sub-cores)
  uint32_t lanes = 16;
  uint32_t latency = 1;      // dispatch to result (lsu: to hand-over to the memory pipeline)
  uint32_t interval = 2;     // cycles between two warp instructions entering one instance
};

// Banks the register file shares with shared memory and the L1 data (timing/storage_banks.h).
struct StorageBankParams {
  bool shared = false;       // register accesses and memory passes compete for the same banks
  uint32_t clusters = 8;
  uint32_t banksPerCluster = 4;
  uint32_t rowBytes = 16;
};

struct SmParams {
  uint32_t maxWarps = 48;
  uint32_t schedulers = 2;
  bool subCores = false;
  uint32_t ibufferEntries = 2;
  uint32_t decodeLatency = 1;
  // instruction cache
  uint32_t icacheBytes = 8192;
  uint32_t icacheAssoc = 4;
  uint32_t icacheLine = 128;
  uint32_t icacheMissLatency = 100;
  uint32_t instructionBytes = 8;
  UnitParams units[kNumUnitClasses];
  std::string scheduler = "gto";
  std::string registerFile = "banked";
  std::string assistWarp = "none";
  StorageBankParams storageBanks;

  uint32_t partitions() const { return subCores ? schedulers : 1; }
};

// Reads and checks the keys (config::Error naming the key for bad values, e.g. unit counts that
// do not divide among sub-cores).
SmParams readSmParams(config::Section sm);

}  // namespace warpsim::timing
