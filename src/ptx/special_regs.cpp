#include "ptx/special_regs.h"

namespace warpsim::ptx {

using ir::SpecialReg;

std::optional<SpecialRegInfo> findSpecialReg(std::string_view name) {
  // Registers with .x/.y/.z components.
  static constexpr struct { std::string_view name; SpecialReg reg; } kVec[] = {
      {"%tid", SpecialReg::Tid}, {"%ntid", SpecialReg::Ntid},
      {"%ctaid", SpecialReg::Ctaid}, {"%nctaid", SpecialReg::Nctaid},
  };
  size_t dot = name.find('.');
  if (dot != std::string_view::npos) {
    std::string_view base = name.substr(0, dot), c = name.substr(dot + 1);
    uint8_t comp = c == "x" ? 0 : c == "y" ? 1 : c == "z" ? 2 : 3;
    if (comp == 3) return std::nullopt;
    for (const auto& v : kVec)
      if (v.name == base) return SpecialRegInfo{v.reg, comp, 32};
    return std::nullopt;
  }
  static constexpr struct { std::string_view name; SpecialReg reg; uint8_t bits; } kScalar[] = {
      {"%laneid", SpecialReg::LaneId, 32},          {"%warpid", SpecialReg::WarpId, 32},
      {"%nwarpid", SpecialReg::NWarpId, 32},        {"%smid", SpecialReg::SmId, 32},
      {"%nsmid", SpecialReg::NSmId, 32},            {"%gridid", SpecialReg::GridId, 64},
      {"%lanemask_eq", SpecialReg::LaneMaskEq, 32}, {"%lanemask_le", SpecialReg::LaneMaskLe, 32},
      {"%lanemask_lt", SpecialReg::LaneMaskLt, 32}, {"%lanemask_ge", SpecialReg::LaneMaskGe, 32},
      {"%lanemask_gt", SpecialReg::LaneMaskGt, 32}, {"%clock", SpecialReg::Clock, 32},
      {"%clock64", SpecialReg::Clock64, 64},        {"%globaltimer", SpecialReg::GlobalTimer, 64},
      {"%globaltimer_lo", SpecialReg::GlobalTimerLo, 32},
      {"%globaltimer_hi", SpecialReg::GlobalTimerHi, 32},
      {"%dynamic_smem_size", SpecialReg::DynamicSmemSize, 32},
      {"%total_smem_size", SpecialReg::TotalSmemSize, 32},
      {"%aggr_smem_size", SpecialReg::AggrSmemSize, 32},
      {"%cluster_ctarank", SpecialReg::ClusterCtaRank, 32},
      {"%cluster_nctarank", SpecialReg::ClusterNctarank, 32},
  };
  for (const auto& s : kScalar)
    if (s.name == name) return SpecialRegInfo{s.reg, 0, s.bits};
  auto numbered = [&](std::string_view prefix, unsigned limit) -> int {
    if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() > prefix.size() + 2)
      return -1;
    unsigned n = 0;
    for (char ch : name.substr(prefix.size())) {
      if (ch < '0' || ch > '9') return -1;
      n = n * 10 + static_cast<unsigned>(ch - '0');
    }
    if (name.size() == prefix.size() + 2 && name[prefix.size()] == '0') return -1;
    return n < limit ? static_cast<int>(n) : -1;
  };
  if (int n = numbered("%envreg", 32); n >= 0)
    return SpecialRegInfo{SpecialReg::EnvReg, static_cast<uint8_t>(n), 32};
  if (int n = numbered("%pm", 8); n >= 0)
    return SpecialRegInfo{SpecialReg::Pm0, static_cast<uint8_t>(n), 32};
  return std::nullopt;
}

}  // namespace warpsim::ptx
