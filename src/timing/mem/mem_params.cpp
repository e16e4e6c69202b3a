#include "timing/mem/mem_params.h"

#include <bit>
#include <string>

#include "config/config.h"

namespace warpsim::timing::mem {

namespace {

[[noreturn]] void fail(const std::string& what) { throw config::Error("config: error: " + what); }

void checkPow2(const char* key, uint64_t v) {
  if (!std::has_single_bit(v))
    fail(std::string(key) + " = " + std::to_string(v) + " must be a power of two");
}

void checkCache(const char* level, const CacheGeometry& g, uint32_t parts, bool mayBeEmpty) {
  const std::string l = level;
  checkPow2((l + ".line").c_str(), g.lineBytes);
  checkPow2((l + ".sector").c_str(), g.sectorBytes);
  if (g.sectorBytes > g.lineBytes) fail(l + ".sector must not exceed " + l + ".line");
  if (g.lineBytes / g.sectorBytes > 32) fail(l + ".line must hold at most 32 sectors");
  if (g.sizeBytes == 0) {
    if (!mayBeEmpty) fail(l + ".size must not be 0");
    return;
  }
  const uint64_t unit = uint64_t{parts} * g.assoc * g.lineBytes;
  if (g.sizeBytes % unit != 0) {
    fail(l + ".size = " + std::to_string(g.sizeBytes) + " is not a multiple of " +
         (parts > 1 ? "slices x " : "") + "assoc x line = " + std::to_string(unit));
  }
}

}  // namespace

void validate(const MemoryParams& p) {
  if (p.numSms == 0 || p.numSms > 65535) fail("the number of SMs must be in [1, 65535]");
  checkCache("l1", p.l1.cache, 1, true);
  checkCache("const", p.constant.cache, 1, false);
  if (p.constant.l15.sizeBytes != 0) {
    const CacheGeometry& g = p.constant.l15;
    checkPow2("const.l15_line", g.lineBytes);
    const std::string line = std::to_string(g.lineBytes);
    if (g.lineBytes < g.sectorBytes || g.lineBytes / g.sectorBytes > 32)
      fail("const.l15_line = " + line + " must hold 1 to 32 constant-cache lines (const.line = " +
           std::to_string(g.sectorBytes) + ")");
    const uint64_t unit = uint64_t{g.assoc} * g.lineBytes;
    if (g.sizeBytes % unit != 0)
      fail("const.l15_size = " + std::to_string(g.sizeBytes) +
           " is not a multiple of l15_assoc x l15_line = " + std::to_string(unit));
  }
  const uint32_t slices = p.dram.channels * p.l2.slicesPerChannel;
  if (slices == 0 || slices > 65535)
    fail("dram.channels x l2.slices_per_channel must be in [1, 65535]");
  checkCache("l2", p.l2.cache, slices, false);
  if (p.l1.cache.lineBytes > p.l2.cache.lineBytes) fail("l1.line must not exceed l2.line");
  if (p.constant.cache.lineBytes > p.l2.cache.lineBytes) fail("const.line must not exceed l2.line");
  if (p.l1.cache.sectorBytes != p.l2.cache.sectorBytes ||
      p.constant.cache.sectorBytes != p.l2.cache.sectorBytes) {
    fail("l1.sector, const.sector and l2.sector must be equal");
  }
  checkPow2("dram.interleave_bytes", p.dram.interleaveBytes);
  if (p.dram.interleaveBytes < p.l2.cache.lineBytes)
    fail("dram.interleave_bytes must be at least l2.line");
  if (p.dram.tREFI > 0 && p.dram.refresh == DramRefresh::PerBank &&
      (p.dram.tRFCpb == 0 || p.dram.tREFI / p.dram.banks == 0 ||
       p.dram.tRFCpb >= p.dram.tREFI / p.dram.banks * p.dram.banks))
    fail("dram.t_rfc_pb = " + std::to_string(p.dram.tRFCpb) +
         " must be at least 1 and below the time a bank's refreshes are apart (dram.t_refi / "
         "banks x banks = " + std::to_string(p.dram.tREFI / p.dram.banks * p.dram.banks) +
         ") with per-bank refresh");
  if (p.dram.tREFI > 0 && p.dram.refresh == DramRefresh::AllBank &&
      (p.dram.tRFC == 0 || p.dram.tRFC >= p.dram.tREFI))
    fail("dram.t_rfc = " + std::to_string(p.dram.tRFC) + " must be in [1, dram.t_refi = " +
         std::to_string(p.dram.tREFI) + ") when refresh is modelled");
  if (p.dram.channels % p.l2.partitions != 0)
    fail("dram.channels = " + std::to_string(p.dram.channels) +
         " is not a multiple of l2.partitions = " + std::to_string(p.l2.partitions));
  if (p.l2.partitions > 1 && p.modules > 1)
    fail("l2.partitions = " + std::to_string(p.l2.partitions) +
         " needs a GPU of one module (gpu.modules = " + std::to_string(p.modules) + ")");
  checkPow2("shared.bank_bytes", p.shared.bankBytes);
  if (p.icnt.latency == 0) fail("icnt.latency must be at least 1");
  if (p.icnt.lookahead == 0 || p.icnt.lookahead > p.icnt.inputQueue)
    fail("icnt.lookahead = " + std::to_string(p.icnt.lookahead) +
         " must be in [1, icnt.input_queue = " + std::to_string(p.icnt.inputQueue) + "]");
  if (p.modules == 0 || p.modules > 256) fail("gpu.modules must be in [1, 256]");
  if (p.numSms % p.modules != 0)
    fail("gpu.num_sms = " + std::to_string(p.numSms) + " is not a multiple of gpu.modules = " +
         std::to_string(p.modules));
  if (p.dram.channels % p.modules != 0)
    fail("dram.channels = " + std::to_string(p.dram.channels) +
         " is not a multiple of gpu.modules = " + std::to_string(p.modules));
  checkPow2("page_placement.page_bytes", p.pages.pageBytes);
  if (p.pages.impl != "identity") {
    if (p.modules != 1)
      fail("page_placement.impl = \"" + p.pages.impl + "\" needs a GPU of one module (gpu.modules = " +
           std::to_string(p.modules) + "; zone_placement places pages on several)");
    if (p.pages.pageBytes < p.l2.cache.lineBytes)
      fail("page_placement.page_bytes must be at least l2.line");
  }
}

}  // namespace warpsim::timing::mem
