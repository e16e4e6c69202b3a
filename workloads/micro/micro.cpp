#include "micro/micro.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "runtime/error.h"

namespace warpsim::micro {

runtime::Module loadMicro(runtime::Device& device) { return device.loadModule(microPtx(), "micro.ptx"); }

double chaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint64_t ringBytes,
                         uint32_t strideBytes, uint32_t warm, uint32_t hops) {
  const uint64_t nodes = ringBytes / strideBytes;
  if (hops == 0 || hops % 8 != 0) throw runtime::Error(fmt::format("chase: {} hops is not a multiple of 8", hops));
  if (nodes < 2 || strideBytes < 8 || strideBytes % 8 != 0) {
    throw runtime::Error(fmt::format("chase: a ring of {} bytes with stride {} has too few nodes", ringBytes,
                                     strideBytes));
  }
  const uint64_t base = device.malloc(ringBytes);
  // Node i points at node i+1 (the last at node 0): a sequential ring, one node per stride.
  std::vector<uint64_t> ring(ringBytes / 8, 0);
  for (uint64_t i = 0; i < nodes; ++i) ring[i * strideBytes / 8] = base + ((i + 1) % nodes) * strideBytes;
  device.memcpyHtoD(base, ring.data(), ringBytes);
  const uint64_t out = device.malloc(16);
  device.launch(micro.kernel("chase"), {1}, {1}, 0, base, warm, hops, out);
  std::vector<uint64_t> result = device.download<uint64_t>(out, 2);
  const uint64_t expectEnd = base + ((uint64_t{warm} + hops) % nodes) * strideBytes;
  if (result[1] != expectEnd) {
    throw runtime::Error(fmt::format("chase: ended at 0x{:x}, expected 0x{:x}", result[1], expectEnd));
  }
  device.free(out);
  device.free(base);
  return static_cast<double>(result[0]) / hops;
}

double streamBytesPerCycle(runtime::Device& device, const runtime::Module& micro, uint64_t bytes,
                           uint32_t ctas) {
  const uint32_t elements = static_cast<uint32_t>(bytes / 16);
  std::vector<uint32_t> src(bytes / 4);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint32_t>(i * 2654435761u);
  const uint64_t dSrc = device.upload(src), dDst = device.malloc(bytes);
  runtime::LaunchReport r = device.launch(micro.kernel("stream_copy"), {ctas}, {256}, 0, dSrc, dDst, elements);
  if (device.download<uint32_t>(dDst, src.size()) != src) throw runtime::Error("stream_copy: wrong copy");
  device.free(dSrc);
  device.free(dDst);
  if (r.cycles == 0 || !r.timing) throw runtime::Error("stream_copy: no cycle count (needs timing mode)");
  // What the DRAM moved, not what was copied: with an L2 of tens of MB (a100, h100) part of the
  // written data is still in the L2 when the launch ends.
  const nlohmann::json& dram = r.timing->at("memory").at("dram");
  const double bursts = dram.at("read_bursts").get<double>() + dram.at("write_bursts").get<double>();
  return 32.0 * bursts / static_cast<double>(r.cycles);
}

double sharedCyclesPerLoad(runtime::Device& device, const runtime::Module& micro, uint32_t stride,
                           uint32_t iters) {
  const uint64_t out = device.malloc(8 + 32 * 4);
  // The first launch warms the instruction cache; the second is measured.
  for (int run = 0; run < 2; ++run) device.launch(micro.kernel("shared_banks"), {1}, {32}, 0, stride, iters, out);
  std::vector<uint32_t> sums(32);
  device.memcpyDtoH(sums.data(), out + 8, 32 * 4);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t word = (lane * stride) % 1024;
    if (sums[lane] != 2 * word) {
      throw runtime::Error(fmt::format("shared_banks: lane {} read {}, expected {}", lane, sums[lane], 2 * word));
    }
  }
  const uint64_t cycles = device.download<uint64_t>(out, 1)[0];
  device.free(out);
  return static_cast<double>(cycles) / (64.0 * iters);
}

