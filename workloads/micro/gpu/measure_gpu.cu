// measure_gpu: the calibration microbenchmarks of `warpsim calibrate` (workloads/calibration/
// measurements.cpp, kernels in workloads/micro/micro.ptx) as one CUDA program. Run on a GPU, it
// measures that card and writes a calibration targets file (workloads/calibration/targets.h) for
// `warpsim calibrate CONFIG --targets FILE [--fit]`; run under `warpsim run -- ./measure_gpu`,
// it measures the simulated machine the same way (the test run_under_warpsim.sh compares the
// two). scripts/measure-gpu.sh compiles and runs it in one command.
//
// Every latency is in SM cycles as clock64() counts them (nothing is converted): one thread
// times a chain of dependent operations, and the median over repetitions is reported.
//
//   measure_gpu [--gpu NAME] [--out FILE] [--only A,B,...] [--quick] [--list] [--help]
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char* file, int line, const char* call, cudaError_t e) {
  std::fprintf(stderr, "measure_gpu: %s:%d: %s failed: %s (%s)\n", file, line, call,
               cudaGetErrorString(e), cudaGetErrorName(e));
  std::exit(1);
}
#define CHECK(call)                                              \
  do {                                                           \
    cudaError_t check_e = (call);                                \
    if (check_e != cudaSuccess) fail(__FILE__, __LINE__, #call, check_e); \
  } while (0)
// After a launch: the launch error, then what the kernel ran into.
#define CHECK_LAUNCH()                 \
  do {                                 \
    CHECK(cudaGetLastError());         \
    CHECK(cudaDeviceSynchronize());    \
  } while (0)

[[noreturn]] void usageError(const std::string& what) {
  std::fprintf(stderr, "measure_gpu: error: %s (try --help)\n", what.c_str());
  std::exit(2);
}

// ---- kernels. The timed instructions are inline PTX (volatile: the compiler keeps their number
// and order, cannot hoist a load out of the loop, merge loads or vectorise them); the clock is
// read with mov %clock64 in the same way, so it stays where the source puts it.

__device__ __forceinline__ long long readClock() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// Stores `v` to *p with a volatile asm: it needs v, so the clock read after it waits for the
// last timed operation's result.
__device__ __forceinline__ void storeU64(unsigned long long* p, unsigned long long v) {
  asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// Pointer chase: node i of the ring holds the address of node i + 1 (micro.ptx `chase`).
// `warm` untimed hops, then `hops` timed ones (a multiple of 8), loaded through the L1
// (ld.global.ca). out[0] = cycles of the timed hops, out[1] = the final address.
__global__ void chaseKernel(unsigned long long start, unsigned warm, unsigned hops,
                            unsigned long long* out) {
  unsigned long long p = start;
  for (unsigned i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
  const long long t0 = readClock();
  for (unsigned i = 0; i < hops; i += 8) {
    asm volatile(
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];\n\t"
        "ld.global.ca.u64 %0, [%0];"
        : "+l"(p)::"memory");
  }
  storeU64(out + 1, p);
  const long long t1 = readClock();
  out[0] = static_cast<unsigned long long>(t1 - t0);
}

// Shared-memory chase: one thread writes a ring of 256 nodes of 4 bytes (node i holds the shared
// address of node i + 1) and follows it (micro.ptx `shared_chase`). out[0] = cycles, out[1] =
// the final address minus node 0's.
__global__ void sharedChaseKernel(unsigned hops, unsigned long long* out) {
  __shared__ unsigned ring[256];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));
  for (unsigned i = 0; i < 256; ++i) ring[i] = base + 4 * ((i + 1) % 256);
  __syncthreads();
  unsigned a = base;
  for (unsigned i = 0; i < 256; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a)::"memory");
  const long long t0 = readClock();
  for (unsigned i = 0; i < hops; i += 8) {
    asm volatile(
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];\n\t"
        "ld.shared.u32 %0, [%0];"
        : "+r"(a)::"memory");
  }
  storeU64(out + 1, a - base);
  const long long t1 = readClock();
  out[0] = static_cast<unsigned long long>(t1 - t0);
}

