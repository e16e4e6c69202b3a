#include "micro/micro.h"

#include <fmt/format.h>

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
  if (r.cycles == 0) throw runtime::Error("stream_copy: no cycle count (needs timing mode)");
  return 2.0 * static_cast<double>(bytes) / static_cast<double>(r.cycles);
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

}  // namespace warpsim::micro
