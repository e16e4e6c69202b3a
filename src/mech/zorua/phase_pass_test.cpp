// The "zorua-phases" pass on hand-written PTX with exact phase boundaries, register sets, shared
// bytes and barrier marks: straight-line code, a divergent if/else and a data-dependent loop (no
// boundary inside either), the minimum phase length and the two keys, a shared array released
// after its last access, accesses whose variable is unknown, callees with their own phases (and
// one entered from a divergent point, which keeps one phase), 64-bit values as register pairs;
// then invariants on real workloads (dct8x8, mst, sssp) with virtual and allocated registers.
//
// Most kernels name their registers %R<n> as the register allocator does, so the pass reads them
// as physical registers and set s is %R4s .. %R4s+3.
#include "mech/zorua/phase_pass.h"

#include <gtest/gtest.h>

#include <bit>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "compiler/testing/module_runner.h"
#include "mech/zorua/divergent_regions.h"
#include "mech/zorua/register_sets.h"
#include "mech/zorua/shared_accesses.h"
#include "mech/zorua/shared_liveness.h"
#include "timing/plugin_registry.h"
#include "workloads/embedded_ptx.h"

namespace warpsim::mech::zorua {
namespace {

using compiler::RegisterBudget;

// A parsed (optionally allocated) and linked program with the pass's table for one kernel.
struct Phased {
  Phased(const std::string& ptx, const PhaseParams& params, const RegisterBudget& budget, const std::string& kernel)
      : run(std::make_unique<compiler::testing::ModuleRunner>(compiler::testing::kHeader + ptx, budget)),
        table(codeSizes(run->module())) {
    this->kernel = static_cast<uint32_t>(run->module().findFunction(kernel));
    result = computePhases(run->program(), this->kernel, params, table);
  }
  static std::vector<uint32_t> codeSizes(const ir::Module& m) {
    std::vector<uint32_t> s;
    for (const ir::Function& f : m.functions) s.push_back(static_cast<uint32_t>(f.code.size()));
    return s;
  }
  uint32_t function(const std::string& name) const { return static_cast<uint32_t>(run->module().findFunction(name)); }
  const timing::ResourcePhase& at(uint32_t pc) const { return table.at(kernel, pc); }
  // Pcs where a phase starts (specifiers) in function f.
  std::vector<uint32_t> starts(uint32_t f) const {
    std::vector<uint32_t> out;
    for (uint32_t pc = 0; pc < table.size(f); ++pc)
      if (table.at(f, pc).specifier) out.push_back(pc);
    return out;
  }
  std::vector<uint32_t> starts() const { return starts(kernel); }
  std::vector<uint32_t> barriers() const {
    std::vector<uint32_t> out;
    for (uint32_t pc = 0; pc < table.size(kernel); ++pc)
      if (table.at(kernel, pc).barrier) out.push_back(pc);
    return out;
  }

