// mov from special registers and symbols, cvta, isspacep.
//
// Deterministic stand-ins where hardware reports time or placement: %clock/%clock64 read the
// core cycle of the timing model when one drives the launch (GridContext::coreCycle), else
// count the warp's instructions executed before the read; %globaltimer is 1 s plus one nanosecond per warp-instruction
// executed so far in the launch; %smid is the CTA's linear id modulo RunOptions::numSms;
// %warpid is the warp's index in its CTA; %nwarpid is 64; %envreg1:%envreg2 hold the grid-sync
// workspace address of a cooperative launch (RunOptions::gridSyncWorkspace), the other %envregN
// and %pm* read 0.
#include <bit>

#include "func/address_space.h"
#include "func/alu/lanes.h"
#include "func/cta.h"
#include "func/executors.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

constexpr uint32_t kWarpSlotsPerSm = 64;
constexpr uint64_t kGlobalTimerBaseNs = 1'000'000'000;

uint32_t component(const Dim3& d, unsigned c) { return c == 0 ? d.x : (c == 1 ? d.y : d.z); }

// Value of a special register for `lane` (uniform ones ignore the lane).
uint64_t special(Warp& w, const ir::Operand& op, unsigned lane) {
  GridContext& g = w.grid();
  const unsigned c = op.comp;
  switch (op.sreg) {
    case ir::SpecialReg::Tid: return c < 3 ? w.tid(c, lane) : 0;
    case ir::SpecialReg::Ntid: return component(g.config->block, c);
    case ir::SpecialReg::Ctaid: return component(w.cta().ctaId(), c);
    case ir::SpecialReg::Nctaid: return component(g.config->grid, c);
    case ir::SpecialReg::LaneId: return lane;
    case ir::SpecialReg::WarpId: return w.warpInCta();
    case ir::SpecialReg::NWarpId: return kWarpSlotsPerSm;
    case ir::SpecialReg::SmId: return w.cta().smId();
    case ir::SpecialReg::NSmId: return g.options->numSms;
    case ir::SpecialReg::GridId: return g.options->gridId;
    case ir::SpecialReg::LaneMaskEq: return uint32_t{1} << lane;
    case ir::SpecialReg::LaneMaskLe: return lane == 31 ? kFullMask : (uint32_t{2} << lane) - 1;
    case ir::SpecialReg::LaneMaskLt: return (uint32_t{1} << lane) - 1;
    case ir::SpecialReg::LaneMaskGe: return ~((uint32_t{1} << lane) - 1);
    case ir::SpecialReg::LaneMaskGt: return lane == 31 ? 0u : ~((uint32_t{2} << lane) - 1);
    // instructionsExecuted() already counts the mov itself.
    case ir::SpecialReg::Clock:
      return static_cast<uint32_t>(g.coreCycle ? *g.coreCycle : w.instructionsExecuted() - 1);
    case ir::SpecialReg::Clock64: return g.coreCycle ? *g.coreCycle : w.instructionsExecuted() - 1;
    case ir::SpecialReg::GlobalTimer: return kGlobalTimerBaseNs + g.warpInstructions;
    case ir::SpecialReg::GlobalTimerLo: return static_cast<uint32_t>(kGlobalTimerBaseNs + g.warpInstructions);
    case ir::SpecialReg::GlobalTimerHi: return (kGlobalTimerBaseNs + g.warpInstructions) >> 32;
    case ir::SpecialReg::DynamicSmemSize: return g.config->dynamicSharedBytes;
    case ir::SpecialReg::TotalSmemSize:
    case ir::SpecialReg::AggrSmemSize: return g.sharedBytes;
    case ir::SpecialReg::ClusterCtaRank: return 0;
    case ir::SpecialReg::ClusterNctarank: return 1;
    case ir::SpecialReg::EnvReg:
      if (c == 1) return g.options->gridSyncWorkspace >> 32;
      return c == 2 ? g.options->gridSyncWorkspace & 0xFFFF'FFFFu : 0;
    case ir::SpecialReg::Pm0: return 0;
  }
  return 0;
}