double regBankCyclesPerFma(runtime::Device& device, const runtime::Module& micro, bool sameBank,
                           uint32_t iters) {
  const uint64_t out = device.malloc(16);
  // The first launch warms the instruction cache; the second is measured.
  for (int run = 0; run < 2; ++run)
    device.launch(micro.kernel(sameBank ? "reg_banks_same" : "reg_banks_spread"), {1}, {32}, 0, iters, out);
  const uint64_t cycles = device.download<uint64_t>(out, 1)[0];
  const float result = device.download<float>(out + 8, 1)[0];
  device.free(out);
  if (result != 10.0f) throw runtime::Error(fmt::format("reg_banks: result {}, expected 10", result));  // 2*(1*2+3)
  return static_cast<double>(cycles) / (64.0 * iters);
}

double issueWarpInstructionsPerCycle(runtime::Device& device, const runtime::Module& micro, UnitClass unit,
                                     uint32_t warps, uint32_t iters) {
  const char* kernel = unit == UnitClass::Alu ? "issue_alu" : unit == UnitClass::Sfu ? "issue_sfu" : "issue_fp64";
  const uint32_t threads = warps * 32;
  const uint64_t out = device.malloc(uint64_t{threads} * 8);
  runtime::LaunchReport r = device.launch(micro.kernel(kernel), {1}, {threads}, 0, iters, out);
  // Verification: thread t computes (t + 1) twice and adds (sin: 2 sin(t)); check the exact
  // ones and the sign of sums for sin.
  if (unit == UnitClass::Fp64) {
    std::vector<double> v = device.download<double>(out, threads);
    for (uint32_t t = 0; t < threads; ++t)
      if (v[t] != 2.0 * (t + 1)) throw runtime::Error(fmt::format("{}: thread {} wrong", kernel, t));
  } else if (unit == UnitClass::Alu) {
    std::vector<float> v = device.download<float>(out, threads);
    for (uint32_t t = 0; t < threads; ++t)
      if (v[t] != 2.0f * (t + 1)) throw runtime::Error(fmt::format("{}: thread {} wrong", kernel, t));
  }
  device.free(out);
  if (r.cycles == 0) throw runtime::Error(fmt::format("{}: no cycle count (needs timing mode)", kernel));
  // ALU: every instruction of the kernel runs on the ALU pipelines but a few parameter loads
  // and the final store; SFU and fp64: only the 8 operations per iteration use the unit.
  const double ops = unit == UnitClass::Alu ? static_cast<double>(r.warpInstructions())
                                            : static_cast<double>(warps) * 8.0 * iters;
  return ops / static_cast<double>(r.cycles);
}

namespace {

// The cycle count (u64) a kernel wrote at out[0].
uint64_t cyclesAt(runtime::Device& device, uint64_t out) { return device.download<uint64_t>(out, 1)[0]; }

void requireHops(const char* what, uint32_t hops) {
  if (hops == 0 || hops % 8 != 0) throw runtime::Error(fmt::format("{}: {} hops is not a multiple of 8", what, hops));
}

void requireWarps(const char* what, uint32_t warps, uint32_t iters) {
  if (warps == 0 || warps > 32 || iters == 0) {
    throw runtime::Error(fmt::format("{}: needs 1 to 32 warps and at least one iteration ({} warps, {} iterations)",
                                     what, warps, iters));
  }
}

}  // namespace

double sharedChaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint32_t hops) {
  requireHops("shared_chase", hops);
  const uint64_t out = device.malloc(16);
  // The first launch warms the instruction cache; the second is measured.
  for (int run = 0; run < 2; ++run) device.launch(micro.kernel("shared_chase"), {1}, {1}, 0, hops, out);
  const std::vector<uint32_t> words = device.download<uint32_t>(out, 4);
  const uint64_t cycles = cyclesAt(device, out);
  device.free(out);
  // words[2] = the final node's shared address, words[3] = node 0's; 256 nodes of 4 bytes.
  const uint32_t expect = words[3] + 4 * (hops % 256);
  if (words[2] != expect) {
    throw runtime::Error(fmt::format("shared_chase: ended at 0x{:x}, expected 0x{:x}", words[2], expect));
  }
  return static_cast<double>(cycles) / hops;
}

double constChaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint32_t ringBytes,
                              uint32_t strideBytes, uint32_t warm, uint32_t hops) {
  requireHops("const_chase", hops);
  const uint64_t ring = micro.symbolAddress("cc_ring"), size = micro.symbolSize("cc_ring");
  if (strideBytes < 4 || strideBytes % 4 != 0 || ringBytes / strideBytes < 2 || ringBytes > size) {
    throw runtime::Error(fmt::format("const_chase: a ring of {} bytes with stride {} does not fit the {}-byte array "
                                     "with two nodes or more",
                                     ringBytes, strideBytes, size));
  }
  const uint32_t nodes = ringBytes / strideBytes, strideWords = strideBytes / 4;
  // The node at word k x strideWords holds the word index of node k + 1 (the last: node 0).
  std::vector<uint32_t> words(size / 4, 0);
  for (uint32_t k = 0; k < nodes; ++k) words[k * strideWords] = ((k + 1) % nodes) * strideWords;
  device.memcpyHtoD(ring, words.data(), size);
  const uint64_t out = device.malloc(16);
  for (int run = 0; run < 2; ++run) device.launch(micro.kernel("const_chase"), {1}, {1}, 0, warm, hops, out);
  const std::vector<uint64_t> result = device.download<uint64_t>(out, 2);
  device.free(out);
  const uint64_t expectNext = ring + uint64_t{(uint64_t{warm} + hops) % nodes} * strideBytes;
  if (result[1] != expectNext) {
    throw runtime::Error(fmt::format("const_chase: ended at 0x{:x}, expected 0x{:x}", result[1], expectNext));
  }
  return static_cast<double>(result[0]) / hops;
}

double dependentCyclesPerOp(runtime::Device& device, const runtime::Module& micro, DependentOp op, uint32_t iters) {
  const char* kernel = op == DependentOp::Ffma ? "dep_ffma" : op == DependentOp::Dfma ? "dep_dfma" : "dep_dadd";
  if (iters == 0 || iters > (1u << 20)) {
    throw runtime::Error(fmt::format("{}: {} iterations (1 to 2^20: the result must stay exact)", kernel, iters));
  }
  const uint64_t out = device.malloc(16);
  for (int run = 0; run < 2; ++run) device.launch(micro.kernel(kernel), {1}, {1}, 0, iters, out);
  const double result = op == DependentOp::Ffma ? device.download<float>(out + 8, 1)[0]
                                                : device.download<double>(out + 8, 1)[0];
  const uint64_t cycles = cyclesAt(device, out);
  device.free(out);
  if (result != 16.0 * iters) {
    throw runtime::Error(fmt::format("{}: result {}, expected {}", kernel, result, 16 * iters));
  }
  return static_cast<double>(cycles) / (16.0 * iters);
}

LoadBandwidth l1BandwidthPerSm(runtime::Device& device, const runtime::Module& micro, L1Pattern pattern,
                               uint32_t warps, uint32_t iters) {
  requireWarps("l1_bandwidth", warps, iters);
  const uint32_t threads = warps * 32, laneBytes = pattern == L1Pattern::Coalesced ? 4 : 0;
  std::vector<uint32_t> words(8192 / 4);
  for (uint32_t w = 0; w < words.size(); ++w) words[w] = w;
  const uint64_t buf = device.upload(words), out = device.malloc(8 + uint64_t{threads} * 4);
  for (int run = 0; run < 2; ++run)
    device.launch(micro.kernel("l1_bandwidth"), {1}, {threads}, 0, buf, laneBytes, iters, out);
  const std::vector<uint32_t> sums = device.download<uint32_t>(out + 8, threads);
  const uint64_t cycles = cyclesAt(device, out);
  device.free(out);
  device.free(buf);
  for (uint32_t t = 0; t < threads; ++t) {
    // Words base + k x 32 (+ lane when coalesced), k = 0..7; base = (warp x 256) mod 2048.
    const uint32_t base = ((t / 32) * 256) % 2048 + (laneBytes / 4) * (t % 32);
    if (sums[t] != 8 * base + 32 * 28) {
      throw runtime::Error(fmt::format("l1_bandwidth: thread {} summed {}, expected {}", t, sums[t], 8 * base + 896));
    }
  }
  const double loads = 8.0 * warps * iters;
  return {loads / static_cast<double>(cycles), 128.0 * loads / static_cast<double>(cycles)};
}

