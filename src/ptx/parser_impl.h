// Internal state of the PTX parser, shared by the files that implement it (module directives,
// variables, function bodies, operands, per-family instruction lowering).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ptx/lexer.h"
#include "ptx/literal.h"
#include "ptx/modifiers.h"
#include "ptx/parse_error.h"

namespace warpsim::ptx::detail {

// Limits that keep hostile input from exhausting memory.
inline constexpr uint32_t kMaxRegsPerDecl = 1u << 16;
inline constexpr uint32_t kMaxRegsPerFunction = 1u << 18;
inline constexpr uint32_t kMaxRegsPerModule = 1u << 20;
inline constexpr uint64_t kMaxSymbolBytes = 1ull << 32;        // 4 GiB per variable
inline constexpr uint64_t kMaxInitializedBytes = 64ull << 20;  // one variable's initializer
inline constexpr uint64_t kMaxModuleInitializedBytes = 128ull << 20;
inline constexpr uint32_t kMaxFrameBytes = 1u << 24;           // param/local frame per function
inline constexpr unsigned kMaxNesting = 64;                    // { } and initializer braces

// An operand as written, before the opcode gives it meaning.
struct RawOperand {
  enum class Kind : uint8_t { Name, Literal, Address, Vector, Paren, Pair };
  Kind kind = Kind::Name;
  const Token* tok = nullptr;  // first token, for messages
  std::string_view name;       // Name; Address base (empty: absolute)
  bool negate = false;         // !name
  int64_t offset = 0;          // Name+offset (symbol arithmetic), Address displacement
  Literal lit;                 // Literal
  std::vector<RawOperand> elems;  // Vector, Paren, Pair
};

// What a name declared inside a function means.
enum class NameKind : uint8_t { Reg, Pred, KernelParam, FrameParam, Local, Symbol };
struct NameEntry {
  NameKind kind;
  uint32_t value;  // register / predicate index, byte offset, or Module::symbols index
};

using Linkage = ir::Linkage;

struct PendingCall {
  uint32_t function;
  uint32_t call;
  std::string callee;
  uint32_t line;
  size_t numArgs, numRets;
};

// Per-function parsing state.
struct FunctionState {
  uint32_t index = 0;
  std::vector<std::unordered_map<std::string, NameEntry>> scopes;
  std::vector<uint32_t> frameMarks;  // frame-param allocation pointer at each scope entry
  uint32_t frameTop = 0;
  std::unordered_map<std::string, uint32_t> labels;
  struct LabelRef { uint32_t instr; std::string name; uint32_t line; };
  std::vector<LabelRef> labelRefs;
  std::unordered_map<uint64_t, uint32_t> constByValue;
  std::map<std::pair<uint32_t, int64_t>, uint32_t> constBySymbol;
  uint32_t locFile = 0, locLine = 0;
};

class Parser {
 public:
  Parser(std::string_view text, std::string sourceName);
  ir::Module run();

  // ---- token cursor (parser.cpp)
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool accept(Tok k);
  bool acceptDirective(std::string_view d);
  const Token& expect(Tok k, const char* what);
  uint32_t expectUint(const char* what, uint64_t max);
  [[noreturn]] void fail(const Token& at, const std::string& msg) const;
  [[noreturn]] void failLine(uint32_t line, const std::string& msg) const;
  std::string describe(const Token& t) const;

  // ---- module level (parser.cpp)
  void parseModuleItem();
  void parseVersion();
  void parseTarget();
  void parseAddressSize();
  void parseFileDirective();
  void skipSection();
  void resolveCalls();

  // ---- variables (variables.cpp)
  // After the state-space directive: [.align N] [.vN] .type name[dims] [= init] {, name...} ;
  void parseVariable(ir::Space space, Linkage linkage, bool inFunction);

  // ---- functions (function_parser.cpp)
  void parseFunction(bool isEntry, Linkage linkage);
  std::vector<ir::Param> parseParamList();
  void parseBody();
  void parseStatement();
  void parseRegDecl();
  void parseFrameDecl(ir::Space space);  // .local / .param inside a body
  void parsePerfDirectives(ir::Function& fn);
  void parseLoc();
  void pushScope();
  void popScope();
  void declare(const Token& at, const std::string& name, NameEntry e);
  const NameEntry* lookup(std::string_view name) const;
  uint32_t addReg(const std::string& name, ir::Type t);

  // ---- instructions (instruction.cpp, operands.cpp)
  void parseInstruction();
  RawOperand parseRawOperand(unsigned depth);
  uint32_t constReg(uint64_t bits);
  uint32_t symbolConstReg(uint32_t symbol, int64_t offset);
  ir::Function& fn() { return m_.functions[fs_.index]; }

  ir::Module m_;
  std::string file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::unordered_map<std::string, uint32_t> symbolIndex_;
  std::unordered_map<std::string, uint32_t> functionIndex_;
  std::vector<bool> functionDefined_;
  std::vector<PendingCall> pendingCalls_;
  FunctionState fs_;
  bool inFunction_ = false;
  uint64_t moduleRegs_ = 0;       // value and predicate registers of all functions
  uint64_t moduleInitBytes_ = 0;  // initializer bytes of all variables
  bool sawVersion_ = false, sawTarget_ = false;
};

// Final structural checks on a lowered module (verifier.cpp).
void verifyModule(const ir::Module& m, const std::string& file);

}  // namespace warpsim::ptx::detail