  std::unique_ptr<compiler::testing::ModuleRunner> run;
  timing::AnnotationTable<timing::ResourcePhase> table;
  uint32_t kernel = 0;
  PhaseResult result;
};

Phased phases(const std::string& ptx, const PhaseParams& params = {}, const RegisterBudget& budget = RegisterBudget::off(),
              const std::string& kernel = "k") {
  return Phased(ptx, params, budget, kernel);
}

using Pcs = std::vector<uint32_t>;

// Straight-line code: one register live for ten instructions (a barrier among them), then up to
// five, then one.
const char* kStraight = R"(
.visible .entry k(.param .u32 p)
{
  .reg .b32 %R<12>;
  ld.param.u32 %R0, [p];       // 0   live 1
  add.u32 %R0, %R0, 1;         // 1
  add.u32 %R0, %R0, 2;         // 2
  add.u32 %R0, %R0, 3;         // 3
  bar.sync 0;                  // 4   implicit boundary: no new phase
  add.u32 %R0, %R0, 4;         // 5
  add.u32 %R0, %R0, 5;         // 6
  add.u32 %R0, %R0, 6;         // 7
  add.u32 %R0, %R0, 7;         // 8
  add.u32 %R0, %R0, 8;         // 9   live 1
  mul.lo.u32 %R4, %R0, 3;      // 10  live 2: +100% -> phase 2
  mul.lo.u32 %R5, %R0, 5;      // 11  3
  mul.lo.u32 %R8, %R0, 7;      // 12  4
  mul.lo.u32 %R9, %R0, 9;      // 13  5
  add.u32 %R4, %R4, %R5;       // 14  5
  add.u32 %R8, %R8, %R9;       // 15  4
  add.u32 %R4, %R4, %R8;       // 16  3
  add.u32 %R4, %R4, 1;         // 17  2
  add.u32 %R4, %R4, 2;         // 18  2
  add.u32 %R4, %R4, 3;         // 19  2
  add.u32 %R4, %R4, 4;         // 20  2  (as at the phase's start: no boundary)
  add.u32 %R4, %R4, %R0;       // 21  2
  add.u32 %R4, %R4, 5;         // 22  1: -50% -> phase 3
  add.u32 %R4, %R4, 6;         // 23
  st.global.u32 [%R4], %R4;    // 24
  ret;                         // 25
}
)";

TEST(ZoruaPhases, StraightLineBoundariesSetsAndBarriers) {
  const Phased p = phases(kStraight);
  ASSERT_TRUE(p.result.physicalRegisters);
  EXPECT_EQ(p.starts(), (Pcs{0, 10, 22}));
  EXPECT_EQ(p.barriers(), (Pcs{4}));
  EXPECT_EQ(p.result.implicitBoundaries, 1u);
  EXPECT_EQ(p.result.maxLiveRegisters, 5u);
  ASSERT_EQ(p.result.phases.size(), 3u);
  for (uint32_t pc = 0; pc < 26; ++pc) {
    const uint32_t phase = pc < 10 ? 1 : pc < 22 ? 2 : 3;
    EXPECT_EQ(p.at(pc).phase, phase) << "pc " << pc;
    EXPECT_EQ(p.at(pc).registerSets, phase == 1 ? 0b1u : phase == 2 ? 0b111u : 0b10u) << "pc " << pc;
    EXPECT_EQ(p.at(pc).sharedBytes, 0u);
    EXPECT_FALSE(p.at(pc).sharedDynamic);
  }
  EXPECT_EQ(p.at(14).instructionSets, 0b10u);   // R4, R5
  EXPECT_EQ(p.at(15).instructionSets, 0b100u);  // R8, R9
  EXPECT_EQ(p.at(21).instructionSets, 0b11u);   // R4, R0
  EXPECT_EQ(p.at(4).instructionSets, 0u);       // bar.sync 0: an immediate only
  EXPECT_EQ(p.result.phases[0].peakLiveRegisters, 1u);
  EXPECT_EQ(p.result.phases[1].peakLiveRegisters, 5u);
  EXPECT_EQ(p.result.phases[2].peakLiveRegisters, 1u);
  EXPECT_EQ(p.result.phases[1].firstPc, 10u);
  EXPECT_EQ(p.result.phases[1].instructions, 12u);
}

// Liveness changes inside a divergent if/else and inside a loop with a data-dependent exit: no
// boundary there; boundaries at the reconvergence points.
const char* kDivergent = R"(
.visible .entry k(.param .u32 p)
{
  .reg .pred %p<3>;
  .reg .b32 %R<12>;
  ld.param.u32 %R0, [p];       // 0   live 1
  add.u32 %R0, %R0, 1;         // 1
  add.u32 %R0, %R0, 2;         // 2
  add.u32 %R0, %R0, 3;         // 3
  add.u32 %R0, %R0, 4;         // 4
  add.u32 %R0, %R0, 5;         // 5
  add.u32 %R0, %R0, 6;         // 6
  add.u32 %R0, %R0, 7;         // 7
  add.u32 %R0, %R0, 8;         // 8
  setp.lt.u32 %p1, %R0, 8;     // 9
  @%p1 bra ELSE;               // 10  divergent: 11..20 are its region
  mul.lo.u32 %R8, %R0, 3;      // 11  live 2
  mul.lo.u32 %R9, %R0, 5;      // 12  3
  mul.lo.u32 %R10, %R0, 7;     // 13  4
  mul.lo.u32 %R11, %R0, 9;     // 14  5
  add.u32 %R8, %R8, %R9;       // 15
  add.u32 %R10, %R10, %R11;    // 16
  add.u32 %R8, %R8, %R10;      // 17
  add.u32 %R0, %R0, %R8;       // 18
  bra.uni JOIN;                // 19
ELSE:
  add.u32 %R0, %R0, 9;         // 20
JOIN:
  mov.u32 %R1, 0;              // 21  live 2: phase 2 at the reconvergence point
LOOP:
  mul.lo.u32 %R4, %R1, 3;      // 22  the loop 22..35 is one divergent region
  mul.lo.u32 %R5, %R1, 5;      // 23
  mul.lo.u32 %R6, %R1, 7;      // 24
  mul.lo.u32 %R7, %R1, 9;      // 25  live 6
  add.u32 %R4, %R4, %R5;       // 26
  add.u32 %R6, %R6, %R7;       // 27
  add.u32 %R4, %R4, %R6;       // 28
  add.u32 %R4, %R4, 1;         // 29  live 3
  add.u32 %R4, %R4, 2;         // 30
  add.u32 %R4, %R4, 3;         // 31  10 after 21, +50%: no boundary (divergent)
  add.u32 %R4, %R4, 4;         // 32
  add.u32 %R1, %R1, %R4;       // 33
  setp.lt.u32 %p2, %R1, %R0;   // 34  data-dependent exit
  @%p2 bra LOOP;               // 35
  add.u32 %R1, %R1, 1;         // 36  live 1: phase 3 after the loop
  st.global.u32 [%R1], %R1;    // 37
  ret;                         // 38
}
)";

