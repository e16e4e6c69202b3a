#include "ptx/atom_calls.h"

#include <array>

#include <fmt/format.h>

#include "ir/atom_hint.h"

namespace warpsim::ptx::detail {
namespace {

struct AtomCall {
  std::string_view name;       // after the prefix
  ir::AtomHintOp kind;
  std::string_view what;       // for messages
  std::string_view signature;  // the parameters as include/warpsim/xmem.h declares them
};

constexpr std::array<AtomCall, 5> kCalls = {{
    {"map", ir::AtomHintOp::Map, "map", "atom .b32, start .b64, size .b64, map_or_unmap .b32"},
    {"map2d", ir::AtomHintOp::Map2D, "2-D map",
     "atom .b32, start .b64, lenX .b64, sizeX .b64, sizeY .b64, map_or_unmap .b32"},
    {"map3d", ir::AtomHintOp::Map3D, "3-D map",
     "atom .b32, start .b64, lenX .b64, lenY .b64, sizeX .b64, sizeY .b64, sizeZ .b64, map_or_unmap .b32"},
    {"activate", ir::AtomHintOp::Activate, "activate", "atom .b32"},
    {"deactivate", ir::AtomHintOp::Deactivate, "deactivate", "atom .b32"},
}};

const AtomCall& callOf(ir::AtomHintOp kind) { return kCalls[static_cast<size_t>(kind)]; }

}  // namespace

std::optional<ir::AtomHintOp> atomCallKind(std::string_view callee, bool* unknown) {
  *unknown = false;
  if (!callee.starts_with(kAtomCallPrefix)) return std::nullopt;
  const std::string_view rest = callee.substr(kAtomCallPrefix.size());
  for (const AtomCall& c : kCalls)
    if (c.name == rest) return c.kind;
  *unknown = true;
  return std::nullopt;
}

std::string checkAtomCall(ir::AtomHintOp kind, const ir::Function& callee, size_t numArgs, size_t numRets) {
  const AtomCall& c = callOf(kind);
  const std::span<const uint8_t> params = ir::atomHintParams(kind);
  const auto wrong = [&](const std::string& what) {
    return fmt::format("{}; warpsim's device atom {} takes {} ({}) and returns nothing: declare it as "
                       "include/warpsim/xmem.h does",
                       what, c.what, params.size(), c.signature);
  };
  if (numArgs != params.size())
    return wrong(fmt::format("call to '{}' passes {} arguments", callee.name, numArgs));
  if (callee.params.size() != params.size())
    return wrong(fmt::format("'{}' is declared with {} parameters", callee.name, callee.params.size()));
  if (numRets != 0 || !callee.rets.empty())
    return wrong(fmt::format("'{}' is declared or called with a return value", callee.name));
  for (size_t i = 0; i < params.size(); ++i)
    if (callee.params[i].size != params[i])
      return wrong(fmt::format("parameter {} of '{}' is {} bytes, not {}", i + 1, callee.name,
                               callee.params[i].size, params[i]));
  return "";
}

}  // namespace warpsim::ptx::detail
