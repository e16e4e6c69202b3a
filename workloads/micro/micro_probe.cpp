// Prints the calibration measurements of micro.h on one configuration, for the "Measured"
// table of README.md and for comparison with hardware microbenchmarks:
//   micro_probe <config> [--only <measurement>] [--stream-bytes N] [--l2-ctas-per-sm N] [key=value ...]
// <measurement>: shared-chase, const-chase, dependent, l1, shared-bandwidth, l2, stride; the
// key=value pairs are configuration overrides, as warpsim's --set.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "micro/micro.h"

using namespace warpsim;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: micro_probe <config> [--only <measurement>] [--stream-bytes N] [--l2-ctas-per-sm N] "
                 "[key=value ...]\n");
    return 2;
  }
  runtime::DeviceOptions o;
  o.mode = "timing";
  o.config = argv[1];
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  std::string only;
  uint64_t streamBytes = 8u << 20;
  uint32_t l2CtasPerSm = 4;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (a == "--l2-ctas-per-sm" && i + 1 < argc) {
      l2CtasPerSm = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (a == "--stream-bytes" && i + 1 < argc) {
      streamBytes = std::strtoull(argv[++i], nullptr, 0);
    } else {
      o.sets.push_back(a);
    }
  }
  auto want = [&](const char* name) { return only.empty() || only == name; };
  try {
    runtime::Device gpu(o);
    runtime::Module m = micro::loadMicro(gpu);
    const uint32_t sms = gpu.properties().numSms;
    fmt::print("config {} ({} SMs)\n", o.config, sms);
    if (want("shared-chase")) {
      fmt::print("shared chase                {:8.2f} cycles/hop\n", micro::sharedChaseCyclesPerHop(gpu, m, 512));
    }
    if (want("const-chase")) {
      fmt::print("const chase 1 KB            {:8.2f} cycles/hop\n",
                 micro::constChaseCyclesPerHop(gpu, m, 1024, 64, 64, 512));
      fmt::print("const chase 32 KB           {:8.2f} cycles/hop\n",
                 micro::constChaseCyclesPerHop(gpu, m, 32768, 64, 512, 512));
    }
    if (want("dependent")) {
      for (auto [op, name] : {std::pair{micro::DependentOp::Ffma, "ffma"}, std::pair{micro::DependentOp::Dfma, "dfma"},
                              std::pair{micro::DependentOp::Dadd, "dadd"}}) {
        fmt::print("dependent {:<17} {:8.2f} cycles/op\n", name, micro::dependentCyclesPerOp(gpu, m, op, 64));
      }
    }
    if (want("l1")) {
      for (auto [p, name] : {std::pair{micro::L1Pattern::Coalesced, "coalesced"},
                             std::pair{micro::L1Pattern::Broadcast, "broadcast"}}) {
        const micro::LoadBandwidth b = micro::l1BandwidthPerSm(gpu, m, p, 32, 32);
        fmt::print("L1 {:<24} {:8.3f} warp loads/cycle, {:6.1f} B/cycle per SM\n", name, b.warpLoadsPerCycle,
                   b.bytesPerCycle);
      }
    }
    if (want("shared-bandwidth")) {
      fmt::print("shared bandwidth            {:8.1f} B/cycle per SM\n", micro::sharedBandwidthPerSm(gpu, m, 32, 32));
    }
    if (want("l2")) {
      // 2 MB (half the L2 where it is smaller than 4 MB): beyond every L1, inside the L2.
      const uint64_t l2 = gpu.properties().l2Bytes;
      const uint64_t set = (l2 >= (4u << 20) ? (2u << 20) : l2 / 2) / 16384 * 16384;
      fmt::print("L2 bandwidth {:5} KB        {:8.1f} B/cycle GPU-wide\n", set >> 10,
                 micro::l2BandwidthBytesPerCycle(gpu, m, set, l2CtasPerSm * sms, 16));
    }
    if (want("stride")) {
      // With wide strides every line costs the simulator host memory for its page (64 KB).
      for (uint32_t stride : {128u, 256u, 512u, 1024u, 2048u, 4096u, 8192u}) {
        fmt::print("stream {:4} KB, stride {:5} {:8.1f} B/cycle\n", streamBytes >> 10, stride,
                   micro::strideBandwidthBytesPerCycle(gpu, m, stride, streamBytes, 4 * sms));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "micro_probe: %s\n", e.what());
    return 1;
  }
  return 0;
}
