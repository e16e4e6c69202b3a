#include "cudart/fatbin.h"

#include <fmt/format.h>
#include <link.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "runtime/device.h"

namespace warpsim::cudart {

namespace {

constexpr uint32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kContainerMagic = 0xBA55ED50;
constexpr uint64_t kFlagZstd = 0x8000;
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr size_t kMaxContainers = 16;

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string decompressZstd(const uint8_t* data, uint64_t size, uint64_t expected, uint32_t arch) {
  std::string out(expected, '\0');
  size_t n = ZSTD_decompress(out.data(), out.size(), data, size);
  if (ZSTD_isError(n)) {
    throw std::runtime_error(fmt::format("fat binary: cannot decompress the PTX for compute_{}: {}",
                                         arch, ZSTD_getErrorName(n)));
  }
  out.resize(n);
  return out;
}

// Parses the entries of one container; returns whether one of them is PTX.
bool readContainer(const uint8_t* base, uint16_t headerSize, uint64_t size,
                   std::vector<FatbinEntry>& out) {
  const uint8_t* p = base + headerSize;
  const uint8_t* end = p + size;
  bool sawPtx = false;
  while (p + 0x40 <= end) {
    auto kind = load<uint16_t>(p);
    auto entryHeader = load<uint32_t>(p + 4);
    auto payloadSize = load<uint64_t>(p + 8);
    auto compressedSize = load<uint32_t>(p + 0x10);
    auto arch = load<uint32_t>(p + 0x1c);
    auto flags = load<uint64_t>(p + 0x28);
    uint64_t uncompressed = entryHeader >= 0x40 ? load<uint64_t>(p + 0x38) : 0;
    if (entryHeader < 0x40 || p + entryHeader + payloadSize > end) {
      throw std::runtime_error("fat binary: malformed entry header (sizes run past the container)");
    }
    const uint8_t* payload = p + entryHeader;
    if (kind == static_cast<uint16_t>(FatbinEntry::Kind::Ptx)) {
      FatbinEntry e;
      e.kind = FatbinEntry::Kind::Ptx;
      e.arch = arch;
      if (flags & kFlagLz4) {
        throw std::runtime_error(fmt::format(
            "fat binary: the PTX for compute_{} is LZ4-compressed, which is not supported; "
            "rebuild with nvcc 13 or with -no-compress", arch));
      }
      if (flags & kFlagZstd) {
        e.compressed = true;
        uint64_t n = compressedSize != 0 ? compressedSize : payloadSize;
        e.ptx = decompressZstd(payload, n, uncompressed, arch);
      } else {
        e.ptx.assign(reinterpret_cast<const char*>(payload), payloadSize);
      }
      // The payload is NUL-padded to 8 bytes.
      e.ptx.resize(std::strlen(e.ptx.c_str()));
      out.push_back(std::move(e));
      sawPtx = true;
    } else {
      FatbinEntry e;
      e.kind = FatbinEntry::Kind::Elf;
      e.arch = arch;
      e.compressed = (flags & (kFlagZstd | kFlagLz4)) != 0;
      out.push_back(std::move(e));
    }
    p += entryHeader + payloadSize;
  }
  if (std::any_of(p, end, [](uint8_t b) { return b != 0; })) {
    throw std::runtime_error("fat binary: malformed container (a truncated entry at its end)");
  }
  return sawPtx;
}

}  // namespace

const void* fatbinData(const void* wrapper) {
  if (wrapper == nullptr) return nullptr;
  const auto* w = static_cast<const uint8_t*>(wrapper);
  if (load<uint32_t>(w) != kWrapperMagic) return nullptr;
  return reinterpret_cast<const void*>(load<uint64_t>(w + 8));
}

namespace {

struct SegmentQuery {
  uintptr_t address;
  uintptr_t end = 0;
};

int findSegment(dl_phdr_info* info, size_t, void* data) {
  auto* q = static_cast<SegmentQuery*>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (q->address >= start && q->address - start < ph.p_memsz) {
      q->end = start + ph.p_memsz;
      return 1;
    }
  }
  return 0;
}

}  // namespace

const void* loadedSegmentEnd(const void* p) {
  SegmentQuery q{reinterpret_cast<uintptr_t>(p)};
  dl_iterate_phdr(findSegment, &q);
  return reinterpret_cast<const void*>(q.end);
}

namespace {

// The entries of the containers chained from `data` (see readFatbin).
std::vector<FatbinEntry> readContainers(const void* data, const std::vector<const void*>& stopAt,
                                        const void* endOfMemory) {
  std::vector<FatbinEntry> entries;
  const auto* p = static_cast<const uint8_t*>(data);
  const auto* limit = static_cast<const uint8_t*>(endOfMemory);
  for (size_t i = 0; i < kMaxContainers; ++i) {
    if (i > 0 && std::find(stopAt.begin(), stopAt.end(), p) != stopAt.end()) break;
    if (limit - p < 16) {
      if (i == 0) throw std::runtime_error("fat binary: no container (truncated)");
      break;
    }
    if (load<uint32_t>(p) != kContainerMagic) {
      if (i == 0) throw std::runtime_error("fat binary: no container (magic is not 0xBA55ED50)");
      break;
    }
    auto headerSize = load<uint16_t>(p + 6);
    auto size = load<uint64_t>(p + 8);
    if (headerSize < 16 || size > static_cast<uint64_t>(limit - p) - headerSize) {
      throw std::runtime_error("fat binary: malformed container header (sizes run past its memory)");
    }
    if (readContainer(p, headerSize, size, entries)) break;
    uint64_t next = (headerSize + size + 7) & ~uint64_t{7};
    p += next;
  }
  return entries;
}

constexpr uint32_t kLinkedVersion = 2;
constexpr size_t kMaxUnits = 1 << 16;

}  // namespace