TEST(ZoruaPhases, NoBoundaryInsideDivergentIfElseOrDataDependentLoop) {
  const Phased p = phases(kDivergent);
  EXPECT_EQ(p.starts(), (Pcs{0, 21, 36}));
  const ir::Function& f = p.run->module().functions[p.kernel];
  const DivergentRegions regions = findDivergentRegions(f);
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const bool divergent = (pc >= 11 && pc <= 20) || (pc >= 22 && pc <= 35);
    EXPECT_EQ(regions.divergentPc[pc] != 0, divergent) << "pc " << pc;
  }
  EXPECT_EQ(p.at(0).registerSets, 0b101u);   // R0, then-side R8..R11
  EXPECT_EQ(p.at(21).registerSets, 0b011u);  // R0, R1, loop R4..R7
  EXPECT_EQ(p.at(36).registerSets, 0b001u);  // R1
  EXPECT_EQ(p.result.phases[0].peakLiveRegisters, 5u);
  EXPECT_EQ(p.result.phases[1].peakLiveRegisters, 6u);

  // With boundaries allowed anywhere in a phase of 4+, the then-side would not stop them: the
  // rule (c) alone keeps them out.
  PhaseParams shortPhases;
  shortPhases.minInstructions = 4;
  const Phased q = phases(kDivergent, shortPhases);
  for (uint32_t pc : q.starts()) EXPECT_EQ(regions.divergentPc[pc], 0) << "boundary at divergent pc " << pc;
  EXPECT_EQ(q.starts(), (Pcs{0, 21, 36}));
}

// The 10-instruction minimum, and both keys.
const char* kMinimum = R"(
.visible .entry k(.param .u32 p)
{
  .reg .b32 %R<4>;
  ld.param.u32 %R0, [p];       // 0   live 1
  add.u32 %R0, %R0, 1;         // 1
  add.u32 %R0, %R0, 2;         // 2
  add.u32 %R0, %R0, 3;         // 3
  add.u32 %R0, %R0, 4;         // 4
  mul.lo.u32 %R1, %R0, 3;      // 5   live 2 (too early for a boundary)
  mul.lo.u32 %R2, %R0, 5;      // 6   3
  add.u32 %R1, %R1, %R2;       // 7   3
  add.u32 %R1, %R1, 1;         // 8   2
  add.u32 %R1, %R1, 2;         // 9   2
  add.u32 %R1, %R1, 3;         // 10  2: the first place allowed
  add.u32 %R1, %R1, 4;         // 11
  add.u32 %R1, %R1, %R0;       // 12
  st.global.u32 [%R1], %R1;    // 13  1
  ret;                         // 14  (a thread's end is never a boundary)
}
)";

TEST(ZoruaPhases, AtLeastMinInstructionsPerPhaseAndTheKeys) {
  EXPECT_EQ(phases(kMinimum).starts(), (Pcs{0, 10}));
  PhaseParams four;
  four.minInstructions = 4;
  EXPECT_EQ(phases(kMinimum, four).starts(), (Pcs{0, 5, 13}));
  PhaseParams large = four;
  large.minChange = 5.0;  // a change of 2 registers is never 500% of 1
  EXPECT_EQ(phases(kMinimum, large).starts(), (Pcs{0}));

  config::Tree tree = config::Tree::fromString("[compiler.zorua-phases]\nmin_change = 0.5\nmin_instructions = 4\n");
  const PhaseParams read = readPhaseParams(&tree);
  EXPECT_DOUBLE_EQ(read.minChange, 0.5);
  EXPECT_EQ(read.minInstructions, 4u);
  EXPECT_NO_THROW(tree.checkAllUsed());
  const PhaseParams defaults = readPhaseParams(nullptr);
  EXPECT_DOUBLE_EQ(defaults.minChange, 0.25);
  EXPECT_EQ(defaults.minInstructions, 10u);
  config::Tree zero = config::Tree::fromString("[compiler.zorua-phases]\nmin_instructions = 0\n");
  EXPECT_THROW(readPhaseParams(&zero), config::Error);
  config::Tree negative = config::Tree::fromString("[compiler.zorua-phases]\nmin_change = -0.1\n");
  EXPECT_THROW(readPhaseParams(&negative), config::Error);
}