double sharedBandwidthPerSm(runtime::Device& device, const runtime::Module& micro, uint32_t warps, uint32_t iters) {
  requireWarps("shared_bandwidth", warps, iters);
  const uint32_t threads = warps * 32;
  const uint64_t out = device.malloc(8 + uint64_t{threads} * 4);
  for (int run = 0; run < 2; ++run) device.launch(micro.kernel("shared_bandwidth"), {1}, {threads}, 0, iters, out);
  const std::vector<uint32_t> sums = device.download<uint32_t>(out + 8, threads);
  const uint64_t cycles = cyclesAt(device, out);
  device.free(out);
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t expect = 8 * (t % 32) + 32 * 28;  // words lane + 32 k, k = 0..7
    if (sums[t] != expect) {
      throw runtime::Error(fmt::format("shared_bandwidth: thread {} summed {}, expected {}", t, sums[t], expect));
    }
  }
  return 128.0 * 8.0 * warps * iters / static_cast<double>(cycles);
}

double l2BandwidthBytesPerCycle(runtime::Device& device, const runtime::Module& micro, uint64_t workingSetBytes,
                                uint32_t ctas, uint32_t iters) {
  constexpr uint32_t kThreads = 256, kBlockBytes = kThreads * 16;  // one CTA-wide load: 4 KB
  const uint64_t blocks = workingSetBytes / kBlockBytes;
  if (workingSetBytes % (4 * kBlockBytes) != 0 || blocks == 0 || ctas == 0 || iters == 0 ||
      blocks * ctas >= (uint64_t{1} << 32)) {
    throw runtime::Error(fmt::format("l2_bandwidth: a working set of {} bytes (a multiple of 16 KB) with {} CTAs "
                                     "and {} iterations",
                                     workingSetBytes, ctas, iters));
  }
  std::vector<uint32_t> words(workingSetBytes / 4);
  for (uint32_t w = 0; w < words.size(); ++w) words[w] = w;
  const uint64_t buf = device.upload(words);
  const uint64_t out = device.malloc(16 * uint64_t{ctas} + 4 * uint64_t{ctas} * kThreads);
  const uint32_t blocks32 = static_cast<uint32_t>(blocks);
  // The first launch reads every block (CTA c's first block is within 3 of c x blocks / ctas,
  // and it reads 4 x warmIters from there); the second is measured.
  const uint32_t warmIters = static_cast<uint32_t>((blocks + ctas - 1) / ctas / 4 + 2);
  device.launch(micro.kernel("l2_bandwidth"), {ctas}, {kThreads}, 0, buf, blocks32, warmIters, out);
  device.launch(micro.kernel("l2_bandwidth"), {ctas}, {kThreads}, 0, buf, blocks32, iters, out);
  const std::vector<uint64_t> clocks = device.download<uint64_t>(out, 2 * uint64_t{ctas});
  const std::vector<uint32_t> sums = device.download<uint32_t>(out + 16 * uint64_t{ctas}, uint64_t{ctas} * kThreads);
  device.free(out);
  device.free(buf);
  uint64_t start = UINT64_MAX, end = 0;
  for (uint32_t c = 0; c < ctas; ++c) {
    start = std::min(start, clocks[2 * c]);
    end = std::max(end, clocks[2 * c + 1]);
    const uint32_t first = static_cast<uint32_t>(uint64_t{c} * blocks / ctas) & ~3u;
    for (uint32_t t = 0; t < kThreads; ++t) {
      uint32_t expect = 0;
      for (uint32_t i = 0; i < iters; ++i) {
        const uint32_t b = static_cast<uint32_t>((uint64_t{first} + 4 * uint64_t{i}) % blocks);
        for (uint32_t j = 0; j < 4; ++j) expect += 4 * ((b + j) * (kBlockBytes / 4) + 4 * t) + 6;  // 4 words
      }
      if (sums[c * kThreads + t] != expect) {
        throw runtime::Error(fmt::format("l2_bandwidth: CTA {} thread {} summed {}, expected {}", c, t,
                                         sums[c * kThreads + t], expect));
      }
    }
  }
  const double bytes = static_cast<double>(ctas) * iters * 4.0 * kBlockBytes;
  return bytes / static_cast<double>(end - start);
}

