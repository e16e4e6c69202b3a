// Calls to warpsim's device atom functions (include/warpsim/xmem.h, `#ifdef __CUDACC__`): the
// kernel-side XMem operations, which the PTX front end decodes as one instruction, ir::Op::AtomHint
// (XMem's ATOM_MAP / ATOM_UNMAP / ATOM_ACTIVATE / ATOM_DEACTIVATE), instead of a call. They are
// recognised by name (extern "C", so nvcc never mangles them) when the call is lowered, and
// their signature is checked once the callee's declaration is known (Parser::resolveCalls).
//
//   PTX function                  sub                     parameters (bytes; ir/atom_hint.h)
//   warpsim_device_atom_map       AtomHintOp::Map         atom 4, start 8, size 8, map_or_unmap 4
//   warpsim_device_atom_map2d     AtomHintOp::Map2D       atom 4, start 8, lenX 8, sizeX 8, sizeY 8,
//                                                         map_or_unmap 4
//   warpsim_device_atom_map3d     AtomHintOp::Map3D       atom 4, start 8, lenX 8, lenY 8, sizeX 8,
//                                                         sizeY 8, sizeZ 8, map_or_unmap 4
//   warpsim_device_atom_activate   AtomHintOp::Activate    atom 4
//   warpsim_device_atom_deactivate AtomHintOp::Deactivate  atom 4
// None returns a value. Any other name that starts with "warpsim_device_atom_" is refused (the
// prefix is warpsim's).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "ir/instr.h"
#include "ir/module.h"

namespace warpsim::ptx::detail {

inline constexpr std::string_view kAtomCallPrefix = "warpsim_device_atom_";

// The kind of a call to `callee`: std::nullopt for a name without the prefix (an ordinary
// call). A name with the prefix that is none of the five sets *unknown.
std::optional<ir::AtomHintOp> atomCallKind(std::string_view callee, bool* unknown);

// "" when a call passing `numArgs` arguments and receiving `numRets` results to `callee`
// (declared as it is) matches the function of `kind`; else one line saying what differs, e.g.
// "call to 'warpsim_device_atom_map' passes 3 arguments; warpsim's device atom map takes 4
// (atom .b32, start .b64, size .b64, map_or_unmap .b32): declare it as include/warpsim/xmem.h does".
std::string checkAtomCall(ir::AtomHintOp kind, const ir::Function& callee, size_t numArgs, size_t numRets);

}  // namespace warpsim::ptx::detail
