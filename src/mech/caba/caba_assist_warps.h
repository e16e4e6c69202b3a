// "caba": the assist warps of the CABA designs ([sm.assist_warp] impl = "caba"), one per SM.
//
// Load path (digest B.6): a read reply that reaches the SM compressed (the memory model's
// agent = "assist-warp") is held by the SM's memory pipeline: its line is not filled and every
// load waiting for it stays in the load/store unit. The line's bytes are compressed with the
// configured algorithm from the real data (what the L2 sent), the decompression routine of its
// encoding is triggered at high priority for the requesting warp (which may not issue until it
// is done), runs functionally on those bytes (its output is checked against the functional
// memory when [compression] check is on), and when its last instruction completes the reply is
// released: the L1 fill completes and the waiting loads resume. A full assist warp table makes
// the trigger wait (retried every cycle); the line cannot be used undecompressed.
//
// Store path (digest B.6): a write-through store of a whole global line is held in the SM's
// store buffer (store_buffer_lines, in dedicated L1 sets) while a low-priority assist warp runs
// the compression routine on the line's real data for the storing warp (in idle issue slots
// only); when it completes, the line leaves compressed (its compressed size on the request
// network, the L2 keeps it compressed) or, incompressible, plain. A full store buffer sends the
// store plain at once (an overflow: the L2 and DRAM then hold the line uncompressed until an SM
// sends it compressed again). Stores of parts of lines leave plain.
//
// Partial writes (digest B.6): a plain store of part of a line the L2 holds compressed is
// refused there and the line comes back compressed (the memory model's refusesWrite); the SM
// holds the whole line in its store buffer, a low-priority assist warp decompresses it (the
// store merges into it) and the compression routine follows, as for a whole-line store; the
// whole line then leaves compressed or plain. With the store buffer full it leaves plain at
// once.
//
// Direct-Load (direct_load, with l1.keep_fill_form; digest B.9): the L1 keeps lines compressed
// and every load of a BDI line, from a fill or an L1 hit, runs the encoding's Direct-Load routine
// instead of decompressing the line: the coalescer hands it the deltas and the base, and it only
// adds them (bdi_routines.h). Lines of other algorithms (BestOfAll) are decompressed as before.
//
// Registers: the store's largest routine adds its registers to every thread's requirement
// (extraRegistersPerThread), as the compiler reserves them for enabled routines.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>

#include "mech/caba/memory_params.h"
#include "mech/caba/routines/bdi_routines.h"
#include "mech/caba/routines/caba_routines.h"
#include "timing/sm/assist/assist_warp_controller.h"
#include "timing/sm/i_assist_warp.h"

namespace warpsim::mech::caba {

class CabaAssistWarps final : public timing::IAssistWarp,
                              private timing::ReplyListener,
                              private timing::StoreListener {
 public:
  CabaAssistWarps(const Context& context, const MemoryCompressionParams& memory,
                  const timing::AssistControllerParams& controller, uint32_t lineBytes,
                  uint32_t storeBufferLines, bool directLoad = false);

  bool active() const override { return true; }
  void beginKernel(const KernelInfo& kernel) override;
  uint32_t extraRegistersPerThread() const override;
  bool next(uint32_t scheduler, Priority priority, timing::Cycle now,
            timing::AssistInstr& out) override;
  void onIssued(const timing::AssistInstr& instr, timing::Cycle now) override;
  void onCompleted(uint32_t tag, timing::Cycle now) override;
  bool blocksWarp(uint32_t slot) const override;
  timing::Cycle nextEvent(timing::Cycle now) const override;
  void reportStats(nlohmann::json& out) const override;

 private:
  struct Held {
    uint64_t line = 0;
    uint32_t warpSlot = 0, ticket = 0;
    timing::Cycle since = 0;
    uint32_t bytes = 0;  // a store: its compressed size (0: it leaves plain)
  };
  bool holdReply(uint64_t line, uint32_t sectors, uint8_t format, uint32_t warpSlot,
                 uint32_t ticket, timing::Cycle now) override;
  bool holdStore(uint64_t line, uint32_t warpSlot, uint32_t ticket, timing::Cycle now) override;
  bool redoStore(uint64_t line, uint8_t format, uint32_t warpSlot, uint32_t ticket,
                 timing::Cycle now) override;
  // Takes a store-buffer entry for held store `ticket`; false: the buffer is full (an overflow).
  bool bufferStore(uint64_t line, uint32_t warpSlot, uint32_t ticket, timing::Cycle now);
  // Triggers the compression of held store `ticket`; false: the table is full.
  bool triggerCompression(uint32_t ticket);
  void retryStores();
  enum class Trigger : uint8_t { Started, TableFull, NotCompressed };
  // Triggers the decompression of the line of a held reply (high priority, the reply's ticket)
  // or of a refused store (low priority, ticket | kRedoCookie); NotCompressed: its data changed
  // since the L2 sent it and no longer compresses, it is used as it is.
  Trigger triggerDecompression(const Held& h, Priority priority, uint64_t cookie);
  // The refused store's line is decompressed (or needed no decompression): compress it next.
  void compressRedone(uint32_t ticket);
  void retryRedos();
  void retryWaiting(timing::Cycle now);
  void releaseFinished(timing::Cycle now);

  const MemoryCompressionParams params_;
  const uint32_t lineBytes_;
  timing::SmMemory* memory_;
  const func::DeviceMemory* data_ = nullptr;
  CabaRoutines routines_;
  timing::AssistWarpController awc_;
  std::deque<Held> waiting_;       // held replies the table had no room for yet
  std::vector<Held> inFlight_;     // by ticket: held replies being decompressed
  const uint32_t storeBufferLines_;
  const bool directLoad_;
  std::deque<uint32_t> storesWaiting_;  // tickets of held stores the table had no room for yet
  std::vector<Held> storesInFlight_;  // by ticket: held stores (the store buffer)
  std::deque<uint32_t> redosWaiting_;   // refused stores whose decompression waits for the table
  uint32_t storesHeld_ = 0;
  uint8_t line_[128] = {}, encoded_[128] = {};
  uint8_t staging_[kBdiDirectLoadDeltas + 128] = {};  // a Direct-Load routine's inputs
  uint64_t decompressions_ = 0, waitCycles_ = 0, checked_ = 0, checkFailures_ = 0,
           notCompressible_ = 0;
  uint64_t compressions_ = 0, storesCompressed_ = 0, storeBufferOverflows_ = 0,
           storeWaitCycles_ = 0, storesRedone_ = 0, redoDecompressions_ = 0, directLoads_ = 0;
};

}  // namespace warpsim::mech::caba