// Dependent arithmetic (micro.ptx `dep_ffma`, `dep_dfma`, `dep_dadd`): x = x * 1 + 1 or
// x = x + 1 from x = 0, 16 operations per iteration, each using the previous one's result; the
// constants come from parameters so the compiler cannot fold them. out[0] = cycles, out[1] =
// the result (16 x iters exactly).
// One kernel per operation: `op` 16 times per iteration on x (constraint letter `c`).
#define DEPENDENT_KERNEL(name, T, c, op)                                                  \
  __global__ void name(unsigned iters, T one, unsigned long long* out) {                  \
    T x = one - one;                                                                       \
    const long long t0 = readClock();                                                      \
    for (unsigned i = 0; i < iters; ++i) {                                                 \
      asm volatile(op "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op \
                   "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op "\n\t" op    \
                   "\n\t" op                                                               \
                   : "+" c(x)                                                              \
                   : c(one));                                                              \
    }                                                                                      \
    storeU64(out + 1, static_cast<unsigned long long>(x));                                 \
    const long long t1 = readClock();                                                      \
    out[0] = static_cast<unsigned long long>(t1 - t0);                                     \
  }
DEPENDENT_KERNEL(ffmaKernel, float, "f", "fma.rn.f32 %0, %0, %1, %1;")
DEPENDENT_KERNEL(dfmaKernel, double, "d", "fma.rn.f64 %0, %0, %1, %1;")
DEPENDENT_KERNEL(daddKernel, double, "d", "add.f64 %0, %0, %1;")
#undef DEPENDENT_KERNEL

// Streaming copy, 16 bytes per thread, grid-stride (micro.ptx `stream_copy`).
__global__ void copyKernel(const uint4* src, uint4* dst, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    dst[i] = src[i];
  }
}

// Reads `n` words and writes their sum (so the loads stay): evicts a ring from the L2.
__global__ void flushKernel(const unsigned* buf, size_t n, unsigned* sink) {
  unsigned s = 0;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    s += buf[i];
  }
  if (s == 0x9e3779b9u) *sink = s;
}

// ---- host side

struct Device {
  int id = 0;
  cudaDeviceProp prop{};
  int sms = 0, clockKhz = 0, memClockKhz = 0, busWidthBits = 0, l2Bytes = 0;
};

