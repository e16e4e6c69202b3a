// The parameters of every level of the memory hierarchy, as plain values. make_memory_system
// reads them from the configuration (mem_params_config.cpp, where each key is documented);
// tests build components from them directly. Defaults are GTX 480 (Fermi) values; README.md
// says where each comes from.
#pragma once
#include <cstdint>
#include <string>

#include "timing/mem/coalescer.h"

namespace warpsim::timing::mem {

enum class Replacement : uint8_t { Lru, Fifo, Random, Plru };

// What a cache does with a store (per space at the L1).
enum class WritePolicy : uint8_t {
  WriteThroughNoAllocate,  // hits update the line, misses do not allocate; every store goes down
  WriteThroughAllocate,    // misses allocate the written sectors; every store goes down
  WriteBackAllocate,       // the line keeps dirty sectors; they go down when evicted
};

struct CacheGeometry {
  uint64_t sizeBytes = 16 * 1024;  // 0: no cache
  uint32_t assoc = 4;
  uint32_t lineBytes = 128;
  uint32_t sectorBytes = 32;
  Replacement replacement = Replacement::Lru;
  uint64_t seed = 1;  // random replacement
  // Tags per data way (1, 2 or 4): a compressed cache holds up to assoc * tagFactor lines per
  // set, as long as their sizes, in segments of segmentBytes, fit in assoc whole lines
  // (cache_tags.h).
  uint32_t tagFactor = 1;
  uint32_t segmentBytes = 8;