double strideBandwidthBytesPerCycle(runtime::Device& device, const runtime::Module& micro, uint32_t strideBytes,
                                    uint64_t bytes, uint32_t ctas) {
  constexpr uint32_t kThreads = 256;
  const uint64_t lines = bytes / 128, warps = uint64_t{ctas} * kThreads / 32;
  if (bytes % 128 != 0 || strideBytes < 128 || strideBytes % 128 != 0 || ctas == 0 || lines < warps ||
      lines >= (uint64_t{1} << 32)) {
    throw runtime::Error(fmt::format("stride_read: {} bytes in 128-byte lines every {} bytes for {} CTAs (at least "
                                     "one line per warp)",
                                     bytes, strideBytes, ctas));
  }
  // Line n holds the words 32 n .. 32 n + 31; only the lines are written (the rest of the
  // buffer is never touched, so wide strides cost no host memory beyond the lines' pages).
  const uint64_t buf = device.malloc((lines - 1) * strideBytes + 128);
  std::vector<uint32_t> line(32);
  if (strideBytes == 128) {
    std::vector<uint32_t> all(lines * 32);
    for (uint64_t w = 0; w < all.size(); ++w) all[w] = static_cast<uint32_t>(w);
    device.memcpyHtoD(buf, all.data(), bytes);
  } else {
    for (uint64_t n = 0; n < lines; ++n) {
      for (uint32_t j = 0; j < 32; ++j) line[j] = static_cast<uint32_t>(n * 32 + j);
      device.memcpyHtoD(buf + n * strideBytes, line.data(), 128);
    }
  }
  const uint64_t out = device.malloc(uint64_t{ctas} * kThreads * 4);
  runtime::LaunchReport r = device.launch(micro.kernel("stride_read"), {ctas}, {kThreads}, 0, buf, strideBytes,
                                          static_cast<uint32_t>(lines), out);
  const std::vector<uint32_t> sums = device.download<uint32_t>(out, uint64_t{ctas} * kThreads);
  device.free(out);
  device.free(buf);
  for (uint64_t t = 0; t < sums.size(); ++t) {
    uint32_t expect = 0;
    for (uint64_t n = t / 32; n < lines; n += warps) expect += static_cast<uint32_t>(n * 32 + t % 32);
    if (sums[t] != expect) {
      throw runtime::Error(fmt::format("stride_read: thread {} summed {}, expected {}", t, sums[t], expect));
    }
  }
  if (r.cycles == 0) throw runtime::Error("stride_read: no cycle count (needs timing mode)");
  if (r.timing != nullptr) {
    // 32-byte DRAM bursts; the stream's lines must all have come from the DRAM.
    const uint64_t dramBytes = 32 * r.timing->at("memory").at("dram").at("read_bursts").get<uint64_t>();
    if (dramBytes < bytes) {
      throw runtime::Error(
          fmt::format("stride_read: the DRAM delivered {} bytes of the stream's {}", dramBytes, bytes));
    }
  }
  return static_cast<double>(bytes) / static_cast<double>(r.cycles);
}

}  // namespace warpsim::micro
