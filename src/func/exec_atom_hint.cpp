// atom_hint: XMem's ATOM_MAP / ATOM_UNMAP / ATOM_ACTIVATE / ATOM_DEACTIVATE as a kernel issues them
// through warpsim's device atom functions (include/warpsim/xmem.h). Each executing lane's call is
// one operation, in lane order, checked as the host calls are (hints/atoms.h: an atom the program
// never created, a malformed block, a block outside one device allocation fault the lane with
// one line); the operations go to the timing model in the record (ExecRecord::atomOps) and are
// counted (GridContext::deviceAtomOps). Nothing a kernel computes depends on them.
#include <bit>
#include <cstring>
#include <span>

#include "func/executors.h"
#include "func/warp.h"
#include "hints/launch_hints.h"
#include "ir/atom_hint.h"

namespace warpsim::func {
namespace {

// As the host calls take an atom id: a negative one is no atom (hints::kMaxAtoms).
uint32_t atomId(uint64_t arg) {
  const auto id = static_cast<int32_t>(arg);
  return id < 0 ? hints::kMaxAtoms : static_cast<uint32_t>(id);
}

// The operation of one call's arguments (ir/atom_hint.h order), built as the host calls build
// theirs (src/cudart/api_xmem.cpp).
hints::AtomOp atomOpOf(ir::AtomHintOp kind, const uint64_t* a) {
  hints::AtomOp op;
  op.atom = atomId(a[0]);
  switch (kind) {
    case ir::AtomHintOp::Activate: op.kind = hints::AtomOp::Kind::Activate; return op;
    case ir::AtomHintOp::Deactivate: op.kind = hints::AtomOp::Kind::Deactivate; return op;
    case ir::AtomHintOp::Map:  // atom, start, size, map_or_unmap
      op.base = a[1];
      op.lenX = op.sizeX = a[2];
      op.kind = static_cast<int32_t>(a[3]) != 0 ? hints::AtomOp::Kind::Map : hints::AtomOp::Kind::Unmap;
      return op;
    case ir::AtomHintOp::Map2D:  // atom, start, lenX, sizeX, sizeY, map_or_unmap
      op.base = a[1];
      op.lenX = a[2];
      op.sizeX = a[3];
      op.lenY = op.sizeY = a[4];
      op.kind = static_cast<int32_t>(a[5]) != 0 ? hints::AtomOp::Kind::Map : hints::AtomOp::Kind::Unmap;
      return op;
    case ir::AtomHintOp::Map3D:  // atom, start, lenX, lenY, sizeX, sizeY, sizeZ, map_or_unmap
      op.base = a[1];
      op.lenX = a[2];
      op.lenY = a[3];
      op.sizeX = a[4];
      op.sizeY = a[5];
      op.sizeZ = a[6];
      op.kind = static_cast<int32_t>(a[7]) != 0 ? hints::AtomOp::Kind::Map : hints::AtomOp::Kind::Unmap;
      return op;
  }
  return op;
}

}  // namespace

void execAtomHint(const ir::Instr& in, ExecCtx& ctx) {
  Warp& w = *ctx.warp;
  std::vector<hints::AtomOp>& ops = w.atomOps();
  ops.clear();
  if (ctx.mask != 0) {
    if (ops.capacity() == 0) ops.reserve(kWarpSize);
    GridContext& g = w.grid();
    const ir::CallSite& site = g.module().functions[w.frame().function].calls[in.target];
    const auto kind = static_cast<ir::AtomHintOp>(in.sub);
    const std::span<const uint8_t> sizes = ir::atomHintParams(kind);
    const size_t atoms = g.config != nullptr && g.config->hints != nullptr ? g.config->hints->atoms.attributes.size() : 0;
    for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      const uint8_t* params = w.frameParams(lane);
      uint64_t arg[ir::kMaxAtomHintArgs] = {};
      for (size_t i = 0; i < sizes.size(); ++i) std::memcpy(&arg[i], params + site.argOffsets[i], sizes[i]);
      const hints::AtomOp op = atomOpOf(kind, arg);
      if (op.atom >= atoms) {
        w.fault(lane, hints::checkAtomId(op, atoms));
        ops.clear();
        break;
      }
      if (op.isMapping()) {
        if (std::string why = hints::checkAtomOp(op); !why.empty()) {
          w.fault(lane, why);
          ops.clear();
          break;
        }
        if (!g.memory->isMapped(op.base, op.end() - op.base)) {
          w.fault(lane, hints::outsideAllocation(op));
          ops.clear();
          break;
        }
      }
      ops.push_back(op);
    }
    g.deviceAtomOps += ops.size();
  }
  if (ExecRecord* r = ctx.record) {
    r->atomOps = ops.data();
    r->numAtomOps = static_cast<uint32_t>(ops.size());
  }
}

}  // namespace warpsim::func