// A shared array is allocated from its first access and released after its last: a later phase
// does not hold it. A barrier does not end a span.
const char* kShared = R"(
.shared .align 4 .b8 bufA[1024];
.shared .align 4 .b8 bufB[256];
.visible .entry k(.param .align 8 .b8 p[8])
{
  .reg .b32 %R<4>;
  ld.param.v2.u32 {%R0, %R1}, [p];  // 0   live 2 throughout
  add.u32 %R1, %R1, %R0;        // 1
  add.u32 %R1, %R1, %R0;        // 2
  add.u32 %R1, %R1, %R0;        // 3
  add.u32 %R1, %R1, %R0;        // 4
  add.u32 %R1, %R1, %R0;        // 5
  add.u32 %R1, %R1, %R0;        // 6
  add.u32 %R1, %R1, %R0;        // 7
  add.u32 %R1, %R1, %R0;        // 8
  st.shared.u32 [bufA], %R1;    // 9   bufA from here
  add.u32 %R1, %R1, %R0;        // 10  shared 1024 (0 at the start): phase 2
  bar.sync 0;                   // 11  bufA stays live
  add.u32 %R1, %R1, %R0;        // 12
  add.u32 %R1, %R1, %R0;        // 13
  add.u32 %R1, %R1, %R0;        // 14
  add.u32 %R1, %R1, %R0;        // 15
  add.u32 %R1, %R1, %R0;        // 16
  add.u32 %R1, %R1, %R0;        // 17
  add.u32 %R1, %R1, %R0;        // 18
  ld.shared.u32 %R1, [bufA+4];  // 19  bufA's last access
  st.shared.u32 [bufB], %R1;    // 20  bufB only: 256, phase 3
  add.u32 %R1, %R1, %R0;        // 21
  add.u32 %R1, %R1, %R0;        // 22
  add.u32 %R1, %R1, %R0;        // 23
  add.u32 %R1, %R1, %R0;        // 24
  add.u32 %R1, %R1, %R0;        // 25
  add.u32 %R1, %R1, %R0;        // 26
  add.u32 %R1, %R1, %R0;        // 27
  add.u32 %R1, %R1, %R0;        // 28
  ld.shared.u32 %R1, [bufB+4];  // 29  bufB's last access
  add.u32 %R1, %R1, %R0;        // 30  nothing shared: phase 4
  st.global.u32 [%R0], %R1;     // 31
  ret;                          // 32
}
)";

TEST(ZoruaPhases, SharedArrayIsReleasedAfterItsLastAccess) {
  const Phased p = phases(kShared);
  EXPECT_EQ(p.starts(), (Pcs{0, 10, 20, 30}));
  EXPECT_EQ(p.barriers(), (Pcs{11}));
  const uint32_t bytes[] = {1024, 1024, 256, 0};
  for (uint32_t pc = 0; pc < 33; ++pc) {
    const uint32_t k = pc < 10 ? 0 : pc < 20 ? 1 : pc < 30 ? 2 : 3;
    EXPECT_EQ(p.at(pc).phase, k + 1) << "pc " << pc;
    EXPECT_EQ(p.at(pc).sharedBytes, bytes[k]) << "pc " << pc;
    EXPECT_EQ(p.at(pc).registerSets, 0b1u) << "pc " << pc;
    EXPECT_FALSE(p.at(pc).sharedDynamic);
  }
  EXPECT_EQ(p.result.sharedVariables, 2u);
  EXPECT_EQ(p.result.sharedAccesses, 4u);
  EXPECT_EQ(p.result.unknownSharedAccesses, 0u);
  // The spans themselves: bufA (bit 0) over 9..19, bufB (bit 1) over 20..29.
  const ir::Function& f = p.run->module().functions[p.kernel];
  const SharedVariables vars = kernelSharedVariables(p.run->program(), p.kernel);
  const std::vector<uint64_t> live = sharedSpans(f, findSharedAccesses(f, vars).access);
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const uint64_t want = (pc >= 9 && pc <= 19 ? 0b01u : 0u) | (pc >= 20 && pc <= 29 ? 0b10u : 0u);
    EXPECT_EQ(live[pc], want) << "pc " << pc;
  }
}

