// Synchronisation, warp-level and control-flow opcodes.
#include "ptx/atom_calls.h"
#include "ptx/lowering.h"

namespace warpsim::ptx::detail {
namespace {

using ir::Op;
using ir::Type;

// Scope of membar/fence, stored in Instr::sub.
enum FenceScope : uint8_t { kScopeCta = 0, kScopeGpu = 1, kScopeSys = 2, kScopeCluster = 3 };

// bar / barrier: sync, arrive, red; bar.warp.sync
void lowerBarrier(InstrBuilder& b, bool isBarrier) {
  ir::Instr& in = b.in;
  const std::string& name = b.opcodeText();
  if (!isBarrier && b.mods.take("warp")) {
    // bar.warp.sync mask: the warp's lanes execute in lockstep in the functional engine, so a
    // warp barrier only needs its mask operand; it is lowered to a fence with one source.
    if (!b.mods.take("sync")) b.fail("'" + name + "' needs .sync");
    in.op = Op::Fence;
    in.sub = kScopeCta;
    b.expectCount(1);
    b.addSrc(b.src(b.raw(0), Type::U32));
    return;
  }
  in.op = Op::Bar;
  b.mods.take("cta");
  int kind = b.mods.takeOneOf({"sync", "arrive", "red"});
  if (kind < 0) b.fail("'" + name + "' needs .sync, .arrive or .red");
  if (!isBarrier || b.mods.take("aligned")) in.flags |= ir::kAligned;
  if (kind == 0 || kind == 1) {
    in.sub = static_cast<uint8_t>(kind == 0 ? ir::BarOp::Sync : ir::BarOp::Arrive);
    if (kind == 1) b.expectCount(2);
    else b.expectCount(1, 2);
    b.addSrc(b.src(b.raw(0), Type::U32));
    if (b.count() == 2) {
      b.addSrc(b.src(b.raw(1), Type::U32));
      in.flags |= ir::kHasBarCount;
    }
    return;
  }
  // .red.popc.u32 d, a[, b], {!}c   /   .red.{and,or}.pred p, a[, b], {!}c
  int op = b.mods.takeOneOf({"popc", "and", "or"});
  if (op < 0) b.fail("'" + name + "' needs .popc, .and or .or");
  in.sub = static_cast<uint8_t>(op == 0 ? ir::BarOp::RedPopc : op == 1 ? ir::BarOp::RedAnd : ir::BarOp::RedOr);
  in.type = b.oneType();
  if (op == 0 ? in.type != Type::U32 : in.type != Type::Pred) b.fail("invalid type in '" + name + "'");
  b.expectCount(3, 4);
  b.addDst(op == 0 ? b.dstReg(b.raw(0), 32) : b.dstPred(b.raw(0)));
  b.addSrc(b.src(b.raw(1), Type::U32));
  if (b.count() == 4) {
    b.addSrc(b.src(b.raw(2), Type::U32));
    in.flags |= ir::kHasBarCount;
  }
  b.addSrc(b.predSrc(b.raw(b.count() - 1)));
}

void lowerFence(InstrBuilder& b, bool isMembar) {
  ir::Instr& in = b.in;
  in.op = isMembar ? Op::Membar : Op::Fence;
  if (!isMembar && b.mods.takeOneOf({"sc", "acq_rel"}) < 0)
    b.fail("unsupported instruction '" + b.opcodeText() + "'");
  int s = isMembar ? b.mods.takeOneOf({"cta", "gl", "sys"})
                   : b.mods.takeOneOf({"cta", "gpu", "sys", "cluster"});
  if (s < 0) b.fail("'" + b.opcodeText() + "' needs a scope");
  in.sub = static_cast<uint8_t>(s);
  b.expectCount(0);
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask
void lowerShfl(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Shfl;
  if (!b.mods.take("sync")) b.fail("unsupported instruction '" + b.opcodeText() + "' (use shfl.sync)");
  int m = b.mods.takeOneOf({"up", "down", "bfly", "idx"});
  if (m < 0) b.fail("'" + b.opcodeText() + "' needs .up, .down, .bfly or .idx");
  in.sub = static_cast<uint8_t>(m);
  in.type = b.oneType();
  if (in.type != Type::B32) b.fail("'" + b.opcodeText() + "' needs .b32");
  b.expectCount(5);
  if (b.isPair(0)) {
    b.addDst(b.dstReg(b.raw(0).elems[0], 32));
    b.addDst(b.dstPred(b.raw(0).elems[1]));
  } else {
    b.addDst(b.dstReg(b.raw(0), 32));
  }
  b.addSrc(b.src(b.raw(1), Type::B32));
  for (size_t i = 2; i < 5; ++i) b.addSrc(b.src(b.raw(i), Type::U32));
}

// vote.sync.{all,any,uni}.pred d, {!}a, membermask  /  vote.sync.ballot.b32 d, {!}a, membermask
void lowerVote(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Vote;
  if (!b.mods.take("sync")) b.fail("unsupported instruction '" + b.opcodeText() + "' (use vote.sync)");
  int m = b.mods.takeOneOf({"all", "any", "uni", "ballot"});
  if (m < 0) b.fail("'" + b.opcodeText() + "' needs .all, .any, .uni or .ballot");
  in.sub = static_cast<uint8_t>(m);
  in.type = b.oneType();
  bool ballot = m == static_cast<int>(ir::VoteMode::Ballot);
  if (ballot ? in.type != Type::B32 : in.type != Type::Pred) b.fail("invalid type in '" + b.opcodeText() + "'");
  b.expectCount(3);
  b.addDst(ballot ? b.dstReg(b.raw(0), 32) : b.dstPred(b.raw(0)));
  b.addSrc(b.predSrc(b.raw(1)));
  b.addSrc(b.src(b.raw(2), Type::U32));
}

// match.any.sync.type d, a, membermask  /  match.all.sync.type d[|p], a, membermask
void lowerMatch(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Match;
  int m = b.mods.takeOneOf({"any", "all"});
  if (m < 0 || !b.mods.take("sync")) b.fail("'" + b.opcodeText() + "' needs .any or .all and .sync");
  in.sub = static_cast<uint8_t>(m);
  in.type = b.oneType();
  if (in.type != Type::B32 && in.type != Type::B64) b.fail("'" + b.opcodeText() + "' needs .b32 or .b64");
  b.expectCount(3);
  if (b.isPair(0)) {
    if (m == 0) b.fail("'" + b.opcodeText() + "' has no predicate result");
    b.addDst(b.dstReg(b.raw(0).elems[0], 32));
    b.addDst(b.dstPred(b.raw(0).elems[1]));
  } else {
    b.addDst(b.dstReg(b.raw(0), 32));
  }
  b.addSrc(b.src(b.raw(1), in.type));
  b.addSrc(b.src(b.raw(2), Type::U32));
}

// call[.uni] [(rets),] func[, (args)]
void lowerCall(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Call;
  b.takeFlags(ir::kUni);
  Parser& p = b.parser();
  size_t i = 0;
  const RawOperand* rets = nullptr;
  const RawOperand* args = nullptr;
  if (b.count() > 0 && b.raw(0).kind == RawOperand::Kind::Paren) rets = &b.raw(i++);
  if (i >= b.count()) b.fail("'" + b.opcodeText() + "' needs a function name");
  const RawOperand& callee = b.raw(i++);
  if (callee.kind != RawOperand::Kind::Name || callee.negate || callee.offset != 0)
    p.fail(*callee.tok, "expected a function name in '" + b.opcodeText() + "'");
  const NameEntry* e = p.lookup(callee.name);
  if ((e && e->kind == NameKind::Reg) || (!callee.name.empty() && callee.name[0] == '%'))
    p.fail(*callee.tok, "unsupported indirect call through '" + printable(callee.name) + "'");
  if (i < b.count()) {
    if (b.raw(i).kind != RawOperand::Kind::Paren)
      p.fail(*b.raw(i).tok, "expected an argument list (..) in '" + b.opcodeText() + "'");
    args = &b.raw(i++);
  }
  if (i < b.count()) p.fail(*b.raw(i).tok, "unsupported indirect call (prototype operand) in '" + b.opcodeText() + "'");

  ir::CallSite cs;
  cs.line = in.line;
  // warpsim's device atom functions are one instruction, not a call (atom_calls.h).
  bool unknownAtomCall = false;
  if (const auto kind = atomCallKind(callee.name, &unknownAtomCall)) {
    in.op = Op::AtomHint;
    in.sub = static_cast<uint8_t>(*kind);
    cs.isAtomHint = true;
  } else if (unknownAtomCall) {
    p.fail(*callee.tok, "call to '" + printable(callee.name) +
                            "': no warpsim device atom function has this name (warpsim_device_atom_map, _map2d, "
                            "_map3d, _activate, _deactivate)");
  }
  auto offsets = [&](const RawOperand* list, std::vector<uint32_t>& out) {
    if (!list) return;
    for (const RawOperand& a : list->elems) {
      const NameEntry* pe = a.kind == RawOperand::Kind::Name ? p.lookup(a.name) : nullptr;
      if (!pe || pe->kind != NameKind::FrameParam || a.negate || a.offset != 0)
        p.fail(*a.tok, "call operand " + p.describe(*a.tok) + " is not a .param variable of the caller");
      out.push_back(pe->value);
    }
  };
  offsets(rets, cs.retOffsets);
  offsets(args, cs.argOffsets);
  ir::Function& f = p.fn();
  in.target = static_cast<uint32_t>(f.calls.size());
  p.pendingCalls_.push_back({p.fs_.index, in.target, std::string(callee.name), in.line,
                             cs.argOffsets.size(), cs.retOffsets.size()});
  f.calls.push_back(std::move(cs));
}

}  // namespace

bool lowerSyncControl(InstrBuilder& b) {
  std::string_view base = b.mods.base();
  ir::Instr& in = b.in;
  if (base == "bar") lowerBarrier(b, false);
  else if (base == "barrier") lowerBarrier(b, true);
  else if (base == "membar") lowerFence(b, true);
  else if (base == "fence") lowerFence(b, false);
  else if (base == "shfl") lowerShfl(b);
  else if (base == "vote") lowerVote(b);
  else if (base == "match") lowerMatch(b);
  else if (base == "call") lowerCall(b);
  else if (base == "activemask") {
    in.op = Op::Activemask;
    in.type = b.oneType();
    if (in.type != Type::B32) b.fail("'" + b.opcodeText() + "' needs .b32");
    b.expectCount(1);
    b.addDst(b.dstReg(b.raw(0), 32));
  } else if (base == "bra") {
    in.op = Op::Bra;
    b.takeFlags(ir::kUni);
    b.expectCount(1);
    b.setLabelTarget(b.raw(0));
  } else if (base == "ret" || base == "exit" || base == "trap" || base == "brkpt") {
    in.op = base == "ret" ? Op::Ret : base == "exit" ? Op::Exit : base == "trap" ? Op::Trap : Op::Brkpt;
    if (in.op == Op::Ret) b.takeFlags(ir::kUni);
    b.expectCount(0);
  } else if (base == "nanosleep") {
    in.op = Op::Nanosleep;
    in.type = b.oneType();
    if (in.type != Type::U32) b.fail("'" + b.opcodeText() + "' needs .u32");
    b.expectCount(1);
    b.addSrc(b.src(b.raw(0), Type::U32));
  } else {
    return false;
  }
  return true;
}

}  // namespace warpsim::ptx::detail