struct Settings {
  bool quick = false;
  int reps = 7;  // repetitions of each measurement; the median is reported
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

unsigned long long* deviceOut() {
  static unsigned long long* out = nullptr;
  if (out == nullptr) CHECK(cudaMalloc(&out, 2 * sizeof(unsigned long long)));
  return out;
}

void readOut(unsigned long long result[2]) {
  CHECK(cudaMemcpy(result, deviceOut(), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
}

// One-thread chase over a ring of `ringBytes` with a node every `stride` bytes: cycles per hop,
// the median of `reps` launches. warm hops bring the ring into the caches first (every launch);
// with flushBytes > 0, a buffer of that size is read between the warm launch and the timed one,
// so that the timed hops miss the L2 (the TLB stays warm, as in the published figures).
double chase(const Settings& s, uint64_t ringBytes, uint32_t stride, uint32_t warm, uint32_t hops,
             uint64_t flushBytes) {
  const uint64_t nodes = ringBytes / stride;
  char* ring = nullptr;
  CHECK(cudaMalloc(&ring, ringBytes));
  const unsigned long long base = reinterpret_cast<unsigned long long>(ring);
  std::vector<unsigned long long> host(ringBytes / 8, 0);
  for (uint64_t i = 0; i < nodes; ++i) host[i * stride / 8] = base + ((i + 1) % nodes) * stride;
  CHECK(cudaMemcpy(ring, host.data(), ringBytes, cudaMemcpyHostToDevice));
  unsigned* flush = nullptr;
  unsigned* sink = nullptr;
  if (flushBytes > 0) {
    CHECK(cudaMalloc(&flush, flushBytes));
    CHECK(cudaMemset(flush, 1, flushBytes));
    CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  }
  std::vector<double> perHop;
  for (int r = 0; r < s.reps; ++r) {
    unsigned long long result[2];
    uint64_t at = base;
    if (flushBytes > 0) {
      // Warm the whole ring (TLB entries), then evict its lines from the L2.
      chaseKernel<<<1, 1>>>(base, 0, static_cast<unsigned>(nodes / 8 * 8), deviceOut());
      CHECK_LAUNCH();
      readOut(result);
      at = result[1];
      flushKernel<<<64, 256>>>(flush, flushBytes / 4, sink);
      CHECK_LAUNCH();
    }
    chaseKernel<<<1, 1>>>(at, warm, hops, deviceOut());
    CHECK_LAUNCH();
    readOut(result);
    const uint64_t startNode = (at - base) / stride;
    const unsigned long long expect = base + ((startNode + warm + hops) % nodes) * stride;
    if (result[1] != expect) {
      std::fprintf(stderr, "measure_gpu: the chase ended at 0x%llx, expected 0x%llx\n", result[1], expect);
      std::exit(1);
    }
    perHop.push_back(static_cast<double>(result[0]) / hops);
  }
  if (flush != nullptr) {
    CHECK(cudaFree(flush));
    CHECK(cudaFree(sink));
  }
  CHECK(cudaFree(ring));
  return median(perHop);
}

double sharedChase(const Settings& s, uint32_t hops) {
  std::vector<double> v;
  // The first launch (untimed) warms the instruction cache, as micro.cpp does.
  for (int r = -1; r < s.reps; ++r) {
    sharedChaseKernel<<<1, 1>>>(hops, deviceOut());
    CHECK_LAUNCH();
    unsigned long long result[2];
    readOut(result);
    if (result[1] != (hops % 256) * 4) {
      std::fprintf(stderr, "measure_gpu: the shared chase ended at node %llu, expected %u\n", result[1] / 4,
                   hops % 256);
      std::exit(1);
    }
    if (r >= 0) v.push_back(static_cast<double>(result[0]) / hops);
  }
  return median(v);
}

enum class Op { Ffma, Dfma, Dadd };

double dependent(const Settings& s, Op op, uint32_t iters) {
  std::vector<double> v;
  for (int r = -1; r < s.reps; ++r) {  // the first launch warms the instruction cache
    switch (op) {
      case Op::Ffma: ffmaKernel<<<1, 1>>>(iters, 1.0f, deviceOut()); break;
      case Op::Dfma: dfmaKernel<<<1, 1>>>(iters, 1.0, deviceOut()); break;
      case Op::Dadd: daddKernel<<<1, 1>>>(iters, 1.0, deviceOut()); break;
    }
    CHECK_LAUNCH();
    unsigned long long result[2];
    readOut(result);
    if (result[1] != 16ull * iters) {
      std::fprintf(stderr, "measure_gpu: the dependent chain computed %llu, expected %llu\n", result[1],
                   16ull * iters);
      std::exit(1);
    }
    if (r >= 0) v.push_back(static_cast<double>(result[0]) / (16.0 * iters));
  }
  return median(v);
}

// Streaming copy of `bytes` by 4 CTAs of 256 threads per SM, timed with events: bytes read and
// written per second over the peak the card reports (2 x memory clock x bus width / 8; the
// memory clock attribute counts the double-data-rate clock once).
double bandwidthFraction(const Settings& s, const Device& d, uint64_t bytes) {
  uint4 *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, bytes));
  CHECK(cudaMalloc(&dst, bytes));
  CHECK(cudaMemset(src, 0x5a, bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const size_t n = bytes / 16;
  const unsigned ctas = 4 * static_cast<unsigned>(d.sms);
  std::vector<double> v;
  // The first launch is untimed (module load, first touch of the pages). It also leaves the L2
  // full of written lines, as every copy does at its end: each timed copy then writes back as
  // many of the previous one's lines as it leaves behind, so the DRAM carries what it counts.
  for (int r = -1; r < s.reps; ++r) {
    CHECK(cudaEventRecord(start));
    copyKernel<<<ctas, 256>>>(src, dst, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0 && ms > 0) v.push_back(2.0 * static_cast<double>(bytes) / (ms * 1e-3));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  if (v.empty()) {
    std::fprintf(stderr, "measure_gpu: the copy took no measurable time\n");
    std::exit(1);
  }
  const double peak = 2.0 * d.memClockKhz * 1e3 * (d.busWidthBits / 8.0);
  return median(v) / peak;
}

struct Measurement {
  const char* name;
  const char* note;
  std::function<double(const Settings&, const Device&)> run;
};

std::vector<Measurement> measurements() {
  std::vector<Measurement> m;
  // Sizes as workloads/calibration/measurements.cpp gives them.
  m.push_back({"l1_hit_cycles", "one-thread chase over an 8 KB ring, a node per 128-byte line, ld.global.ca, warm",
               [](const Settings& s, const Device&) { return chase(s, 8192, 128, 64, 256, 0); }});
  m.push_back({"l2_hit_cycles",
               "the chase over a 2 MB ring (half the L2 where it is smaller than 4 MB: larger than the L1, within the L2), warm",
               [](const Settings& s, const Device& d) {
                 const uint64_t l2 = static_cast<uint64_t>(d.prop.l2CacheSize);
                 const uint64_t ring = l2 >= (4u << 20) ? (2u << 20) : l2 / 2 / 128 * 128;
                 const uint32_t nodes = static_cast<uint32_t>(ring / 128);
                 return chase(s, ring, 128, s.quick ? nodes : 2 * nodes, 512, 0);
               }});
  m.push_back({"dram_cycles",
               "the chase over 64 MB (16 MB with --quick) with a 4224-byte stride, after an L2 flush (TLB warm): every load misses the L2",
               [](const Settings& s, const Device& d) {
                 const uint64_t ring = s.quick ? (16ull << 20) : (64ull << 20);
                 const uint64_t l2 = d.l2Bytes > 0 ? static_cast<uint64_t>(d.l2Bytes) : (6ull << 20);
                 const uint64_t flush = std::max<uint64_t>(2 * l2, 8ull << 20) / 4096 * 4096;
                 return chase(s, ring, 4096 + 128, 0, s.quick ? 512 : 1024, flush);
               }});
  m.push_back({"dram_bandwidth_fraction",
               "a 16-byte-per-thread copy by 4 CTAs of 256 threads per SM, timed with events, over "
               "2 x memory clock x bus width / 8",
               [](const Settings& s, const Device& d) {
                 // Larger than the L2 (twice), 256 MB or more on a GPU.
                 const uint64_t l2 = d.l2Bytes > 0 ? static_cast<uint64_t>(d.l2Bytes) : (6ull << 20);
                 const uint64_t bytes = s.quick ? std::max<uint64_t>(2 * l2, 16ull << 20) / 4096 * 4096
                                                : std::max<uint64_t>(8 * l2, 256ull << 20) / 4096 * 4096;
                 return bandwidthFraction(s, d, bytes);
               }});
  m.push_back({"shared_hit_cycles", "one-thread chase over a ring of 256 4-byte nodes in shared memory",
               [](const Settings& s, const Device&) { return sharedChase(s, 256); }});
  m.push_back({"ffma_dependent_cycles", "a chain of dependent fma.rn.f32, cycles per operation",
               [](const Settings& s, const Device&) { return dependent(s, Op::Ffma, 16); }});
  m.push_back({"dfma_dependent_cycles", "a chain of dependent fma.rn.f64, cycles per operation",
               [](const Settings& s, const Device&) { return dependent(s, Op::Dfma, 16); }});
  m.push_back({"dadd_dependent_cycles", "a chain of dependent add.f64, cycles per operation",
               [](const Settings& s, const Device&) { return dependent(s, Op::Dadd, 16); }});
  return m;
}

void usage() {
  std::printf(
      "Usage: measure_gpu [--gpu NAME] [--out FILE] [--only A,B,...] [--quick] [--list]\n"
      "Measures the calibration microbenchmarks of `warpsim calibrate` on this GPU and writes\n"
      "a calibration targets file (to stdout, or FILE); progress goes to stderr.\n"
      "  --gpu NAME     the configuration the targets are for (default: gpu)\n"
      "  --out FILE     write the targets file here instead of stdout\n"
      "  --only LIST    measure only these (comma-separated names of --list)\n"
      "  --quick        smaller sizes and fewer repetitions (for running under the simulator)\n"
      "  --list         list the measurements and exit\n"
      "Compare: warpsim calibrate CONFIG --targets FILE [--fit]\n");
}

std::string tomlString(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) r += c;
  }
  return r + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  std::string gpu = "gpu", out;
  std::vector<std::string> only;
  Settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (a == "--gpu") {
      gpu = value();
    } else if (a == "--out") {
      out = value();
    } else if (a == "--quick") {
      s.quick = true;
    } else if (a == "--only") {
      const std::string list = value();
      size_t p = 0;
      while (p <= list.size()) {
        const size_t q = std::min(list.find(',', p), list.size());
        if (q > p) only.push_back(list.substr(p, q - p));
        p = q + 1;
      }
    } else if (a == "--list") {
      for (const Measurement& m : measurements()) std::printf("%-26s %s\n", m.name, m.note);
      return 0;
    } else {
      usageError("unknown argument '" + a + "'");
    }
  }
  if (gpu.empty() || gpu.find_first_of("\"\\\n") != std::string::npos) usageError("--gpu: not a plain name");
  std::vector<Measurement> chosen;
  for (const std::string& name : only) {
    bool known = false;
    for (const Measurement& m : measurements()) known = known || name == m.name;
    if (!known) usageError("--only: unknown measurement '" + name + "' (see --list)");
  }
  for (const Measurement& m : measurements()) {
    if (only.empty() || std::find(only.begin(), only.end(), m.name) != only.end()) chosen.push_back(m);
  }
  if (s.quick) s.reps = 1;
  // Opened first: an unwritable FILE stops the program before the measurements.
  FILE* outFile = nullptr;
  if (!out.empty() && (outFile = std::fopen(out.c_str(), "w")) == nullptr) {
    std::fprintf(stderr, "measure_gpu: error: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
    return 1;
  }

  Device d;
  CHECK(cudaGetDevice(&d.id));
  CHECK(cudaGetDeviceProperties(&d.prop, d.id));
  // CUDA 13 dropped clockRate / memoryClockRate from cudaDeviceProp: the attributes give them.
  CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, d.id));
  CHECK(cudaDeviceGetAttribute(&d.clockKhz, cudaDevAttrClockRate, d.id));
  CHECK(cudaDeviceGetAttribute(&d.memClockKhz, cudaDevAttrMemoryClockRate, d.id));
  CHECK(cudaDeviceGetAttribute(&d.busWidthBits, cudaDevAttrGlobalMemoryBusWidth, d.id));
  CHECK(cudaDeviceGetAttribute(&d.l2Bytes, cudaDevAttrL2CacheSize, d.id));
  std::fprintf(stderr,
               "measure_gpu: %s (sm_%d%d), %d SMs, SM clock %d MHz, memory %d MHz x %d bits, L2 %d KB%s\n",
               d.prop.name, d.prop.major, d.prop.minor, d.sms, d.clockKhz / 1000, d.memClockKhz / 1000,
               d.busWidthBits, d.l2Bytes / 1024, s.quick ? " (quick)" : "");