// Accesses whose variable cannot be determined count as accesses to every variable (the dynamic
// area included); others are followed back to their symbol.
const char* kUnknown = R"(
.shared .align 4 .b8 bufA[512];
.shared .align 4 .b8 bufB[128];
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u32 p, .param .u64 q)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u32 %r0, [p];            // 0
  ld.shared.u32 %r1, [%r0];         // 1  address from a parameter: every variable
  mov.u32 %r2, bufB;                // 2
  add.u32 %r3, %r2, %r0;            // 3
  ld.shared.u32 %r4, [%r3+8];       // 4  bufB
  mov.u64 %rd1, bufA;               // 5
  cvta.shared.u64 %rd2, %rd1;       // 6
  ld.u32 %r5, [%rd2];               // 7  generic, bufA
  ld.param.u64 %rd3, [q];           // 8
  ld.u32 %r6, [%rd3];               // 9  generic from a parameter: not shared
  st.shared.u32 [dyn+4], %r1;       // 10 the dynamic area
  setp.eq.u32 %p1, %r0, 0;          // 11
  selp.b32 %r7, %r2, %r0, %p1;      // 12 a pointer or plain data
  st.shared.u32 [%r7], %r4;         // 13 every variable
  cvt.u64.u32 %rd4, %r0;            // 14
  cvta.shared.u64 %rd5, %rd4;       // 15 into shared memory, where unknown
  st.u32 [%rd5], %r5;               // 16 every variable
  ld.global.u32 %r8, [%rd3];        // 17 not shared
  add.u32 %r9, %r8, %r6;            // 18
  st.global.u32 [%rd3], %r9;        // 19
  ret;                              // 20
}
)";

TEST(ZoruaPhases, UnknownSharedAddressCountsAsEveryVariable) {
  const Phased p = phases(kUnknown);
  const ir::Function& f = p.run->module().functions[p.kernel];
  const SharedVariables vars = kernelSharedVariables(p.run->program(), p.kernel);
  EXPECT_EQ(vars.variables, 3u);
  const uint64_t a = 1, b = 2, dyn = uint64_t{1} << SharedVariables::kDynamicBit, all = a | b | dyn;
  EXPECT_EQ(vars.all, all);
  const SharedAccesses acc = findSharedAccesses(f, vars);
  std::vector<uint64_t> want(f.code.size(), 0);
  want[1] = all;
  want[4] = b;
  want[7] = a;
  want[10] = dyn;
  want[13] = all;
  want[16] = all;
  EXPECT_EQ(acc.access, want);
  EXPECT_EQ(acc.accesses, 6u);
  EXPECT_EQ(acc.unknown, 3u);
  EXPECT_EQ(p.result.unknownSharedAccesses, 3u);
  // Everything is live from pc 1 to pc 16: 640 static bytes and the dynamic area.
  EXPECT_EQ(p.at(5).sharedBytes, 640u);
  EXPECT_TRUE(p.at(5).sharedDynamic);
  EXPECT_EQ(vars.staticBytes(all), 640u);
}

