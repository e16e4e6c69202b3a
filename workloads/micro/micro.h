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

}  // namespace warpsim::micro