  std::vector<double> values;
  for (const Measurement& m : chosen) {
    std::fprintf(stderr, "measure_gpu: %-26s ", m.name);
    std::fflush(stderr);
    const double v = m.run(s, d);
    std::fprintf(stderr, "%.4g\n", v);
    values.push_back(v);
  }

  char date[32] = "unknown date";
  const std::time_t now = std::time(nullptr);
  if (const std::tm* t = std::gmtime(&now)) std::strftime(date, sizeof date, "%Y-%m-%d", t);
  std::string text;
  char buf[512];
  text += "# Calibration targets measured on a GPU by workloads/micro/gpu/measure_gpu.cu\n";
  text += "# (workloads/calibration/targets.h describes the format). Latencies in SM cycles as\n";
  text += "# clock64() counts them, medians over repetitions.\n";
  std::snprintf(buf, sizeof buf,
                "# The card reported: %d SMs, SM clock %d MHz, memory clock %d MHz, %d-bit bus, L2 %d KB.\n"
                "# Where the configuration's clocks differ from the card's, add e.g.\n"
                "# sets = [\"clocks.core=%d\"] (DRAM latency in SM cycles depends on it).\n",
                d.sms, d.clockKhz / 1000, d.memClockKhz / 1000, d.busWidthBits, d.l2Bytes / 1024,
                d.clockKhz / 1000);
  text += buf;
  text += "gpu = " + tomlString(gpu) + "\n\n[sources]\n";
  text += "measured = " +
          tomlString(std::string("measured on ") + d.prop.name + " by measure_gpu on " + date +
                     (s.quick ? " (--quick)" : "")) +
          "\n";
  for (size_t i = 0; i < chosen.size(); ++i) {
    std::snprintf(buf, sizeof buf, "\n[[target]]\nmeasurement = \"%s\"\nvalue = %.4g\nsource = \"measured\"\n",
                  chosen[i].name, values[i]);
    text += buf;
    text += "note = " + tomlString(chosen[i].note) + "\n";
  }
  if (outFile == nullptr) {
    std::fputs(text.c_str(), stdout);
  } else {
    if (std::fputs(text.c_str(), outFile) < 0 || std::fclose(outFile) != 0) {
      std::fprintf(stderr, "measure_gpu: error: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
      return 1;
    }
    std::fprintf(stderr, "measure_gpu: wrote %s\n", out.c_str());
  }
  return 0;
}
