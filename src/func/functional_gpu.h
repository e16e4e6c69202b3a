// Functional execution of a kernel launch: validates the launch, then runs its CTAs one after
// another in linear order (x fastest), each CTA's warps interleaved round-robin and switched at
// barriers and exits. A cooperative launch (LaunchConfig::cooperative) instead keeps every CTA
// resident and interleaves them round by round, so that they can wait for each other
// (grid.sync()). Deterministic: the same program, launch and memory give the same result.
#pragma once
#include <cstdint>
#include <string>

#include "func/device_memory.h"
#include "func/grid_context.h"
#include "func/launch.h"
#include "func/program.h"

namespace warpsim::func {

// Hardware launch limits (CUDA compute capability 7.0 and later).
inline constexpr uint32_t kMaxThreadsPerCta = 1024;
inline constexpr uint32_t kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr uint32_t kMaxGridDim[3] = {0x7FFFFFFFu, 65535, 65535};

// Empty when the launch is valid, else a one-line reason naming the kernel.
std::string validateLaunch(const Program& program, uint32_t function, const LaunchConfig& config,
                           const RunOptions& options);

// The one-line error of a cooperative launch of `ctas` CTAs of which at most `resident` can be
// resident at once on GPU `gpu` (cudaErrorCooperativeLaunchTooLarge).
std::string cooperativeTooLarge(const std::string& kernel, uint64_t ctas, uint64_t resident,
                                const std::string& gpu);

// The launch-wide state CTAs run in (see cta.h for stepping warps individually). The config,
// memory, options and program must outlive it. Call validateLaunch first.
GridContext prepareGrid(const Program& program, uint32_t function, const LaunchConfig& config,
                        DeviceMemory& memory, const RunOptions& options);

// Runs CTAs first, first + 1, ... of `grid` one after another to the end of the grid or to the
// first error, adding to `result` (a normal launch; parallel_ctas.h uses it for the rest of a
// launch whose CTAs depend on each other).
void runCtasInOrder(GridContext& grid, uint64_t first, LaunchResult& result);

// Runs `function` (an .entry of program) to completion or to its first error, on
// RunOptions::threads host threads when it can (func/parallel_ctas.h), with the same result. Device-side
// faults, traps, deadlocks and the instruction limit come back as LaunchResult::ok == false with
// a message; nothing is thrown for them.
LaunchResult runKernel(const Program& program, uint32_t function, const LaunchConfig& config,
                       DeviceMemory& memory, const RunOptions& options = {});

}  // namespace warpsim::func
