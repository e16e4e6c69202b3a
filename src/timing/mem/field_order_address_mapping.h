// Address mappings that cut an address into DRAM fields in a fixed order (DRAMSim2's schemes
// and the others of address_mapping_schemes.h), for any number of channels and banks.
//
//   offset = addr - base (mod 2^64; base = Context::baseAddress, the device base address)
//   g = granule = dram.interleave_bytes: the transaction, never split (a line stays in one channel)
//   fields, from most to least significant above the granule, e.g. "chan:rank:row:col:bank":
//     chan  channel        radix C = channels
//     rank  rank           radix 1 (one rank per channel)
//     bank  bank           radix B = banks
//     row   row            radix R = rows per bank = (memory / C) / (B x row_bytes)
//     col   column block   radix K = row_bytes / g (or row_bytes / run with a "run" field)
//     run   low column blocks kept together in one row and channel: radix run / g (optional)
//   period P = C x B x R x row_bytes (the memory, rounded down to whole rows of every bank);
//   lo = offset mod P, wraps = offset / P;
//   lo / g is taken apart as a mixed-radix number (least significant field = lowest digit):
//   div/mod, or mask/shift where the radix is a power of two; the top field is the quotient
//   left, below its radix because lo < P.
//   row    = row digit + wraps x R      (offsets past the memory continue in further rows)
//   column = ((col digit x run/g) + run digit) x g + offset mod g   (byte within the row)
//   bank   = bank digit, or with bankXorRow (bank digit XOR row) mod B for B a power of two,
//            (bank digit + row) mod B otherwise (Zhang et al.'s permutation: rows that would
//            conflict in one bank spread over the banks)
//   local  = the mixed-radix number of every digit but the channel's, x g, + offset mod g,
//            + wraps x (P / C): dense, local < P / C for every offset below P.
// Each step is invertible (the XOR/add by a value known from the row), so both halves of
// i_address_mapping.h's contract hold for any C and B. Offsets past 2^32 rows (addresses
// below the base wrap to the top of the 64-bit space) keep distinct (channel, local) but share
// the row number's low 32 bits.
//
// The base is read once, when the memory system is built: if the drop-in runtime moves the
// address space later (only when the host has the default range mapped), every field is
// shifted by that multiple of 2 MiB, still a bijection.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "timing/mem/i_address_mapping.h"

namespace warpsim::timing::mem {

class FieldOrderAddressMapping final : public IAddressMapping {
 public:
  struct Options {
    std::string_view order;  // fields from most to least significant, ':'-separated
    bool bankXorRow = false;
    uint32_t runBytes = 0;   // with a "run" field: bytes kept together (a multiple of g)
  };
  // `name`: the dram.mapping value, for messages. Throws config::Error (one line) for a bad
  // order, a row or run that is not a whole number of granules, or memory smaller than one
  // row of every bank.
  FieldOrderAddressMapping(const Context& context, const Options& options, std::string_view name);

  DramAddress map(uint64_t addr) const override;
  uint32_t granuleBytes() const override { return granule_; }
  uint64_t rowsPerBank() const { return rows_; }
  uint64_t channelBytes() const { return channelBytes_; }  // P / C

 private:
  enum Kind : uint8_t { kChannel, kBank, kRow, kColumn, kRun, kKinds };
  struct Digit {
    Kind kind = kChannel;
    uint64_t radix = 1;
    uint64_t mask = 0;        // radix - 1 when a power of two
    uint32_t shift = 0;       // log2(radix) when a power of two
    bool pow2 = false;
    uint64_t localStride = 0;  // weight in `local` (0 for the channel)
  };

  uint64_t base_;
  uint32_t granule_, granuleShift_;
  uint32_t banks_;
  bool banksPow2_, bankXorRow_;
  uint64_t rows_, runBlocks_;
  uint64_t period_, channelBytes_;
  std::array<Digit, kKinds> digits_{};  // least significant first
  uint32_t count_ = 0;
};

}  // namespace warpsim::timing::mem
