// spill: a 32-word per-thread state mixed for several rounds by a kernel limited to 24
// registers (ptxas spills; see spill.cu).
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace spill {

constexpr int kWords = 32, kRounds = 16;

Outcome run(WorkloadContext& ctx) {
  const int threads = static_cast<int>(ctx.size);
  const size_t words = static_cast<size_t>(threads) * kWords;
  InputGenerator gen(ctx.seed);
  std::vector<unsigned> seeds(words);
  for (unsigned& s : seeds) s = static_cast<unsigned>(gen.next());
  // Verification is exact: 32-bit unsigned arithmetic, wrapping the same way on both sides.
  std::vector<unsigned> expect(words);
  unsigned state[kWords];
  for (int t = 0; t < threads; ++t) {
    for (int w = 0; w < kWords; ++w) state[w] = seeds[static_cast<size_t>(w) * threads + t];
    for (int r = 0; r < kRounds; ++r) {
      for (int w = 0; w < kWords; ++w) {
        unsigned mixed =
            state[w] * 0x9E3779B1u + (state[(w + 1) % kWords] ^ (state[(w + 7) % kWords] >> 3));
        state[w] = mixed + static_cast<unsigned>(r);
      }
    }
    for (int w = 0; w < kWords; ++w) expect[static_cast<size_t>(w) * threads + t] = state[w];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("spill"), "spill.ptx");
  uint64_t dSeeds = gpu.upload(seeds), dOut = gpu.malloc(words * sizeof(unsigned));
  launch(ctx, mod.kernel("spill_mix"), {ceilDiv(threads, 128)}, {128}, 0, dSeeds, dOut, threads,
         kRounds);

  std::string bad = exactMismatch("state", gpu.download<unsigned>(dOut, words), expect);
  if (!bad.empty()) return fail(bad);
  const runtime::ResourceUsage& r = ctx.reports.back().resources;
  return {true, fmt::format("{} threads x {} words, {} rounds, exact; {} registers, {} B local "
                            "per thread ({})",
                            threads, kWords, kRounds, r.registers, r.localBytes,
                            r.note.empty() ? runtime::sourceName(r.source) : r.note)};
}

}  // namespace spill

Workload spillWorkload() {
  return {"spill",
          "private",
          "32-word per-thread state under a 24-register limit (.maxnreg): ptxas spills",
          "threads",
          1u << 11,
          1u << 15,
          1u << 17,
          1u << 22,
          spill::run};
}

}  // namespace warpsim::workloads
