// The value state of one SM's register file under value compression: per physical 32-bit
// warp register, its metadata (G-Scalar's BVR/EBR/D/FS, or BDI's base and delta size, or a
// word-level scalar bit), the lane values it holds, and what every read and write costs in SRAM
// arrays, crossbar bytes and metadata accesses. No timing here: the register-file model
// (gscalar_register_file.cpp) adds ports, latency and statistics.
//
// Physical registers: a 32-bit PTX register is one physical register, a 64-bit one two (low word,
// high word), each compressed on its own; the caller maps (register, word) to a physical index.
//
// Bank geometry (the paper's Fermi bank, digest s1.1/s1.3): 8 SRAM arrays of 128 bits per bank.
// Byte-sliced layout (byte_prefix): array (b, h) holds byte b of lanes 16h..16h+15, so a read of
// a register with n common MSB bytes activates 2 x (4 - n) arrays (half mode: (4-nL) + (4-nH)).
// Lane-sliced layout (baseline, word, bdi): array k holds lanes 4k..4k+3 (all four bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace warpsim::mech::gscalar {

inline constexpr uint32_t kFullMask = 0xFFFFFFFFu;
inline constexpr uint32_t kLowHalf = 0x0000FFFFu;   // lanes 0-15
inline constexpr uint32_t kHighHalf = 0xFFFF0000u;  // lanes 16-31
inline constexpr unsigned kLanes = 32;

enum class Encoding : uint8_t {
  BytePrefix,  // G-Scalar: thermometer code of the common most-significant bytes (0..4)
  Word,        // prior scalar RF: scalar (all lanes equal) or not; scalars live in a scalar RF
  Bdi,         // Warped-Compression: 4-byte base (lane 0) + 0/1/2-byte signed deltas
};

// Lane chosen by the divergent-aware comparator's leading-one detector: the most significant
// set bit of `mask` (mask 0x40FA -> lane 14). -1 for an empty mask.
int leadingOneLane(uint32_t mask);

// Number (0..4) of most-significant bytes equal in every lane of `lanes & mask` (prefix rule: a
// differing byte ends the run even if lower bytes agree). 4 when no lane is selected.
unsigned commonMsbBytes(const uint32_t* values, uint32_t lanes, uint32_t mask);

// enc[3:0] of a count: 0 -> 0b0000, 1 -> 0b1000, 2 -> 0b1100, 3 -> 0b1110, 4 -> 0b1111.
uint8_t thermometer(unsigned commonBytes);

// BDI delta size for 32 lane values with base values[0]: 0 (all equal), 1 or 2 bytes when every
// values[i] - base fits that many signed bytes, 4 when none does (stored uncompressed).
unsigned bdiDeltaBytes(const uint32_t* values);

struct Metadata {
  uint32_t bvr[2] = {0, 0};   // base = lane 0 (half mode: [1] = lane 16); D: [0] = writer's mask
  uint8_t common[2] = {0, 0}; // byte_prefix: common MSB bytes (whole warp in [0]; half mode: lanes
                              // 0-15 in [0], 16-31 in [1]); word: 4 = scalar; bdi: 4 - delta bytes
  bool divergent = false;     // D: last writer was divergent -> stored uncompressed
  bool fullScalar = false;    // FS (half mode): both halves scalar with equal values
  bool written = false;       // never written: read as uncompressed (enc 0000, D 0)
  // With D = 1, in every encoding: bvr[0] = the writer's mask, common[0] = the common MSB bytes
  // of the active lanes (4: divergent scalar), common[1] = 0. Outside half mode bvr[1] and
  // common[1] stay 0.
};

