#include "timing/mem/field_order_address_mapping.h"

#include <algorithm>
#include <bit>
#include <string>

#include "config/config.h"

namespace warpsim::timing::mem {

namespace {

[[noreturn]] void reject(std::string_view name, const std::string& what) {
  throw config::Error("config: error: dram.mapping = \"" + std::string(name) + "\": " + what);
}

}  // namespace

FieldOrderAddressMapping::FieldOrderAddressMapping(const Context& c, const Options& o,
                                                   std::string_view name)
    : base_(c.baseAddress),
      granule_(c.interleaveBytes),
      granuleShift_(static_cast<uint32_t>(std::countr_zero(c.interleaveBytes))),
      banks_(std::max<uint32_t>(c.banks, 1)),
      banksPow2_(std::has_single_bit(std::max<uint32_t>(c.banks, 1))),
      bankXorRow_(o.bankXorRow) {
  const uint64_t channels = std::max<uint32_t>(c.channels, 1);
  if (!std::has_single_bit(granule_)) reject(name, "dram.interleave_bytes must be a power of two");
  if (c.rowBytes < granule_ || c.rowBytes % granule_ != 0)
    reject(name, "dram.row_bytes = " + std::to_string(c.rowBytes) +
                     " is not a multiple of the granule dram.interleave_bytes = " +
                     std::to_string(granule_));
  const uint32_t run = std::max(o.runBytes, granule_);
  if (run % granule_ != 0 || c.rowBytes % run != 0)
    reject(name, "the run of " + std::to_string(run) + " bytes must be a multiple of dram.interleave_bytes = " +
                     std::to_string(granule_) + " and divide dram.row_bytes = " +
                     std::to_string(c.rowBytes));
  runBlocks_ = run / granule_;
  const uint64_t rowSpan = uint64_t{banks_} * c.rowBytes;
  rows_ = c.memoryBytes / channels / rowSpan;
  if (rows_ == 0)
    reject(name, "device memory of " + std::to_string(c.memoryBytes) +
                     " bytes holds no row of every bank (channels x banks x row_bytes = " +
                     std::to_string(channels * rowSpan) + ")");
  channelBytes_ = rows_ * rowSpan;
  period_ = channelBytes_ * channels;

  // Digits from the order, least significant first.
  std::array<Kind, kKinds + 1> kinds{};
  std::array<bool, kKinds> seen{};
  uint32_t n = 0;
  bool rank = false;
  std::string_view rest = o.order;
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string_view f = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    Kind k;
    if (f == "chan") k = kChannel;
    else if (f == "bank") k = kBank;
    else if (f == "row") k = kRow;
    else if (f == "col") k = kColumn;
    else if (f == "run") k = kRun;
    else if (f == "rank" && !rank) { rank = true; continue; }  // one rank: width 0
    else reject(name, "bad field '" + std::string(f) + "' in order \"" + std::string(o.order) + "\"");
    if (seen[k]) reject(name, "field '" + std::string(f) + "' twice in order \"" + std::string(o.order) + "\"");
    seen[k] = true;
    kinds[n++] = k;
  }
  if (!seen[kChannel] || !seen[kBank] || !seen[kRow] || !seen[kColumn])
    reject(name, "order \"" + std::string(o.order) + "\" lacks one of chan, bank, row, col");
  if (runBlocks_ > 1 && !seen[kRun]) reject(name, "a run needs a 'run' field in the order");
  const uint64_t radix[kKinds] = {channels, banks_, rows_,
                                  uint64_t{c.rowBytes} / run, runBlocks_};
  uint64_t stride = granule_;
  for (uint32_t i = n; i-- > 0;) {
    const Kind k = kinds[i];
    if (k == kRun && runBlocks_ == 1) continue;
    Digit& d = digits_[count_++];
    d.kind = k;
    d.radix = radix[k];
    d.pow2 = std::has_single_bit(d.radix);
    d.mask = d.radix - 1;
    d.shift = d.pow2 ? static_cast<uint32_t>(std::countr_zero(d.radix)) : 0;
    if (k != kChannel) {
      d.localStride = stride;
      stride *= d.radix;
    }
  }
}

DramAddress FieldOrderAddressMapping::map(uint64_t addr) const {
  uint64_t off = addr - base_;
  uint64_t wraps = 0;
  if (off >= period_) {
    wraps = off / period_;
    off -= wraps * period_;
  }
  const uint64_t byte = off & (granule_ - 1);
  uint64_t v = off >> granuleShift_;
  uint64_t value[kKinds] = {};
  uint64_t local = byte + wraps * channelBytes_;
  for (uint32_t i = 0; i + 1 < count_; ++i) {
    const Digit& d = digits_[i];
    uint64_t x;
    if (d.pow2) {
      x = v & d.mask;
      v >>= d.shift;
    } else {
      x = v % d.radix;
      v /= d.radix;
    }
    value[d.kind] = x;
    local += x * d.localStride;
  }
  const Digit& top = digits_[count_ - 1];  // what is left is below its radix (off < period)
  value[top.kind] = v;
  local += v * top.localStride;

  DramAddress out;
  const uint64_t row = value[kRow] + wraps * rows_;
  out.channel = static_cast<uint32_t>(value[kChannel]);
  out.row = static_cast<uint32_t>(row);
  out.column = static_cast<uint32_t>(((value[kColumn] * runBlocks_ + value[kRun]) << granuleShift_) + byte);
  uint64_t bank = value[kBank];
  if (bankXorRow_) bank = banksPow2_ ? (bank ^ row) & (banks_ - 1) : (bank + row) % banks_;
  out.bank = static_cast<uint32_t>(bank);
  out.local = local;
  return out;
}

}  // namespace warpsim::timing::mem
