// Coalescing: the per-lane addresses of one warp memory instruction become requests for
// sectors of lines (Fermi/Volta style: one request per line touched, with the mask of the
// sectors touched). An access that crosses a line boundary is split between the two lines.
// Requests come out in the order of the first lane that touches each line.
//
// Local memory is first linearised (localAddress): each thread's private space is interleaved
// word by word with the other lanes of its warp, so the same 4-byte word of all 32 lanes is one
// 128-byte block; wider accesses are split into 4-byte words (one block each), as a GPU lays
// out local memory.
#pragma once
#include <cstdint>

namespace warpsim::timing::mem {

// Most requests one instruction can produce: 32 lanes x 4 words each (a 16-byte local access
// with scattered offsets), which also bounds the global case (32 lanes x 2 lines).
inline constexpr uint32_t kMaxRequestsPerInstruction = 128;

struct LineRequest {
  uint64_t line = 0;       // line address
  uint32_t sectors = 0;    // sectors touched
  uint32_t lanes = 0;      // lanes touching the line
  uint32_t bytes = 0;      // bytes the lanes access in the line (overlaps counted once per lane)
  uint32_t atomicOps = 1;  // most lanes that access one address in the line (atomic
                           // serialisation; computed only when asked for)
};

// Appends to `out` (room for kMaxRequestsPerInstruction from `count`) the requests for the lanes
// of `mask`, each accessing `bytes` bytes at addr[lane]. Returns the new count. `atomic`: also
// count the lanes that share an address (LineRequest::atomicOps).
uint32_t coalesce(const uint64_t* addr, uint32_t mask, uint32_t bytes, uint32_t lineBytes,
                  uint32_t sectorBytes, LineRequest* out, uint32_t count = 0, bool atomic = false);

// How thread-private words are laid out (l1.local_layout). Both interleave the threads of a warp
// word by word, so the same 4-byte word of all 32 lanes is one 128-byte block; they differ in
// which block follows which:
//   WarpMajor  a warp's private words are consecutive blocks: warp block + (offset / 4) * 128.
//              Warps (CTA-linear order) get disjoint blocks of kLocalBytesPerThread * 32 bytes
//              (offsets beyond wrap; warp ids wrap after kLocalWarpBlocks warps).
//   WordMajor  word k of every warp slot of the GPU is consecutive: row k holds one block per
//              (SM, warp slot), rowBlocks = SMs x warp slots per SM of them (GPGPU-Sim's
//              layout: private memory belongs to a hardware thread context).
enum class LocalLayout : uint8_t { WarpMajor, WordMajor };
// The warp a local access belongs to.
struct LocalWarp {
  uint32_t ctaLinear = 0, warpInCta = 0;  // WarpMajor
  uint32_t slot = 0;       // WordMajor: SM x warp slots per SM + the warp's slot on its SM
  uint32_t rowBlocks = 1;  // WordMajor: warp slots of the GPU
};
inline constexpr uint64_t kLocalRegionBase = uint64_t{1} << 44;
inline constexpr uint64_t kLocalBytesPerThread = uint64_t{1} << 19;
inline constexpr uint64_t kLocalWarpBlocks = uint64_t{1} << 20;
inline constexpr uint64_t kParamRegionBase = uint64_t{3}
                                             << 44;  // kernel parameters (constant bank)
// The device address of byte `offset` of lane `lane`'s local memory: region base + the block of
// the warp's private word offset / 4 + lane * 4 + offset % 4.
uint64_t localAddress(LocalLayout layout, const LocalWarp& warp, uint32_t lane, uint64_t offset);
inline bool isLocalAddress(uint64_t address) {
  return address >= kLocalRegionBase && address < kParamRegionBase;
}

// Linearises and coalesces a local access: lanes of `mask` access `bytes` at local offsets
// offset[lane]; accesses wider than 4 bytes are split into 4-byte words. Appends to `out` like
// coalesce(); `scratch` is room for 32 addresses.
uint32_t coalesceLocal(const uint64_t* offset, uint32_t mask, uint32_t bytes, LocalLayout layout,
                       const LocalWarp& warp, uint32_t lineBytes, uint32_t sectorBytes,
                       LineRequest* out, uint32_t count, uint64_t* scratch);

// The distinct addresses among the lanes of `mask`, in first-lane order (constant-cache
// transactions: one per distinct address, broadcast to the lanes that share it). Returns the
// count written to `out` (room for 32).
uint32_t distinctAddresses(const uint64_t* addr, uint32_t mask, uint64_t* out);

}  // namespace warpsim::timing::mem
