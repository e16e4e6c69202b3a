// Per-launch statistics gathered from the engine's ExecRecords by KernelStatsObserver: the
// instruction class mix, SIMD efficiency, memory traffic per state space and branch divergence.
#pragma once
#include <array>
#include <cstdint>
#include <memory>

#include "func/exec_record.h"
#include "func/launch.h"
#include "ir/instr.h"
#include "ir/types.h"

namespace warpsim::runtime {

inline constexpr size_t kNumOpClasses = static_cast<size_t>(ir::OpClass::Misc) + 1;
inline constexpr size_t kNumSpaces = static_cast<size_t>(ir::Space::FrameParam) + 1;

struct SpaceTraffic {
  uint64_t instructions = 0;  // warp-level memory instructions touching the space
  uint64_t laneAccesses = 0;  // per-lane accesses (lanes in the execution mask)
  uint64_t bytes = 0;         // laneAccesses x bytes per lane access
};

// Local-memory traffic of the instructions the register allocator inserted (ir::kSpill): spill
// and call-save loads and stores. Warp-level instructions; bytes = executing lanes x bytes.
struct SpillTraffic {
  uint64_t loads = 0, stores = 0;
  uint64_t loadBytes = 0, storeBytes = 0;
};

struct KernelStats {
  uint64_t warpInstructions = 0;   // warp-instructions issued
  uint64_t activeLanes = 0;        // sum of active lanes (SIMT mask) over issued instructions
  uint64_t executedLanes = 0;      // sum of lanes that executed (active and guard true)
  std::array<uint64_t, kNumOpClasses> classMix{};  // warp-instructions per ir::OpClass
  std::array<SpaceTraffic, kNumSpaces> traffic{};  // per ir::Space
  uint64_t loads = 0, stores = 0, atomics = 0;     // warp-level memory instructions
  uint64_t branches = 0;           // conditional or unconditional branches issued
  uint64_t divergentBranches = 0;  // branches that split the warp
  SpillTraffic spill;              // all zero unless the program was register-allocated

  // Active lanes per issued warp-instruction over the warp width (1.0: no lane idle).
  double simdEfficiency() const {
    return warpInstructions == 0 ? 0.0
                                 : static_cast<double>(activeLanes) /
                                       (32.0 * static_cast<double>(warpInstructions));
  }
  const SpaceTraffic& space(ir::Space s) const { return traffic[static_cast<size_t>(s)]; }
  // Adds another launch's (or a part of one launch's) counts.
  void add(const KernelStats& other);
  uint64_t ofClass(ir::OpClass c) const { return classMix[static_cast<size_t>(c)]; }
};

// Counts every executed warp-instruction into a KernelStats. No allocation per record. Generic
// loads, stores and atomics are attributed lane by lane to the space their address falls in.
class KernelStatsObserver final : public func::ExecObserver {
 public:
  void onExec(const func::ExecRecord& r) override;
  // Counts add up: a CTA's part is added to the launch's.
  std::unique_ptr<func::ExecObserver> newPart() const override;
  void addPart(const func::ExecObserver& part) override;
  const KernelStats& stats() const { return stats_; }

 private:
  void countGeneric(const func::ExecRecord& r);
  void countSpill(const func::ExecRecord& r, unsigned executed);
  KernelStats stats_;
};

// Lower-case names used in reports and JSON ("global", "shared", ...; "param" for kernel
// arguments, "frame" for call-frame parameters).
const char* spaceName(ir::Space s);

}  // namespace warpsim::runtime