// A callee is cut into its own phases (ids after the kernel's); a variable its caller uses
// before and after the call stays live in all of it; the register sets its caller keeps across
// the call are in every phase of it.
const char* kCallee = R"(
.shared .align 4 .b8 buf[2048];
.func (.param .b32 r) work(.param .b32 a)
{
  .reg .b32 %R<12>;
  ld.param.b32 %R0, [a];       // 0   live 1
  add.u32 %R0, %R0, 1;         // 1
  add.u32 %R0, %R0, 2;         // 2
  add.u32 %R0, %R0, 3;         // 3
  add.u32 %R0, %R0, 4;         // 4
  add.u32 %R0, %R0, 5;         // 5
  add.u32 %R0, %R0, 6;         // 6
  add.u32 %R0, %R0, 7;         // 7
  add.u32 %R0, %R0, 8;         // 8
  add.u32 %R0, %R0, 9;         // 9
  mul.lo.u32 %R4, %R0, 3;      // 10  live 2: the callee's second phase
  mul.lo.u32 %R5, %R0, 5;      // 11
  add.u32 %R4, %R4, %R5;       // 12
  add.u32 %R0, %R0, %R4;       // 13
  st.param.b32 [r], %R0;       // 14
  ret;                         // 15
}
.visible .entry k(.param .u32 p)
{
  .reg .pred %p<2>;
  .reg .b32 %R<4>;
  ld.param.u32 %R0, [p];       // 0
  st.shared.u32 [buf], %R0;    // 1
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %R0;      // 2
  call.uni (r0), work, (a0);   // 3   R0 is live across the call
  ld.param.b32 %R1, [r0];      // 4
  }
  ld.shared.u32 %R2, [buf];    // 5
  add.u32 %R1, %R1, %R2;       // 6
  st.global.u32 [%R0], %R1;    // 7
  ret;                         // 8
}
.visible .entry k2(.param .u32 p)
{
  .reg .b32 %R<2>;
  ld.param.u32 %R0, [p];
  st.global.u32 [%R0], %R0;
  ret;
}
)";

TEST(ZoruaPhases, CalleeHasItsOwnPhases) {
  const Phased p = phases(kCallee);
  const uint32_t work = p.function("work");
  EXPECT_EQ(p.result.functions, (Pcs{p.kernel, work}));
  EXPECT_EQ(p.starts(), (Pcs{0}));
  EXPECT_EQ(p.starts(work), (Pcs{0, 10}));
  ASSERT_EQ(p.result.phases.size(), 3u);
  EXPECT_EQ(p.at(0).phase, 1u);
  EXPECT_EQ(p.at(0).sharedBytes, 2048u);
  for (uint32_t pc = 0; pc < 16; ++pc) {
    const timing::ResourcePhase& r = p.table.at(work, pc);
    EXPECT_EQ(r.phase, pc < 10 ? 2u : 3u) << "pc " << pc;
    EXPECT_EQ(r.sharedBytes, 2048u) << "pc " << pc;             // the caller's buf, held across the call
    EXPECT_EQ(r.registerSets, pc < 10 ? 0b1u : 0b11u) << "pc " << pc;  // own R0 (and R4, R5), caller's R0
  }
  // Functions the kernel cannot reach keep zero records.
  const Phased alone = phases(kCallee, {}, RegisterBudget::off(), "k2");
  EXPECT_EQ(alone.result.functions, (Pcs{alone.kernel}));
  EXPECT_EQ(alone.starts(), (Pcs{0}));
  for (uint32_t pc = 0; pc < 16; ++pc) EXPECT_EQ(alone.table.at(work, pc).phase, 0u);
  for (uint32_t pc = 0; pc < 9; ++pc) EXPECT_EQ(alone.table.at(p.kernel, pc).phase, 0u);
}

// A call from a divergent point: the callee keeps one phase (its entry's).
const char* kDivergentCall = R"(
.func (.param .b32 r) work(.param .b32 a)
{
  .reg .b32 %R<12>;
  ld.param.b32 %R0, [a];       // 0
  add.u32 %R0, %R0, 1;         // 1
  add.u32 %R0, %R0, 2;         // 2
  add.u32 %R0, %R0, 3;         // 3
  add.u32 %R0, %R0, 4;         // 4
  add.u32 %R0, %R0, 5;         // 5
  add.u32 %R0, %R0, 6;         // 6
  add.u32 %R0, %R0, 7;         // 7
  add.u32 %R0, %R0, 8;         // 8
  add.u32 %R0, %R0, 9;         // 9
  mul.lo.u32 %R4, %R0, 3;      // 10  no boundary: lanes of the caller wait outside
  mul.lo.u32 %R5, %R0, 5;      // 11
  add.u32 %R4, %R4, %R5;       // 12
  add.u32 %R0, %R0, %R4;       // 13
  st.param.b32 [r], %R0;       // 14
  ret;                         // 15
}
.visible .entry k(.param .u32 p)
{
  .reg .pred %p<2>;
  .reg .b32 %R<4>;
  ld.param.u32 %R0, [p];       // 0
  setp.lt.u32 %p1, %R0, 8;     // 1
  @%p1 bra SKIP;               // 2
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %R0;      // 3
  call.uni (r0), work, (a0);   // 4
  ld.param.b32 %R0, [r0];      // 5
  }
SKIP:
  st.global.u32 [%R0], %R0;    // 6
  ret;                         // 7
}
)";

