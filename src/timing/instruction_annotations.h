// Per-instruction compiler annotations: side tables that compiler passes (i_ir_pass.h) fill for
// every static instruction of a program and that timing models read in O(1), by the
// instruction's (function, pc), at issue, operand collection and write-back (func::ExecRecord,
// RegisterWrite and WarpProbe::head all carry both).
//
// A pass publishes each table under a name (usually its own) with a record type of its choosing
// (small and trivially copyable: one per instruction). A model that wants a table asks for the
// pass that fills it through its Context's PassRequests at construction; the GPU then runs that
// pass before every launch, and the model looks the table up once per kernel in beginKernel
// (find<T>). Tables are built for every function of the program (a kernel's callees included),
// once per launch, and shared read-only by every SM running it.
//
// Names the core itself reads (records defined here, any pass may publish them):
//   kDescheduleMarks  DescheduleMark per instruction: the two-level warp scheduler demotes a
//                     warp only at marked instructions (demote = "marks").
//   kResourcePhases   ResourcePhase per instruction: the phase of the program the instruction
//                     belongs to and what that phase needs (registers, shared memory); the SM
//                     tells a warp-granular resource manager when a warp enters another phase.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpsim::timing {

// One table: a record of type T for each instruction of each function.
template <class T>
class AnnotationTable {
  static_assert(std::is_trivially_copyable_v<T>, "annotation records are plain data");

 public:
  // codeSizes[f]: instructions of function f.
  explicit AnnotationTable(const std::vector<uint32_t>& codeSizes) {
    first_.reserve(codeSizes.size() + 1);
    size_t n = 0;
    for (uint32_t s : codeSizes) {
      first_.push_back(n);
      n += s;
    }
    first_.push_back(n);
    records_.assign(n, T{});
  }
  const T& at(uint32_t function, uint32_t pc) const { return records_[first_[function] + pc]; }
  T& at(uint32_t function, uint32_t pc) { return records_[first_[function] + pc]; }
  uint32_t functions() const { return static_cast<uint32_t>(first_.size() - 1); }
  uint32_t size(uint32_t function) const {
    return static_cast<uint32_t>(first_[function + 1] - first_[function]);
  }

 private:
  std::vector<size_t> first_;
  std::vector<T> records_;
};

class InstructionAnnotations {
 public:
  // Code sizes of the program's functions (set by whoever owns the tables, before passes run).
  void setCodeSizes(std::vector<uint32_t> codeSizes) { codeSizes_ = std::move(codeSizes); }
  // A new table `name`, every record T{}; replaces an earlier table of that name.
  template <class T>
  AnnotationTable<T>& add(std::string name) {
    auto holder = std::make_unique<Holder<T>>(codeSizes_);
    AnnotationTable<T>& table = holder->table;
    for (auto& [n, h] : tables_) {
      if (n == name) {
        h = std::move(holder);
        return table;
      }
    }
    tables_.emplace_back(std::move(name), std::move(holder));
    return table;
  }
  // The table `name` with records of type T, or nullptr (absent, or of another type).
  template <class T>
  const AnnotationTable<T>* find(std::string_view name) const {
    for (const auto& [n, h] : tables_) {
      if (n != name) continue;
      const auto* typed = dynamic_cast<const Holder<T>*>(h.get());
      return typed ? &typed->table : nullptr;
    }
    return nullptr;
  }
  bool empty() const { return tables_.empty(); }

 private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <class T>
  struct Holder final : HolderBase {
    explicit Holder(const std::vector<uint32_t>& sizes) : table(sizes) {}
    AnnotationTable<T> table;
  };
  std::vector<uint32_t> codeSizes_;
  std::vector<std::pair<std::string, std::unique_ptr<HolderBase>>> tables_;
};

// The compiler passes the models of one SM need (each name once, in the order first asked).
class PassRequests {
 public:
  void require(std::string_view pass) {
    for (const std::string& n : names_)
      if (n == pass) return;
    names_.emplace_back(pass);
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// Core table kDescheduleMarks: where a warp may leave the two-level scheduler's active set.
inline constexpr const char* kDescheduleMarks = "deschedule_marks";
struct DescheduleMark {
  // The instruction begins a region whose values above the main register file are gone (a
  // compiler-managed strand): a warp whose next instruction is marked and that waits for a
  // long-latency result (or a barrier) is moved to the pending pool; unmarked instructions
  // never demote.
  bool boundary = false;
};


// Core table kResourcePhases: a program cut into phases whose resource needs differ (a pass
// decides where); a resource manager that allocates per warp and per phase
// (i_resource_manager.h) hears from the SM when a warp's next instruction belongs to another
// phase than its last one, and when it waits at a barrier.
inline constexpr const char* kResourcePhases = "resource_phases";
// Registers are grouped into sets of this many per thread (a set of a warp: 4 x 32 lanes).
inline constexpr uint32_t kRegistersPerSet = 4;
struct ResourcePhase {
  // Program-wide phase id, 1.. (0: the instruction is in no phase; the SM ignores it).
  uint32_t phase = 0;
  // The phase's needs (the same in every instruction of the phase): bit s = the phase uses
  // registers kRegistersPerSet*s .. kRegistersPerSet*s+3 (live across it or accessed in it);
  // static shared-memory bytes live in it (per CTA); whether the dynamic shared area is live.
  uint64_t registerSets = 0;
  uint32_t sharedBytes = 0;
  bool sharedDynamic = false;
  // The instruction's own register sets (sources and destinations).
  uint64_t instructionSets = 0;
  // The phase begins at this instruction with a phase specifier (an explicit boundary).
  bool specifier = false;
  // The instruction is a barrier or a memory fence (an implicit boundary).
  bool barrier = false;
};

}  // namespace warpsim::timing
