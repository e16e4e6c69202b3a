#include "timing/sm/value_usage.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

void ValueUsage::resize(uint32_t slots, uint32_t registers) {
  registers_ = registers;
  values_.assign(size_t{slots} * registers, Value{});
  issued_.assign(slots, 0);
  std::fill(std::begin(readsPerValue_), std::end(readsPerValue_), 0);
  std::fill(std::begin(lifetime_), std::end(lifetime_), 0);
}

void ValueUsage::count(const Value& v, uint64_t* reads, uint64_t* lifetime) const {
  if (!v.open) return;
  ++reads[std::min<unsigned>(v.reads, kReadBins - 1)];
  if (v.reads == 1) ++lifetime[std::min<uint32_t>(std::max<uint32_t>(v.lifetime, 1), kLifetimeBins) - 1];
}

void ValueUsage::close(Value& v) {
  count(v, readsPerValue_, lifetime_);
  v = Value{};
}

void ValueUsage::instruction(uint32_t slot, const uint32_t* srcs, unsigned numSrc, const uint32_t* dsts,
                             unsigned numDst) {
  const uint32_t now = ++issued_[slot];
  Value* row = &values_[size_t{slot} * registers_];
  for (unsigned i = 0; i < numSrc; ++i) {
    if (srcs[i] >= registers_) continue;
    Value& v = row[srcs[i]];
    if (!v.open) continue;
    if (v.reads == 0) v.lifetime = now - v.producedAt;
    if (v.reads < UINT16_MAX) ++v.reads;
  }
  for (unsigned j = 0; j < numDst; ++j) {
    if (dsts[j] >= registers_) continue;
    Value& v = row[dsts[j]];
    close(v);
    v.open = true;
    v.producedAt = now;
  }
}

void ValueUsage::endWarp(uint32_t slot) {
  Value* row = &values_[size_t{slot} * registers_];
  for (uint32_t r = 0; r < registers_; ++r) close(row[r]);
}

void ValueUsage::report(nlohmann::json& out) const {
  std::vector<uint64_t> reads(std::begin(readsPerValue_), std::end(readsPerValue_));
  std::vector<uint64_t> lifetime(std::begin(lifetime_), std::end(lifetime_));
  for (const Value& v : values_) count(v, reads.data(), lifetime.data());
  out["reads_per_value"] = reads;
  out["read_once_lifetime"] = lifetime;
}

}  // namespace warpsim::timing