  uint32_t sets() const {
    return sizeBytes == 0 ? 0 : static_cast<uint32_t>(sizeBytes / (uint64_t{assoc} * lineBytes));
  }
  uint32_t sectorsPerLine() const { return lineBytes / sectorBytes; }
};

struct L1Params {
  CacheGeometry cache;
  uint32_t mshrs = 32;
  uint32_t mshrMerge = 8;          // requests one MSHR entry holds (the first included)
  uint32_t hitLatency = 20;        // core cycles from the L1 port to data ready
  uint32_t accessCycles = 1;       // core cycles one L1 or constant access holds the port
  uint32_t queueInstructions = 4;  // warp instructions waiting for the port (canAccept)
  WritePolicy globalWrite = WritePolicy::WriteThroughNoAllocate;
  WritePolicy localWrite = WritePolicy::WriteBackAllocate;
  bool cacheGlobalLoads = true;  // false: global loads bypass L1 (Kepler's default)
  bool fillLines = false;        // a miss fetches every sector of the line not yet valid
  bool resizeWays = false;       // a per-kernel capacity keeps the sets and changes the ways
  bool keepFillForm = false;     // fills in a form stay in it (cache compression at the L1)
  bool countFootprint = false;   // count the distinct lines each SM touches (line_footprint.h)
  std::string policy = "lru-allocate";
  std::string localPath = "none";
  LocalLayout localLayout = LocalLayout::WarpMajor;  // which private words share a line
};

struct SharedParams {
  uint32_t banks = 32;
  uint32_t bankBytes = 4;
  uint32_t gather = 1;      // banks behind each of `banks` ports (shared_banks.h)
  uint32_t latency = 20;    // core cycles from the first pass to data ready
  uint32_t passCycles = 1;  // core cycles per conflict-free pass over the banks
};

struct ConstParams {
  CacheGeometry cache{8 * 1024, 2, 64, 32, Replacement::Lru, 1};
  uint32_t mshrs = 8;
  uint32_t mshrMerge = 8;
  uint32_t hitLatency = 8;
  // The SM's second constant level (the L1.5 of Volta and later; sizeBytes 0: none). Its
  // sectors are constant-cache lines: an L1 miss it holds is filled from it.
  CacheGeometry l15{0, 8, 256, 64, Replacement::Lru, 1};
  uint32_t l15Latency = 0;  // core cycles from an L1 miss to the line's fill from the L1.5
};

struct IcntParams {
  uint32_t latency = 8;  // icnt cycles from grant to arrival of a one-flit packet
  uint32_t flitBytes = 32;
  uint32_t flitsPerCycle = 1;  // per port
  uint32_t inputQueue = 8;     // packets waiting at each input port
  uint32_t ejectionQueue = 8;  // packets at each output port (arrived or on their way)
  uint32_t headerBytes = 8;    // address and command of every packet
  // Packets at the front of each input queue an output may take (1: the head only, a FIFO
  // with head-of-line blocking); at most inputQueue (crossbar.h).
  uint32_t lookahead = 1;
};

struct L2Params {
  CacheGeometry cache{768 * 1024, 16, 128, 32, Replacement::Lru, 1};  // size: all slices
  bool fillLines = false;  // a miss fetches every sector of the line not yet valid
  uint32_t slicesPerChannel = 1;
  // The L2 in partitions (A100/H100: two), each with channels / partitions memory channels and
  // their slices and serving SMs numSms / partitions: a request or reply between an SM and a
  // slice of another partition takes farLatency more interconnect cycles each way (crossbar.h).
  uint32_t partitions = 1;
  uint32_t farLatency = 0;
  uint32_t mshrs = 32;  // per slice
  uint32_t mshrMerge = 8;
  uint32_t hitLatency = 100;    // L2 cycles from arrival to the tag lookup/reply
  uint32_t atomicLatency = 20;  // L2 cycles of the atomic unit
  std::string policy = "lru-allocate";
  std::string compression = "none";
};

enum class DramScheduler : uint8_t { FrFcfs, Fcfs };
// All-bank refresh: the whole channel stops for tRFC every tREFI. Per-bank refresh (HBM's REFSB,
// LPDDR's REFpb): one bank at a time, round robin, every tREFI / banks; that bank is busy for
// tRFCpb while the others keep serving (dram_channel.h).
enum class DramRefresh : uint8_t { AllBank, PerBank };

struct DramParams {
  uint32_t channels = 6;
  uint32_t banks = 16;
  uint32_t rowBytes = 2048;
  uint32_t queueDepth = 32;  // requests waiting per channel
  uint32_t tRCD = 12, tRP = 12, tRAS = 28, tCL = 12, tWL = 4, tWR = 12, tRRD = 6, tRC = 40;
  // 0 = not modelled (dram_channel.h): write-to-read and read-to-write turnaround, the
  // four-activate window, and all-bank refresh (interval tREFI, duration tRFC).
  uint32_t tWTR = 0, tRTW = 0, tFAW = 0, tREFI = 0, tRFC = 0;
  DramRefresh refresh = DramRefresh::AllBank;
  uint32_t tRFCpb = 0;  // per-bank refresh: REFpb to the next ACT of that bank
  uint32_t burstCycles = 1;      // data-bus cycles per 32-byte burst
  uint32_t returnLatency = 100;  // DRAM cycles from the last burst to the data at the L2
                                 // (memory controller, PHY and return path)
  DramScheduler scheduler = DramScheduler::FrFcfs;
  uint32_t interleaveBytes = 256;  // the address mapping's granule
  std::string mapping = "hash";
  bool idealRowBuffer = false;     // every access a row hit: no ACT or PRE (dram_channel.h)
};

// The links between the modules of a multi-module GPU (module_links.h).
struct ModuleLinkParams {
  double gbps = 192;     // per module and direction (digest s2.5: 192 GB/s inter-GPM)
  uint32_t latency = 32;  // icnt cycles from the last byte sent to arrival
  uint32_t queue = 64;    // packets per module and network at the receiving end (it must
                          // cover the link's latency, or credits limit its bandwidth)
};

// Where addresses live on a multi-module GPU (i_zone_placement.h, zone_placements.h).
struct ZoneParams {
  std::string placement = "xor";  // extension point zone_placement
  uint32_t xorBit = 8;            // "xor": the zone field's lowest bit
  uint32_t pageBytes = 65536;     // "first-touch": page size
};

// Which frame each page of device memory lives in (i_page_placement.h, page_placements.h).
struct PagePlacementParams {
  std::string impl = "identity";  // extension point page_placement
  uint32_t pageBytes = 4096;
  uint64_t seed = 1;              // "random": the stream's seed
};

struct ClockParams {
  double coreMhz = 1400;
  double icntMhz = 1400;
  double l2Mhz = 700;
  double dramMhz = 924;
};

struct MemoryParams {
  uint32_t numSms = 15;
  // Device memory in bytes (gpu.memory_bytes' default): the address mapping's rows per bank.
  // The memory system takes the DeviceMemory's capacity instead when it has one.
  uint64_t memoryBytes = uint64_t{1536} << 20;
  uint32_t warpSlotsPerSm = 48;  // sm.max_warps (the word-major local layout's rows)
  // gpu.modules: NUMA zones, each with numSms / modules SMs and dram.channels / modules
  // channels (their L2 slices and DRAM); 1: one chip, no links, no zone placement.
  uint32_t modules = 1;
  ModuleLinkParams link;
  ZoneParams zones;
  PagePlacementParams pages;
  ClockParams clocks;
  L1Params l1;
  SharedParams shared;
  ConstParams constant;
  IcntParams icnt;
  L2Params l2;
  DramParams dram;
};

// Checks the relations between parameters that single-key ranges cannot express (powers of
// two, line >= sector, L1 line <= L2 line, ...). Throws config::Error with one line.
void validate(const MemoryParams& params);

}  // namespace warpsim::timing::mem