// The per-lane value of a cvta/isspacep source: a register, or a symbol's (uniform) address.
template <class F>
void forSource(const ir::Instr& in, ExecCtx& ctx, bool generic, F&& f) {
  const ir::Operand& s = in.src(0);
  if (s.kind == ir::OperandKind::Symbol) {
    const uint64_t v = ctx.warp->addrBase(linkedOf(in).addr, generic);
    lanes::forEachLane(ctx.mask, [&](unsigned l) { f(l, v); });
  } else {
    const uint64_t* r = ctx.reg(s.reg);
    lanes::forEachLane(ctx.mask, [&](unsigned l) { f(l, r[l]); });
  }
}

}  // namespace

void execMovSpecial(const ir::Instr& in, ExecCtx& ctx) {
  const ir::Operand& d = in.dst(0);
  const ir::Operand& s = in.src(0);
  const uint64_t m = lanes::dstMask(d, 64);
  uint64_t* r = ctx.reg(d.reg);
  Warp& w = *ctx.warp;
  switch (s.sreg) {
    case ir::SpecialReg::Tid:
    case ir::SpecialReg::LaneId:
    case ir::SpecialReg::LaneMaskEq:
    case ir::SpecialReg::LaneMaskLe:
    case ir::SpecialReg::LaneMaskLt:
    case ir::SpecialReg::LaneMaskGe:
    case ir::SpecialReg::LaneMaskGt:
      lanes::forEachLane(ctx.mask, [&](unsigned l) { r[l] = special(w, s, l) & m; });
      return;
    default: {  // the same in every lane
      const uint64_t v = special(w, s, 0) & m;
      lanes::forEachLane(ctx.mask, [&](unsigned l) { r[l] = v; });
    }
  }
}

void execMovSymbol(const ir::Instr& in, ExecCtx& ctx) {
  const ir::Operand& d = in.dst(0);
  const uint64_t v = ctx.warp->addrBase(linkedOf(in).addr, false) & lanes::dstMask(d, 64);
  uint64_t* r = ctx.reg(d.reg);
  lanes::forEachLane(ctx.mask, [&](unsigned l) { r[l] = v; });
}

// cvta.space.size d, a (space -> generic); cvta.to.space.size d, a (generic -> space).
void execCvta(const ir::Instr& in, ExecCtx& ctx) {
  const ir::Operand& d = in.dst(0);
  const uint64_t m = lanes::dstMask(d, ir::bits(in.type) ? ir::bits(in.type) : 64);
  const uint64_t window = windowBase(in.space);
  const uint64_t inSpace = addressMask(in.space);  // shared, local and param addresses are 32-bit
  const bool toSpace = in.has(ir::kToSpace);
  uint64_t* r = ctx.reg(d.reg);
  // A symbol source is an address in `space`, never a generic one.
  forSource(in, ctx, false, [&](unsigned l, uint64_t v) {
    r[l] = (toSpace ? (v - window) & inSpace : (v & inSpace) + window) & m;
  });
}

// isspacep.space p, a: whether generic address a falls in the window of `space`. Constant data
// lives in device memory here, at the addresses the module's .const variables were given: the
// loader packs them into one block (Program::constWindow), so isspacep.const is one range check.
// The const data and the kernel parameters lie inside the global window, as PTX says of the
// latter, so isspacep.global is true for both.
void execIsspacep(const ir::Instr& in, ExecCtx& ctx) {
  const ir::Operand& d = in.dst(0);
  const Program::AddressRange constData = ctx.warp->grid().program->constWindow();
  uint32_t result = 0;
  forSource(in, ctx, true, [&](unsigned l, uint64_t v) {
    const ir::Space s = genericSpace(v);
    bool is = false;
    switch (in.space) {
      case ir::Space::Global: is = s == ir::Space::Global || s == ir::Space::KernelParam; break;
      case ir::Space::Const: is = constData.contains(v); break;
      case ir::Space::Shared:
      case ir::Space::Local:
      case ir::Space::KernelParam: is = s == in.space; break;
      default: break;
    }
    if (is) result |= 1u << l;
  });
  if (d.kind == ir::OperandKind::Pred) lanes::writePred(ctx, d.reg, result, ctx.mask);
}

}  // namespace warpsim::func
