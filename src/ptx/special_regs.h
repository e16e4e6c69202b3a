// PTX special registers (%tid.x, %laneid, %clock64, %envreg3, ...).
#pragma once
#include <optional>
#include <string_view>

#include "ir/instr.h"

namespace warpsim::ptx {

struct SpecialRegInfo {
  ir::SpecialReg reg;
  uint8_t comp;  // .x/.y/.z -> 0/1/2; N of %envregN / %pmN
  uint8_t bits;  // 32 or 64
};

// nullopt when `name` is not a special register this simulator models.
std::optional<SpecialRegInfo> findSpecialReg(std::string_view name);

}  // namespace warpsim::ptx
