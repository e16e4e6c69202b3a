#include "ptx/modifiers.h"

namespace warpsim::ptx {

using ir::Type;

std::optional<Type> typeFromWord(std::string_view w) {
  static constexpr struct { std::string_view name; Type type; } kTypes[] = {
      {"b8", Type::B8},     {"b16", Type::B16},     {"b32", Type::B32},   {"b64", Type::B64},
      {"b128", Type::B128}, {"u8", Type::U8},       {"u16", Type::U16},   {"u32", Type::U32},
      {"u64", Type::U64},   {"s8", Type::S8},       {"s16", Type::S16},   {"s32", Type::S32},
      {"s64", Type::S64},   {"f16", Type::F16},     {"f16x2", Type::F16x2}, {"bf16", Type::BF16},
      {"bf16x2", Type::BF16x2}, {"f32", Type::F32}, {"f64", Type::F64},   {"pred", Type::Pred},
  };
  for (const auto& t : kTypes)
    if (t.name == w) return t.type;
  return std::nullopt;
}

std::optional<ir::Space> spaceFromWord(std::string_view w) {
  if (w == "global") return ir::Space::Global;
  if (w == "shared" || w == "shared::cta") return ir::Space::Shared;
  if (w == "local") return ir::Space::Local;
  if (w == "const") return ir::Space::Const;
  if (w == "param") return ir::Space::KernelParam;
  return std::nullopt;
}

Modifiers::Modifiers(std::string_view text) {
  size_t dot = text.find('.');
  base_ = text.substr(0, dot);
  while (dot != std::string_view::npos) {
    size_t next = text.find('.', dot + 1);
    words_.push_back({text.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1),
                      false});
    dot = next;
  }
}

bool Modifiers::take(std::string_view word) {
  for (auto& w : words_)
    if (!w.used && w.text == word) {
      w.used = true;
      return true;
    }
  return false;
}

int Modifiers::takeOneOf(std::initializer_list<std::string_view> choices) {
  for (auto& w : words_) {
    if (w.used) continue;
    int i = 0;
    for (std::string_view c : choices) {
      if (w.text == c) {
        w.used = true;
        return i;
      }
      ++i;
    }
  }
  return -1;
}

std::vector<Type> Modifiers::takeTypes() {
  std::vector<Type> out;
  for (auto& w : words_)
    if (!w.used)
      if (auto t = typeFromWord(w.text)) {
        w.used = true;
        out.push_back(*t);
      }
  return out;
}

std::optional<ir::Round> Modifiers::takeRound() {
  using ir::Round;
  int i = takeOneOf({"rn", "rna", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rs"});
  static constexpr Round kRounds[] = {Round::Rn, Round::Rna, Round::Rz, Round::Rm, Round::Rp,
                                      Round::Rni, Round::Rzi, Round::Rmi, Round::Rpi, Round::Rs};
  if (i < 0) return std::nullopt;
  return kRounds[i];
}

std::optional<ir::CmpOp> Modifiers::takeCmp() {
  using ir::CmpOp;
  int i = takeOneOf({"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                     "ltu", "leu", "gtu", "geu", "num", "nan"});
  static constexpr CmpOp kCmps[] = {CmpOp::Eq,  CmpOp::Ne,  CmpOp::Lt,  CmpOp::Le,  CmpOp::Gt,
                                    CmpOp::Ge,  CmpOp::Lo,  CmpOp::Ls,  CmpOp::Hi,  CmpOp::Hs,
                                    CmpOp::Equ, CmpOp::Neu, CmpOp::Ltu, CmpOp::Leu, CmpOp::Gtu,
                                    CmpOp::Geu, CmpOp::Num, CmpOp::Nan};
  if (i < 0) return std::nullopt;
  return kCmps[i];
}

std::optional<ir::BoolOp> Modifiers::takeBoolOp() {
  int i = takeOneOf({"and", "or", "xor"});
  if (i < 0) return std::nullopt;
  return static_cast<ir::BoolOp>(i + 1);
}

std::optional<ir::Space> Modifiers::takeSpace() {
  for (auto& w : words_)
    if (!w.used)
      if (auto s = spaceFromWord(w.text)) {
        w.used = true;
        return s;
      }
  return std::nullopt;
}

unsigned Modifiers::takeVector() {
  int i = takeOneOf({"v2", "v4"});
  return i < 0 ? 1u : (i == 0 ? 2u : 4u);
}

void Modifiers::takeIgnorable() {
  for (auto& w : words_) {
    if (w.used) continue;
    std::string_view t = w.text;
    if (t == "ca" || t == "cg" || t == "cs" || t == "lu" || t == "cv" || t == "wb" || t == "wt" ||
        t == "weak" || t == "relaxed" || t == "acquire" || t == "release" || t == "acq_rel" ||
        t == "cta" || t == "gpu" || t == "sys" || t == "cluster" || t.starts_with("L1::") ||
        (t.starts_with("L2::") && t != "L2::cache_hint"))
      w.used = true;
  }
}

std::optional<std::string_view> Modifiers::leftover() const {
  for (const auto& w : words_)
    if (!w.used) return w.text;
  return std::nullopt;
}

}  // namespace warpsim::ptx
