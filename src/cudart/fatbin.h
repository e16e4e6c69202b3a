// Reading the PTX out of the fat binaries nvcc embeds in host programs.
//
// Layout (little-endian, found by inspecting nvcc 13 output):
//   wrapper (what __cudaRegisterFatBinary receives): u32 magic 0x466243b1, u32 version,
//     u64 address of the first container, u64 unused.
//   container: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 bytes of entries that
//     follow the header. Containers are chained back to back (8-byte aligned); nvcc places an
//     empty one or a SASS-only one before the container holding the PTX.
//   entry: u16 kind (1 PTX, 2 ELF/SASS), u16 version, u32 header size, u64 payload size,
//     u32 compressed length, u32 (unused here), u16 PTX minor, u16 PTX major, u32 arch (sm
//     number, e.g. 80), u32 name offset, u32 name size, u64 flags, u64 (unused), u64
//     uncompressed size. Flag 0x8000: payload compressed with zstd (CUDA 13 default);
//     0x2000: LZ4 (older toolkits; not supported). The payload follows the entry header.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::cudart {

struct FatbinEntry {
  enum class Kind : uint16_t { Ptx = 1, Elf = 2 } kind = Kind::Ptx;
  uint32_t arch = 0;        // sm / compute version, e.g. 80
  bool compressed = false;
  std::string ptx;          // the PTX text (decompressed); empty for ELF entries
};

// All entries of the containers reachable from `wrapper`. The walk follows chained containers
// from the wrapper's first one and stops at the first container that holds PTX, at a missing
// magic, at an address in `stopAt` (the first containers of the other registered wrappers), or
// at `end` (the end of the memory holding them; nothing at or past it is read). Throws
// std::runtime_error with a one-line message on malformed or unsupported data.
std::vector<FatbinEntry> readFatbin(const void* wrapper, const std::vector<const void*>& stopAt,
                                    const void* end);

// The end of the loaded segment (of the program or a shared object) that contains `p`, or
// nullptr when no loaded segment does.
const void* loadedSegmentEnd(const void* p);

// The address of the first container of `wrapper` (nullptr when the wrapper is malformed).
const void* fatbinData(const void* wrapper);

// The PTX entries with arch <= maxArch, highest arch first (the caller takes the first one its
// parser accepts). Throws std::runtime_error explaining how to rebuild when there is none
// (SASS-only binaries).
std::vector<const FatbinEntry*> ptxCandidates(const std::vector<FatbinEntry>& entries,
                                              uint32_t maxArch = 90);

}  // namespace warpsim::cudart