// What one access costs. Arrays are 128-bit SRAM arrays of the register's bank (8 = a full
// 1024-bit access); crossbar bytes are bytes moved between bank and operand collector (reads) or
// write-back path and bank (writes); base bytes are the bytes held outside the arrays.
struct AccessCost {
  uint8_t arrays = 0;
  uint16_t crossbarBytes = 0;
  bool metadata = false;      // the per-bank metadata array (BVR/EBR) was accessed
  bool scalarRf = false;      // word encoding: the access went to the scalar register file
  bool decompressed = false;  // a decompressor / compressor did work
};
// Cost rules (digest s5.3-s5.8), all per access:
//   byte_prefix write, full mask: arrays 2 x (4 - n), crossbar (4 - n) x 32 (half mode:
//     (4-nL) + (4-nH) and (4-nL) x 16 + (4-nH) x 16); the base bytes never cross the crossbar.
//   byte_prefix read, D = 0: the same arrays and bytes, except that a scalar moves its BVR
//     (4 B; half mode with both halves scalar: 4 B with FS, else 8 B). D = 1 or unwritten: 8 / 128.
//   divergent write (any encoding): crossbar 4 x active lanes; byte_prefix arrays 8 (or 4 per
//     half with an active lane), word / bdi the lane-sliced arrays holding an active lane.
//   word: a scalar goes to / comes from the scalar RF (4 B, no arrays); no metadata array and
//     no compressor / decompressor (its word comparator is not counted).
//   bdi: a non-divergent write and read move the stored size (4 + 32 x delta bytes, 128 when
//     uncompressed) through ceil(size / 16) arrays; the base is kept in the arrays.
// A write under mask 0 writes nothing and costs nothing.

// Fig. 8 categories of an operand read.
enum class ReadKind : uint8_t { Scalar, Bytes3, Bytes2, Bytes1, Bytes0, Divergent, kCount };

// Scalar-execution decision for one instruction (digest s5.5).
enum class Scalarity : uint8_t {
  Vector,          // every active lane executes
  Full,            // non-divergent, all sources scalar: one lane executes for the warp
  HalfLow,         // half mode: lanes 0-15 run on one lane, 16-31 as a vector
  HalfHigh,        // half mode: lanes 16-31 run on one lane, 0-15 as a vector
  HalfBoth,        // half mode: both halves scalar with different values: two lanes
  Divergent,       // divergent, all sources scalar under the instruction's mask: one lane
};

struct StateOptions {
  Encoding encoding = Encoding::BytePrefix;
  bool halfRegister = false;          // second BVR/EBR per register (byte_prefix only; the
                                      // RegisterState constructor throws std::invalid_argument
                                      // when set with another encoding)
  bool divergentWriteAllArrays = true;  // byte_prefix divergent write: all 8 arrays (else only
                                        // the halves holding active lanes)
  bool keepStoredForm = true;   // keep the arrays' contents so that decompress() rebuilds from
                                // them (verification); false: decompress() returns the values
};

// One SM's registers: `slots` warp slots x `regsPerSlot` physical registers.
class RegisterState {
 public:
  RegisterState(const StateOptions& options, uint32_t slots, uint32_t regsPerSlot);

  // A warp slot starts (new warp): all its registers become unwritten, values zero.
  void resetSlot(uint32_t slot);

  const Metadata& meta(uint32_t slot, uint32_t reg) const;
  // Lane values the register holds (the shadow of an uncompressed register file).
  const uint32_t* values(uint32_t slot, uint32_t reg) const;

  // Whether a write under `mask` needs the special move first: divergent mask and the register
  // is held compressed (D = 0 and something is kept outside the arrays).
  bool needsSpecialMove(uint32_t slot, uint32_t reg, uint32_t mask) const;
  // The special move: read and decompress the register, write all 32 lanes back uncompressed
  // (D = 0, nothing common). Returns the cost of the read plus the write (arrays and bytes
  // summed; `metadata` set when the encoding has a metadata array: it is read and written once).
  AccessCost specialMove(uint32_t slot, uint32_t reg);

  // A computed result (vector execution) written under `mask` (kFullMask: non-divergent): runs
  // the compressor. A divergent write on a compressed register must be preceded by specialMove
  // (throws std::logic_error otherwise).
  AccessCost write(uint32_t slot, uint32_t reg, const uint32_t* laneValues, uint32_t mask);
  // The result of a scalar execution: `value` broadcast to the active lanes of `mask`; the
  // compressor is skipped (non-divergent: enc 1111, bvr = value; divergent: D 1, enc 1111,
  // bvr = mask). In half mode a HalfBoth/HalfLow/HalfHigh result is written with write().
  AccessCost writeScalar(uint32_t slot, uint32_t reg, uint32_t value, uint32_t mask);

