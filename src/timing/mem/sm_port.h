// An SM's door to the request network: builds packets and injects them into the SM's input
// port, routed to the L2 slice of the address's channel. The caches of the SM check room()
// before they commit to anything that sends.
#pragma once
#include <cstdint>

#include "ir/types.h"
#include "timing/mem/crossbar.h"
#include "timing/mem/i_address_mapping.h"
#include "timing/mem/line_routing.h"
#include "timing/mem/packet.h"

namespace warpsim::timing::mem {

// What the requester knows about a request (for the policy hooks below it).
struct RequestOrigin {
  uint32_t pc = 0;
  uint32_t cta = 0;
  uint8_t warp = 0;      // warp within its CTA
  uint8_t warpSlot = 0;  // the warp's slot on its SM
  ir::Space space = ir::Space::Global;
};

class SmPort {
 public:
  SmPort(uint32_t sm, Crossbar& requests, PacketPool& pool, const IAddressMapping& mapping,
         uint32_t slicesPerChannel)
      : sm_(sm),
        requests_(requests),
        pool_(pool),
        mapping_(mapping),
        slicesPerChannel_(slicesPerChannel),
        granule_(mapping.granuleBytes()) {}

  uint32_t sm() const { return sm_; }
  // Packets the input port can take now.
  uint32_t room() const { return requests_.inputRoom(sm_); }
  void noteStall() { requests_.noteStall(); }

  // Sends a request; the caller checked room(). Write-type requests count in writesSent().
  void send(PacketKind kind, uint64_t addr, uint32_t sectors, uint32_t bytes, ReplyTo replyTo,
            uint32_t tag, const RequestOrigin& origin, uint32_t atomicOps = 1,
            uint8_t format = 0) {
    const uint32_t i = pool_.allocate();
    Packet& p = pool_[i];
    p.addr = addr;
    p.sectors = sectors;
    p.bytes = bytes;
    p.kind = kind;
    p.replyTo = replyTo;
    p.tag = tag;
    p.sm = static_cast<uint16_t>(sm_);
    p.pc = origin.pc;
    p.cta = origin.cta;
    p.warp = origin.warp;
    p.warpSlot = origin.warpSlot;
    p.space = origin.space;
    p.atomicOps = static_cast<uint16_t>(atomicOps);
    p.format = format;
    const DramAddress where = mapping_.map(addr);
    p.slice = static_cast<uint16_t>(sliceOf(where, granule_, slicesPerChannel_));
    p.port = p.slice;
    if (kind == PacketKind::Write || kind == PacketKind::Reduction) ++writesSent_;
    if (kind != PacketKind::Writeback) ++awaited_;
    requests_.inject(sm_, i);
  }

  uint64_t writesSent() const { return writesSent_; }
  // Replies on their way (every request but a write-back gets one).
  uint32_t awaited() const { return awaited_; }
  void replyTaken() { --awaited_; }

 private:
  uint32_t sm_;
  Crossbar& requests_;
  PacketPool& pool_;
  const IAddressMapping& mapping_;
  uint32_t slicesPerChannel_;
  uint32_t granule_;
  uint64_t writesSent_ = 0;
  uint32_t awaited_ = 0;
};

}  // namespace warpsim::timing::mem