std::vector<FatbinEntry> readFatbin(const void* wrapper, const std::vector<const void*>& stopAt,
                                    const void* endOfMemory) {
  const void* data = fatbinData(wrapper);
  if (data == nullptr) {
    throw std::runtime_error("fat binary: bad wrapper (magic is not 0x466243b1)");
  }
  return readContainers(data, stopAt, endOfMemory);
}

std::vector<const void*> prelinkedFatbins(const void* wrapper) {
  std::vector<const void*> units;
  if (fatbinData(wrapper) == nullptr) return units;
  const auto* w = static_cast<const uint8_t*>(wrapper);
  if (load<uint32_t>(w + 4) != kLinkedVersion) return units;
  const auto* list = reinterpret_cast<const uint8_t*>(load<uint64_t>(w + 16));
  const auto* end = static_cast<const uint8_t*>(loadedSegmentEnd(list));
  for (const uint8_t* p = list;; p += 8) {
    if (end == nullptr || end - p < 8 || units.size() == kMaxUnits) {
      throw std::runtime_error("fat binary: malformed list of the linked translation units (-rdc=true)");
    }
    const auto* unit = reinterpret_cast<const void*>(load<uint64_t>(p));
    if (unit == nullptr) break;
    units.push_back(unit);
  }
  return units;
}

std::vector<std::vector<FatbinEntry>> readFatbinUnits(const void* wrapper,
                                                      const std::vector<const void*>& stopAt,
                                                      const void* end) {
  const std::vector<const void*> units = prelinkedFatbins(wrapper);
  if (units.empty()) return {readFatbin(wrapper, stopAt, end)};
  std::vector<const void*> stops = stopAt;
  stops.insert(stops.end(), units.begin(), units.end());
  std::vector<std::vector<FatbinEntry>> out;
  for (const void* unit : units) {
    const void* unitEnd = loadedSegmentEnd(unit);
    if (unitEnd == nullptr) {
      throw std::runtime_error("fat binary: a linked translation unit lies outside the loaded program");
    }
    out.push_back(readContainers(unit, stops, unitEnd));
  }
  return out;
}

std::vector<uint32_t> commonPtxArchs(const std::vector<std::vector<FatbinEntry>>& units,
                                     uint32_t maxArch) {
  std::vector<uint32_t> archs;
  for (const FatbinEntry* e : ptxCandidates(units.at(0), maxArch)) archs.push_back(e->arch);
  for (size_t u = 1; u < units.size(); ++u) {
    std::vector<uint32_t> have;
    for (const FatbinEntry* e : ptxCandidates(units[u], maxArch)) have.push_back(e->arch);
    std::erase_if(archs, [&](uint32_t a) { return std::find(have.begin(), have.end(), a) == have.end(); });
  }
  if (archs.empty()) {
    throw std::runtime_error(fmt::format(
        "the {} translation units linked with -rdc=true embed PTX of no common architecture <= "
        "compute_{}; rebuild them all with the same -gencode arch=compute_XX,code=compute_XX",
        units.size(), maxArch));
  }
  archs.erase(std::unique(archs.begin(), archs.end()), archs.end());
  return archs;
}

std::string_view ptxOf(const std::vector<FatbinEntry>& unit, uint32_t arch) {
  for (const FatbinEntry& e : unit)
    if (e.kind == FatbinEntry::Kind::Ptx && e.arch == arch) return e.ptx;
  return {};
}

runtime::Module loadFatbinPtx(runtime::Device& device,
                              const std::vector<std::vector<FatbinEntry>>& units, uint32_t arch) {
  if (units.size() == 1) return device.loadModule(ptxOf(units[0], arch), fmt::format("compute_{}.ptx", arch));
  std::vector<ptx::Unit> texts;
  for (size_t u = 0; u < units.size(); ++u)
    texts.push_back({ptxOf(units[u], arch), fmt::format("compute_{}.unit{}.ptx", arch, u + 1)});
  return device.loadLinkedModule(texts, fmt::format("compute_{}.linked.ptx", arch));
}

std::vector<const FatbinEntry*> ptxCandidates(const std::vector<FatbinEntry>& entries,
                                              uint32_t maxArch) {
  std::vector<const FatbinEntry*> out;
  std::string sass;
  for (const FatbinEntry& e : entries) {
    if (e.kind == FatbinEntry::Kind::Ptx && e.arch <= maxArch) out.push_back(&e);
    if (e.kind == FatbinEntry::Kind::Elf) sass += fmt::format("{}sm_{}", sass.empty() ? "" : ", ", e.arch);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FatbinEntry* a, const FatbinEntry* b) { return a->arch > b->arch; });
  if (out.empty()) {
    throw std::runtime_error(fmt::format(
        "the program embeds no PTX for compute_{} or lower (SASS only: {}); warpsim runs PTX: "
        "rebuild with nvcc -cudart shared -gencode arch=compute_80,code=compute_80",
        maxArch, sass.empty() ? "none" : sass));
  }
  return out;
}

}  // namespace warpsim::cudart
