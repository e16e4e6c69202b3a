// Validation microbenchmarks of the timing model: small kernels (micro.ptx, written in PTX by
// hand) whose timing is known from the configuration, so that what the simulator measures can
// be compared with what it was configured to do (workloads/micro/README.md, micro_test.cpp).
// They need timing mode: %clock64 reads the core cycle there.
#pragma once
#include <cstdint>
#include <string_view>

#include "runtime/device.h"
#include "runtime/module.h"

namespace warpsim::micro {

// The hand-written PTX of every microbenchmark.
std::string_view microPtx();

// Loads micro.ptx into `device`.
runtime::Module loadMicro(runtime::Device& device);

// Pointer chase by one thread over a ring of `ringBytes` with one node every `strideBytes`:
// `warm` untimed hops, then `hops` timed ones (a multiple of 8); returns core cycles per timed
// hop. Throws runtime::Error when the chase ends at the wrong node.
double chaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint64_t ringBytes,
                         uint32_t strideBytes, uint32_t warm, uint32_t hops);

// Copies `bytes` with `ctas` CTAs of 256 threads (16 bytes per thread per step); returns DRAM
// bytes moved (read + written) per core cycle of the launch.
double streamBytesPerCycle(runtime::Device& device, const runtime::Module& micro, uint64_t bytes,
                           uint32_t ctas);

// One warp loads shared memory at word (lane * stride) mod 1024, `iters` x 64 loads; returns
// core cycles per warp load instruction (of a second launch: the first warms the instruction
// cache).
double sharedCyclesPerLoad(runtime::Device& device, const runtime::Module& micro, uint32_t stride,
                           uint32_t iters);

// One warp runs `iters` x 64 independent fma whose three sources sit in one register bank
// (sameBank) or in three; returns core cycles per fma (of a second launch, as above).
double regBankCyclesPerFma(runtime::Device& device, const runtime::Module& micro, bool sameBank,
                           uint32_t iters);

enum class UnitClass { Alu, Sfu, Fp64 };
// One CTA of `warps` warps on one SM, each thread `iters` x 8 independent operations of the
// class; returns warp-instructions per core cycle that the class's unit executed: for the ALU
// every instruction of the kernel (the loop's own add/setp/bra run there too), for SFU and fp64
// the 8 operations per iteration.
double issueWarpInstructionsPerCycle(runtime::Device& device, const runtime::Module& micro,
                                     UnitClass unit, uint32_t warps, uint32_t iters);

// ---- Calibration measurements (README.md "Calibration measurements"): what published
// microbenchmarks of real GPUs measure (Jia et al. 2018 for V100; Luo et al. 2024/2025 for A100
// and H100), end to end, so that the pipeline around each structure is included as on hardware.

// Shared-memory pointer chase by one thread over a ring of 256 nodes of 4 bytes (32-bit shared
// addresses) that the kernel writes first: `hops` dependent ld.shared (a multiple of 8, 8 per
// loop iteration); returns core cycles per hop (of a second launch: the first warms the
// instruction cache). Throws runtime::Error when the chase ends at the wrong node.
double sharedChaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint32_t hops);

// Constant-memory chase by one thread over a ring of `ringBytes` (at most 64 KB) with one node
// every `strideBytes` (a multiple of 4), held as word indices in the module's 64 KB .const
// array (written through its symbol address): each hop is one mad.wide (index -> address) and
// one ld.const. `warm` untimed hops (to fill the constant cache; the constant cache is emptied
// at each launch, the L2 keeps the ring between the two launches), then `hops` timed ones (a
// multiple of 8); returns core cycles per timed hop of the second launch. A ring within
// const.size hits the constant cache after the warm hops; a larger one with a stride of at
// least const.line misses on every hop and reads the L2.
double constChaseCyclesPerHop(runtime::Device& device, const runtime::Module& micro, uint32_t ringBytes,
                              uint32_t strideBytes, uint32_t warm, uint32_t hops);

enum class DependentOp { Ffma, Dfma, Dadd };
// One thread runs `iters` x 16 dependent operations (fma.rn.f32, fma.rn.f64 or add.f64, each
// using the previous result); returns core cycles per operation (of a second launch). The
// result (16 x iters) is checked; iters is 1 to 2^20, so that it stays exact in fp32.
double dependentCyclesPerOp(runtime::Device& device, const runtime::Module& micro, DependentOp op,
                            uint32_t iters);

enum class L1Pattern { Coalesced, Broadcast };
struct LoadBandwidth {
  double warpLoadsPerCycle = 0.0;  // warp load instructions completed per core cycle
  double bytesPerCycle = 0.0;      // bytes delivered to the threads (128 per warp load)
};
// One CTA of `warps` warps (1 to 32) on one SM, each warp `iters` x 8 independent 4-byte
// ld.global.ca of its own 8 lines of an 8 KB working set that stays in the L1 (loaded once,
// untimed, first): Coalesced: lane i reads word i of the line; Broadcast: every lane reads the
// same word. Both deliver 32 x 4 = 128 bytes per warp load. Measured between two barriers, of a
// second launch.
LoadBandwidth l1BandwidthPerSm(runtime::Device& device, const runtime::Module& micro, L1Pattern pattern,
                               uint32_t warps, uint32_t iters);

// Every SM busy: `ctas` CTAs of 256 threads (e.g. 4 per SM) read a working set of
// `workingSetBytes` (a multiple of 16 KB; it should fit the L2 and exceed an L1) with
// ld.global.cg.v4 (16 bytes per thread, coalesced), 4 independent loads per iteration, `iters`
// iterations per CTA; a first launch reads the whole working set (warming the L2), the second
// is measured. Returns bytes read per core cycle GPU-wide: all the CTAs' bytes over the span
// from the first CTA's start to the last CTA's end (clocks read between barriers).
double l2BandwidthBytesPerCycle(runtime::Device& device, const runtime::Module& micro,
                                uint64_t workingSetBytes, uint32_t ctas, uint32_t iters);

// One CTA of `warps` warps (1 to 32) on one SM, each thread `iters` x 8 independent
// conflict-free 4-byte ld.shared (lane i reads word i + 32 k); returns bytes delivered per core
// cycle (128 per warp load), measured between two barriers, of a second launch.
double sharedBandwidthPerSm(runtime::Device& device, const runtime::Module& micro, uint32_t warps,
                            uint32_t iters);

// A read-only stream of `bytes` (a multiple of 128) in 128-byte lines, line n at byte n x
// `strideBytes` (a multiple of 128) of a fresh buffer: warp w of `ctas` CTAs of 256 threads
// reads lines w, w + W, ... (W warps in the grid, at most bytes / 128) with ld.global.cg,
// coalesced, each line once, 4 loads in flight per warp. Returns DRAM bytes read per core cycle
// of the launch (the lines are not in the L2: throws runtime::Error when the DRAM delivered
// fewer bytes than the stream reads).
double strideBandwidthBytesPerCycle(runtime::Device& device, const runtime::Module& micro,
                                    uint32_t strideBytes, uint64_t bytes, uint32_t ctas);

}  // namespace warpsim::micro