TEST(ZoruaPhases, CalleeEnteredFromADivergentPointKeepsOnePhase) {
  const Phased p = phases(kDivergentCall);
  const uint32_t work = p.function("work");
  EXPECT_EQ(p.starts(work), (Pcs{0}));
  for (uint32_t pc = 0; pc < 16; ++pc) EXPECT_EQ(p.table.at(work, pc).phase, 2u);
  EXPECT_EQ(p.table.at(work, 0).registerSets, 0b11u);  // R0, R4, R5
}

// 64-bit values take a pair of 32-bit registers, with virtual registers and after allocation.
const char* kPairs = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];    // 0  rd1: 2
  mov.u32 %r1, %tid.x;         // 1  3
  cvt.u64.u32 %rd2, %r1;       // 2  5
  shl.b64 %rd2, %rd2, 2;       // 3  4 (r1 still live)... rd1, r1, rd2
  add.s64 %rd1, %rd1, %rd2;    // 4  rd1, rd2, r1: 5
  st.global.u32 [%rd1], %r1;   // 5  rd1, r1: 3
  ret;                         // 6
}
)";

TEST(ZoruaPhases, SixtyFourBitValuesTakeRegisterPairs) {
  const std::vector<uint32_t> live = {2, 3, 5, 5, 5, 3, 0};
  for (const RegisterBudget& budget : {RegisterBudget::off(), RegisterBudget::minimal()}) {
    compiler::testing::ModuleRunner run(compiler::testing::kHeader + std::string(kPairs), budget);
    const ir::Function& f = run.module().functions[0];
    ASSERT_EQ(f.code.size(), live.size());
    const RegisterNeeds needs = analyzeRegisters(f, findDivergentRegions(f));
    EXPECT_EQ(needs.physical, budget.on());
    EXPECT_EQ(needs.liveCount, live) << (budget.on() ? "allocated" : "virtual");
    EXPECT_EQ(needs.maxLive, 5u);
    EXPECT_EQ(needs.registers, budget.on() ? run.stats("k").registers : 6u);
  }
  // Virtual placement, in first-reference order: rd1 in R0:R1, r1 in R2, rd2 (aligned) in R4:R5.
  compiler::testing::ModuleRunner run(compiler::testing::kHeader + std::string(kPairs), RegisterBudget::off());
  const ir::Function& f = run.module().functions[0];
  const RegisterNeeds needs = analyzeRegisters(f, findDivergentRegions(f));
  EXPECT_EQ(needs.instructionSets[0], 0b01u);
  EXPECT_EQ(needs.instructionSets[2], 0b11u);
  EXPECT_EQ(needs.liveSets[2], 0b11u);
  EXPECT_EQ(needs.liveSets[5], 0b01u);
}

// Through the plugin registry, with its keys and statistics.
TEST(ZoruaPhases, RegisteredPassPublishesTheTableAndStatistics) {
  timing::PluginRegistry registry;
  timing::registerZoruaPhasePass(registry);
  config::Tree tree = config::Tree::fromString("[compiler.zorua-phases]\nmin_instructions = 4\n");
  std::unique_ptr<timing::IIrPass> pass = registry.make<timing::IIrPass>(kPhasePassName, {&tree});
  compiler::testing::ModuleRunner run(compiler::testing::kHeader + std::string(kMinimum), RegisterBudget::off());
  timing::InstructionAnnotations annotations;
  annotations.setCodeSizes(Phased::codeSizes(run.module()));
  nlohmann::json stats = nlohmann::json::object();
  pass->run(run.program(), 0, stats, annotations);
  const auto* table = annotations.find<timing::ResourcePhase>(timing::kResourcePhases);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->at(0, 5).specifier);
  EXPECT_EQ(stats["phases"], 3);
  EXPECT_EQ(stats["specifiers"], 3);
  EXPECT_EQ(stats["implicit_boundaries"], 0);
  EXPECT_EQ(stats["max_live_registers"], 3);
  EXPECT_EQ(stats["register_placement"], "physical");
  ASSERT_EQ(stats["kernel_phases"].size(), 3u);
  EXPECT_EQ(stats["kernel_phases"][1]["first_pc"], 5);
  EXPECT_EQ(stats["kernel_phases"][1]["registers"], 4);  // R0..R2: one set
  EXPECT_EQ(stats["kernel_phases"][1]["shared_bytes"], 0);
}

// ---- real workloads -------------------------------------------------------------------------

