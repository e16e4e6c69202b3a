// One CTA's view of global memory while it runs ahead of the CTAs before it (parallel
// functional mode, func/parallel_ctas.h). Reads come from device memory as it stood when the
// CTA's batch began; writes go to private copies of 128-byte lines; every byte the CTA read
// (before writing it itself) and every byte it wrote is remembered. Once the CTAs before it have
// been applied, the run is valid when none of them wrote a byte it read, and its writes are then
// applied as running it after them would have left memory.
//
// Contract: access() is called for aligned accesses of at most 16 bytes (they never cross a
// line) in backed device memory; the device memory is not changed while a run reads from it.
// Nothing is allocated per access once the line table has grown to the CTA's footprint (clear()
// keeps the storage for the next CTA).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "func/device_memory.h"

namespace warpsim::func {

// Bytes written, per 128-byte line: what the CTAs applied so far in a batch wrote.
class WrittenLines {
 public:
  void clear();
  bool empty() const { return entries_.empty(); }
  void add(uint64_t line, const std::array<uint64_t, 2>& bytes);
  // Whether any of `bytes` (a mask of line `line`) was written.
  bool overlaps(uint64_t line, const std::array<uint64_t, 2>& bytes) const;

 private:
  struct Entry {
    uint64_t tag = 0;
    std::array<uint64_t, 2> bytes{};
  };
  std::vector<Entry> entries_;
  std::vector<uint32_t> index_;  // open addressing over entries_, power-of-two size
};

class SpeculativeMemory {
 public:
  static constexpr unsigned kLineBits = 7;
  static constexpr uint64_t kLineBytes = uint64_t{1} << kLineBits;
  enum class Access : uint8_t { Read, Write, ReadWrite };

  explicit SpeculativeMemory(const DeviceMemory& base) : base_(&base) {}

  // Forgets every line (keeping the storage).
  void clear();
  // Host pointer for an access of `n` bytes at `addr`: into the CTA's copy of the line once it
  // wrote to it (a write copies the line first), else into device memory (or zeros where no
  // page exists yet). Records the bytes as read and/or written.
  uint8_t* access(uint64_t addr, unsigned n, Access kind);

  // Whether a byte this run read is among `written`.
  bool readAnyOf(const WrittenLines& written) const;
  // Writes the bytes this run wrote into `memory` and adds them to `written`.
  void applyTo(DeviceMemory& memory, WrittenLines& written) const;

  size_t lines() const { return lines_.size(); }

 private:
  struct Line {
    uint64_t tag = 0;                    // address >> kLineBits
    std::array<uint64_t, 2> read{};      // bytes read before this run wrote them
    std::array<uint64_t, 2> written{};   // bytes written
    const uint8_t* source = nullptr;     // the line in device memory (zeros: no page yet)
    bool copied = false;                 // data holds the line (the run wrote to it)
    uint8_t data[kLineBytes];
  };

  Line& lineOf(uint64_t tag);
  void grow();

  const DeviceMemory* base_;
  std::vector<Line> lines_;
  std::vector<uint32_t> index_;  // open addressing over lines_, power-of-two size
  uint32_t last_ = UINT32_MAX;   // the line the previous access used (UINT32_MAX: none)
};

}  // namespace warpsim::func
