// Reading the PTX out of the fat binaries nvcc embeds in host programs.
//
// Layout (little-endian, found by inspecting nvcc 13 output):
//   wrapper (what __cudaRegisterFatBinary receives): u32 magic 0x466243b1, u32 version,
//     u64 address of the first container, u64 unused (version 1). Version 2 is what the device
//     link step of nvcc -rdc=true registers: its containers hold the linked SASS only, and its
//     last field is the address of a NULL-terminated array of the translation units' first
//     containers (their fat binaries, with each unit's PTX).
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
#include <string_view>
#include <vector>

namespace warpsim::runtime {
class Device;
class Module;
}

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

// The fat binaries of the translation units of a linked wrapper (version 2, see above): the
// address of each one's first container, in order. Empty for an ordinary wrapper; throws
// std::runtime_error when the list is malformed.
std::vector<const void*> prelinkedFatbins(const void* wrapper);

// The entries of a registered wrapper by translation unit: readFatbin's for an ordinary wrapper
// (one unit), those of every prelinked fat binary for a linked one (each read like readFatbin,
// stopping also at the other units' containers).
std::vector<std::vector<FatbinEntry>> readFatbinUnits(const void* wrapper,
                                                      const std::vector<const void*>& stopAt,
                                                      const void* end);

// The architectures whose PTX every unit has, <= maxArch, highest first: the PTX to try, in
// order. Throws std::runtime_error explaining how to rebuild when there is none (as
// ptxCandidates).
std::vector<uint32_t> commonPtxArchs(const std::vector<std::vector<FatbinEntry>>& units,
                                     uint32_t maxArch = 90);
// The PTX text of `arch` in one unit's entries (empty when it has none).
std::string_view ptxOf(const std::vector<FatbinEntry>& unit, uint32_t arch);

// Loads the PTX of `arch` of every unit: one unit as a module named "compute_<arch>.ptx",
// several linked (Device::loadLinkedModule) into "compute_<arch>.linked.ptx", the units named
// "compute_<arch>.unit<N>.ptx" in registration order. Throws runtime::Error.
runtime::Module loadFatbinPtx(runtime::Device& device,
                              const std::vector<std::vector<FatbinEntry>>& units, uint32_t arch);

// The PTX entries with arch <= maxArch, highest arch first (the caller takes the first one its
// parser accepts). Throws std::runtime_error explaining how to rebuild when there is none
// (SASS-only binaries).
std::vector<const FatbinEntry*> ptxCandidates(const std::vector<FatbinEntry>& entries,
                                              uint32_t maxArch = 90);

}  // namespace warpsim::cudart