std::string workloadPtx(std::string_view name) {
  for (const auto& w : workloads::embeddedWorkloadPtx())
    if (w.name == name) return std::string(w.text);
  return "";
}

// Invariants of one kernel's table: every instruction in a phase, phases contiguous runs in pc
// order beginning with a specifier (the first instruction's included), no specifier at a
// divergent point, phase-level needs equal across the phase and covering each instruction's own
// sets, barrier marks exactly on bar.sync/bar.red and fences.
void checkInvariants(const func::Program& program, uint32_t kernel, const timing::AnnotationTable<timing::ResourcePhase>& t,
                     const PhaseResult& r) {
  const ir::Module& m = program.module();
  for (uint32_t fi : r.functions) {
    const ir::Function& f = m.functions[fi];
    const DivergentRegions regions = findDivergentRegions(f);
    ASSERT_GT(t.size(fi), 0u);
    EXPECT_TRUE(t.at(fi, 0).specifier) << f.name;
    for (uint32_t pc = 0; pc < t.size(fi); ++pc) {
      const timing::ResourcePhase& x = t.at(fi, pc);
      ASSERT_NE(x.phase, 0u) << f.name << " pc " << pc;
      EXPECT_EQ(x.instructionSets & ~x.registerSets, 0u) << f.name << " pc " << pc;
      const ir::Instr& in = f.code[pc];
      const bool barrier = (in.op == ir::Op::Bar && static_cast<ir::BarOp>(in.sub) != ir::BarOp::Arrive) ||
                           in.op == ir::Op::Membar || (in.op == ir::Op::Fence && in.numSrc == 0);
      EXPECT_EQ(x.barrier, barrier) << f.name << " pc " << pc;
      if (pc == 0) continue;
      const timing::ResourcePhase& prev = t.at(fi, pc - 1);
      if (x.specifier) {
        EXPECT_EQ(x.phase, prev.phase + 1) << f.name << " pc " << pc;
        EXPECT_EQ(regions.divergentPc[pc], 0) << f.name << ": boundary at divergent pc " << pc;
      } else {
        EXPECT_EQ(x.phase, prev.phase) << f.name << " pc " << pc;
        EXPECT_EQ(x.registerSets, prev.registerSets) << f.name << " pc " << pc;
        EXPECT_EQ(x.sharedBytes, prev.sharedBytes) << f.name << " pc " << pc;
        EXPECT_EQ(x.sharedDynamic, prev.sharedDynamic) << f.name << " pc " << pc;
      }
    }
  }
  EXPECT_EQ(r.functions.front(), kernel);
}

class WorkloadPhases : public ::testing::TestWithParam<const char*> {};

TEST_P(WorkloadPhases, InvariantsHoldForEveryKernel) {
  const std::string ptx = workloadPtx(GetParam());
  ASSERT_FALSE(ptx.empty()) << "no embedded PTX for " << GetParam();
  for (const RegisterBudget& budget : {RegisterBudget::off(), RegisterBudget::minimal()}) {
    compiler::testing::ModuleRunner run(ptx, budget);
    const ir::Module& m = run.module();
    uint32_t kernels = 0;
    for (uint32_t k = 0; k < m.functions.size(); ++k) {
      if (!m.functions[k].isEntry) continue;
      ++kernels;
      timing::AnnotationTable<timing::ResourcePhase> table(Phased::codeSizes(m));
      const PhaseResult r = computePhases(run.program(), k, {}, table);
      EXPECT_EQ(r.physicalRegisters, budget.on());
      checkInvariants(run.program(), k, table, r);
      std::ostringstream line;
      line << GetParam() << " " << m.functions[k].name << " (" << (budget.on() ? "allocated" : "virtual")
           << "): " << r.phases.size() << " phases, max live " << r.maxLiveRegisters << ";";
      for (const PhaseInfo& p : r.phases) {
        EXPECT_GE(std::popcount(p.registerSets) * timing::kRegistersPerSet, p.peakLiveRegisters)
            << m.functions[k].name << " phase " << p.id;
      }
      for (const PhaseInfo& p : r.phases)
        line << " [pc " << p.firstPc << ": " << std::popcount(p.registerSets) * timing::kRegistersPerSet << " regs, "
             << p.sharedBytes << " B" << (p.sharedDynamic ? " +dyn" : "") << "]";
      std::cout << line.str() << "\n";
    }
    EXPECT_GT(kernels, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, WorkloadPhases, ::testing::Values("dct8x8", "mst", "sssp"));

}  // namespace
}  // namespace warpsim::mech::zorua