  // An operand read by an instruction executing under `mask`: cost and category (kind may be
  // null). The cost depends on the register only; the kind of a read under a divergent mask is
  // Divergent. Otherwise Scalar / Bytes3..0 by the common MSB bytes of the whole register (half
  // mode: min(nL, nH), or when both halves are scalar without FS the common prefix of the two
  // BVRs); bdi: delta 0 / 1 / 2 / 4 -> Scalar / Bytes3 / Bytes2 / Bytes0; D = 1 -> Divergent.
  AccessCost read(uint32_t slot, uint32_t reg, uint32_t mask, ReadKind* kind) const;
  // Decompresses the register from its stored form (arrays + BVR) into `out` (32 lanes); equals
  // values() whenever the state is consistent (the verification mode checks it on every read).
  void decompress(uint32_t slot, uint32_t reg, uint32_t* out) const;

  // Bytes a write stores (for the compression ratio): in the arrays, outside them (base / BVR),
  // and metadata bits of the encoding.
  struct Stored { uint32_t arrayBytes = 0, baseBytes = 0, metadataBits = 0; };
  Stored stored(uint32_t slot, uint32_t reg) const;

  const StateOptions& options() const { return options_; }

 private:
  size_t at(uint32_t slot, uint32_t reg) const { return size_t{slot} * regsPerSlot_ + reg; }
  bool halfMode() const { return options_.halfRegister; }  // only with BytePrefix (constructor)
  AccessCost writeFull(size_t at, const uint32_t* laneValues);
  void writeActiveLanes(size_t at, const uint32_t* laneValues, uint32_t value, uint32_t mask);
  AccessCost divergentWriteCost(uint32_t mask, bool compressorRan) const;
  void requireNoSpecialMove(uint32_t slot, uint32_t reg, uint32_t mask, const char* what) const;

  StateOptions options_;
  uint32_t regsPerSlot_;
  std::vector<Metadata> meta_;
  // Lane values [slot][reg][lane] and the arrays' bytes [slot][reg][byte][lane] (only with
  // keepStoredForm). Left uninitialised: a register's storage is cleared by its first write (a
  // never-written register reads as zero, as the functional engine's registers start), so a
  // kernel with many registers touches only the pages it uses.
  std::unique_ptr<uint32_t[]> values_;
  std::unique_ptr<uint8_t[]> bytes_;
  uint8_t scratchBytes_[128] = {};    // where byte stores go without keepStoredForm
  uint32_t* valuesAt(size_t i) { return &values_[i * 32]; }
  uint8_t* bytesAt(size_t i) { return bytes_ ? &bytes_[i * 128] : scratchBytes_; }
  void clearIfUnwritten(size_t i);
  // What bytes_ holds per encoding (decompress() rebuilds from it and the metadata only):
  //   byte_prefix D = 0: the non-common low bytes of each lane (common positions are stale);
  //   bdi D = 0, delta d < 4: byte b < d of each lane's signed delta from bvr[0];
  //   word scalar: nothing (the value is bvr[0]); otherwise (unwritten, D = 1, uncompressed):
  //   all four bytes of every lane.
};

// Per-source scalar facts for the eligibility decision.
struct SourceView {
  const Metadata* meta = nullptr;
};

struct ScalarSwitches {
  bool alu = true, sfu = true, mem = true, half = true, divergent = true;
};

enum class ScalarClass : uint8_t { Alu, Sfu, Mem, None };

// The mechanism's decision (digest s5.5) from the sources' metadata: `mask` is the instruction's
// active mask, `cls` its class (None: never scalar, e.g. control flow or atomics), `uniformInputs`
// false when it reads lane-varying inputs that are not registers (tid, laneid, predicate data).
// `halfRegister` enables the half rules. Switches gate the categories (divergent, half, and the
// class of a full scalar).
Scalarity decideScalar(const SourceView* sources, unsigned numSources, uint32_t mask,
                       ScalarClass cls, bool uniformInputs, Encoding encoding,
                       bool halfRegister, const ScalarSwitches& on);

// The oracle: the same decision from the sources' actual lane values (all switches on, half
// rules evaluated from values whatever the register mode).
Scalarity oracleScalar(const uint32_t* const* sourceValues, unsigned numSources, uint32_t mask,
                       ScalarClass cls, bool uniformInputs);

}  // namespace warpsim::mech::gscalar
