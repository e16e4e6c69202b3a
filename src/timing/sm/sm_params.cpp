#include "timing/sm/sm_params.h"

#include <string>

namespace warpsim::timing {

namespace {

struct UnitDefaults {
  uint32_t count, lanes, latency;
  const char* doc;
};

// GTX 480 (Fermi) at 1.4 GHz: two 16-lane integer/fp32 groups, four SFUs, fp64 at 1/8 of the
// fp32 rate (GeForce), sixteen load/store lanes; no tensor cores.
constexpr UnitDefaults kDefaults[kNumUnitClasses] = {
    {2, 16, 16, "integer, fp32, conversion, control"},
    {1, 4, 28, "special functions (transcendental, approximate)"},
    {1, 4, 32, "double precision"},
    {1, 16, 1, "load/store address stage before the memory pipeline"},
    {0, 32, 32, "tensor (latency only)"},
};

UnitParams readUnit(config::Section units, UnitClass c, uint32_t partitions) {
  const UnitDefaults& d = kDefaults[static_cast<unsigned>(c)];
  const std::string name = unitClassName(c);
  config::Section s = units.sub(name);
  UnitParams u;
  const uint32_t minCount = c == UnitClass::Tensor ? 0 : 1;
  u.count = s.u32("count", d.count, std::string(d.doc) + ": unit instances per SM", minCount, 64);
  u.lanes = s.u32("lanes", d.lanes, "lanes per instance (a warp takes 32/lanes cycles)", 1, 32);
  u.latency = s.u32("latency", d.latency, "cycles from dispatch to result", 1, 100000);
  const uint32_t derived = (32 + u.lanes - 1) / u.lanes;
  u.interval = s.u32("initiation_interval", 0,
                     "cycles between warp instructions entering one instance (0: 32/lanes)", 0, 1024);
  if (u.interval == 0) u.interval = derived;
  if (partitions > 1 && u.count % partitions != 0) {
    throw config::Error("config: error: sm.units." + name + ".count (" + std::to_string(u.count) +
                        ") must be a multiple of sm.schedulers (" + std::to_string(partitions) +
                        ") with sm.sub_cores");
  }
  return u;
}

}  // namespace

SmParams readSmParams(config::Section sm) {
  SmParams p;
  p.maxWarps = sm.u32("max_warps", 48, "warp slots per SM", 1, 64);
  p.schedulers = sm.u32("schedulers", 2, "warp schedulers per SM (warp slot s goes to s % schedulers)", 1, 16);
  p.subCores = sm.flag("sub_cores", false,
                       "each scheduler owns its register banks, collectors and units (Volta and later)");
  p.ibufferEntries = sm.u32("ibuffer_entries", 2, "decoded instructions buffered per warp", 1, 8);
  p.decodeLatency = sm.u32("decode_latency", 1, "cycles from an instruction cache hit to issue", 1, 64);

  config::Section ic = sm.sub("icache");
  p.icacheBytes = ic.u32("size", 8192, "instruction cache bytes per SM", 128, 1u << 24);
  p.icacheAssoc = ic.u32("assoc", 4, "instruction cache ways", 1, 64);
  p.icacheLine = ic.u32("line", 128, "instruction cache line bytes", 8, 4096);
  p.icacheMissLatency = ic.u32("miss_latency", 100, "cycles to fill an instruction cache line", 1, 100000);
  p.instructionBytes = ic.u32("instruction_bytes", 8, "bytes per instruction (8 up to Pascal, 16 from Volta)", 1, 64);
  if (p.icacheBytes % (p.icacheLine * p.icacheAssoc) != 0) {
    throw config::Error("config: error: sm.icache.size (" + std::to_string(p.icacheBytes) +
                        ") must be a multiple of line * assoc (" +
                        std::to_string(p.icacheLine * p.icacheAssoc) + ")");
  }
  if (p.icacheLine % p.instructionBytes != 0) {
    throw config::Error("config: error: sm.icache.line (" + std::to_string(p.icacheLine) +
                        ") must be a multiple of sm.icache.instruction_bytes");
  }

  config::Section units = sm.sub("units");
  for (unsigned c = 0; c < kNumUnitClasses; ++c)
    p.units[c] = readUnit(units, static_cast<UnitClass>(c), p.partitions());

  p.scheduler = sm.sub("warp_scheduler").str("impl", "gto", "warp scheduler policy (lrr, gto, two-level, ...)");
  p.registerFile = sm.sub("register_file").str("impl", "banked", "register file model (banked, ...)");
  p.assistWarp = sm.sub("assist_warp").str("impl", "none", "assist-warp model (none, ...)");

  config::Section sb = sm.sub("storage_banks");
  StorageBankParams& b = p.storageBanks;
  b.shared = sb.flag("shared_with_registers", false,
                     "registers, shared memory and L1 data share the same banks (register accesses win)");
  b.clusters = sb.u32("clusters", b.clusters, "clusters of storage banks (memory rows striped over them)", 1, 64);
  b.banksPerCluster = sb.u32("banks_per_cluster", b.banksPerCluster, "storage banks per cluster", 1, 64);
  b.rowBytes = sb.u32("row_bytes", b.rowBytes, "bytes per bank row", 4, 1024);
  if (b.clusters * b.banksPerCluster > 64) {
    throw config::Error("config: error: sm.storage_banks: clusters x banks_per_cluster (" +
                        std::to_string(b.clusters * b.banksPerCluster) + ") must be at most 64");
  }
  return p;
}

}  // namespace warpsim::timing
