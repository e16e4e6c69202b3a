// The dot-separated words after an opcode (ld.global.nc.v4.f32 -> global nc v4 f32), consumed
// by the opcode's lowering; any word left unconsumed is an unsupported modifier.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/instr.h"
#include "ir/types.h"

namespace warpsim::ptx {

// Type word ("f32", "pred", ...) to Type, or nullopt.
std::optional<ir::Type> typeFromWord(std::string_view w);
// State-space word ("global", "shared", ...). "param" maps to KernelParam (the caller splits it).
std::optional<ir::Space> spaceFromWord(std::string_view w);

class Modifiers {
 public:
  explicit Modifiers(std::string_view opcodeText);

  std::string_view base() const { return base_; }
  // Removes `word` if present; returns whether it was there.
  bool take(std::string_view word);
  // Removes and returns the first word from `choices` present (index into choices), or -1.
  int takeOneOf(std::initializer_list<std::string_view> choices);
  // Removes all type words, in order.
  std::vector<ir::Type> takeTypes();
  std::optional<ir::Round> takeRound();     // rn rz rm rp rna rni rzi rmi rpi rs
  std::optional<ir::CmpOp> takeCmp();       // eq ne lt ... (first match)
  std::optional<ir::BoolOp> takeBoolOp();   // and or xor
  std::optional<ir::Space> takeSpace();     // global shared local const param (shared::cta too)
  unsigned takeVector();                    // v2/v4 -> 2/4, else 1
  // Cache operators, eviction priorities and memory-ordering words that do not change the
  // functional result (ca cg cs lu cv wb wt L1::evict_last L2::128B relaxed acquire gpu ...).
  void takeIgnorable();
  // First unconsumed word, if any.
  std::optional<std::string_view> leftover() const;

 private:
  std::string_view base_;
  struct Word { std::string_view text; bool used; };
  std::vector<Word> words_;
};

}  // namespace warpsim::ptx
