#include "mech/caba/caba_assist_warps.h"

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "timing/mem/line_data.h"

namespace warpsim::mech::caba {

CabaAssistWarps::CabaAssistWarps(const Context& context, const MemoryCompressionParams& memory,
                                 const timing::AssistControllerParams& controller,
                                 uint32_t lineBytes, uint32_t storeBufferLines, bool directLoad)
    : params_(memory),
      lineBytes_(lineBytes),
      memory_(context.memory),
      routines_(lineBytes),
      awc_(routines_.store(), controller, context.schedulers, context.warpSlots),
      storeBufferLines_(storeBufferLines),
      directLoad_(directLoad) {
  if (memory_ != nullptr) {
    memory_->setReplyListener(this);
    memory_->setStoreListener(this);
  }
}

namespace {
// Finished routines name what they served: a held reply's ticket, a held store's compression
// with this bit, a refused store's decompression with the next.
constexpr uint64_t kStoreCookie = uint64_t{1} << 32;
constexpr uint64_t kRedoCookie = uint64_t{1} << 33;
}  // namespace

void CabaAssistWarps::beginKernel(const KernelInfo& kernel) {
  data_ = kernel.memory;
  awc_.beginKernel(kernel.valueRegisters);
  awc_.resetCounters();
  waiting_.clear();
  redosWaiting_.clear();
  storesRedone_ = redoDecompressions_ = directLoads_ = 0;
  decompressions_ = waitCycles_ = checked_ = checkFailures_ = notCompressible_ = 0;
  compressions_ = storesCompressed_ = storeBufferOverflows_ = storeWaitCycles_ = 0;
}

uint32_t CabaAssistWarps::extraRegistersPerThread() const {
  const uint32_t compress = routines_.store().registers(routines_.compression(params_.algorithm).routine);
  return std::max(routines_.decompressionRegisters(), compress);
}

bool CabaAssistWarps::bufferStore(uint64_t line, uint32_t warpSlot, uint32_t ticket,
                                  timing::Cycle now) {
  if (data_ == nullptr) return false;
  if (storesHeld_ >= storeBufferLines_) {  // no room in the store buffer: it leaves plain
    ++storeBufferOverflows_;
    return false;
  }
  if (storesInFlight_.size() <= ticket) storesInFlight_.resize(ticket + 1);
  storesInFlight_[ticket] = Held{line, warpSlot, ticket, now, 0};
  ++storesHeld_;
  return true;
}

bool CabaAssistWarps::holdStore(uint64_t line, uint32_t warpSlot, uint32_t ticket,
                                timing::Cycle now) {
  if (!bufferStore(line, warpSlot, ticket, now)) return false;
  if (!triggerCompression(ticket)) storesWaiting_.push_back(ticket);
  return true;
}

bool CabaAssistWarps::redoStore(uint64_t line, uint8_t format, uint32_t warpSlot, uint32_t ticket,
                                timing::Cycle now) {
  if (format != kCompressedReply || !bufferStore(line, warpSlot, ticket, now)) return false;
  ++storesRedone_;
  const Trigger t = triggerDecompression(storesInFlight_[ticket], Priority::Low, kRedoCookie | ticket);
  if (t == Trigger::TableFull) redosWaiting_.push_back(ticket);
  if (t == Trigger::NotCompressed) compressRedone(ticket);
  return true;
}

void CabaAssistWarps::compressRedone(uint32_t ticket) {
  if (!triggerCompression(ticket)) storesWaiting_.push_back(ticket);
}

void CabaAssistWarps::retryRedos() {
  while (!redosWaiting_.empty()) {
    const uint32_t ticket = redosWaiting_.front();
    const Trigger t =
        triggerDecompression(storesInFlight_[ticket], Priority::Low, kRedoCookie | ticket);
    if (t == Trigger::TableFull) return;
    if (t == Trigger::NotCompressed) compressRedone(ticket);
    redosWaiting_.pop_front();
  }
}

bool CabaAssistWarps::triggerCompression(uint32_t ticket) {
  Held& h = storesInFlight_[ticket];
  timing::mem::readLineData(*data_, h.line, lineBytes_, line_);
  const CompressedLine c = compress(params_.algorithm, line_, lineBytes_, encoded_);
  const RoutineChoice r = routines_.compression(params_.algorithm);
  const uint64_t address = h.line;
  if (awc_.trigger(r.routine, h.warpSlot, Priority::Low, r.activeMask, line_, lineBytes_,
                   &address, 1, kStoreCookie | ticket) < 0)
    return false;
  ++compressions_;
  h.bytes = c.compressible ? c.bytes : 0;
  if (params_.check) {
    // The routine writes the encoded line after the plain one (BestOfAll runs BDI's routine).
    const Algorithm ran = params_.algorithm == Algorithm::BestOfAll ? Algorithm::BdiCaba
                                                                   : params_.algorithm;
    const CompressedLine e =
        ran == params_.algorithm ? c : compress(ran, line_, lineBytes_, encoded_);
    const uint8_t* out = awc_.lastOutput() + lineBytes_;
    ++checked_;
    if (e.compressible ? std::memcmp(out, encoded_, e.bytes) != 0 : out[0] != 0xFF)
      ++checkFailures_;
  }
  return true;
}

void CabaAssistWarps::retryStores() {
  while (!storesWaiting_.empty() && triggerCompression(storesWaiting_.front()))
    storesWaiting_.pop_front();
}

bool CabaAssistWarps::holdReply(uint64_t line, uint32_t, uint8_t format, uint32_t warpSlot,
                                uint32_t ticket, timing::Cycle now) {
  if (format != kCompressedReply || data_ == nullptr) return false;
  const Held h{line, warpSlot, ticket, now};
  const Trigger t = triggerDecompression(h, Priority::High, ticket);
  if (t == Trigger::NotCompressed) return false;  // the data changed since the L2 sent it
  if (t == Trigger::TableFull) waiting_.push_back(h);
  if (inFlight_.size() <= ticket) inFlight_.resize(ticket + 1);
  inFlight_[ticket] = h;
  return true;
}

CabaAssistWarps::Trigger CabaAssistWarps::triggerDecompression(const Held& h, Priority priority,
                                                              uint64_t cookie) {
  timing::mem::readLineData(*data_, h.line, lineBytes_, line_);
  const CompressedLine c = compress(params_.algorithm, line_, lineBytes_, encoded_);
  if (!c.compressible) {
    ++notCompressible_;
    return Trigger::NotCompressed;
  }
  const bool direct =
      directLoad_ && priority == Priority::High && c.algorithm == Algorithm::BdiCaba;
  if (direct) {
    const RoutineChoice r = routines_.directLoad(encoded_);
    const uint32_t staged = bdiDirectLoadStaging(encoded_, lineBytes_, staging_);
    if (awc_.trigger(r.routine, h.warpSlot, priority, r.activeMask, staging_, staged, nullptr, 0,
                     cookie) < 0)
      return Trigger::TableFull;
    ++directLoads_;
  } else {
    const RoutineChoice r = routines_.decompression(c, encoded_);
    const uint64_t address = h.line;
    if (awc_.trigger(r.routine, h.warpSlot, priority, r.activeMask, encoded_, c.bytes, &address,
                     1, cookie) < 0)
      return Trigger::TableFull;
  }
  ++(priority == Priority::High ? decompressions_ : redoDecompressions_);
  if (params_.check) {
    ++checked_;
    if (std::memcmp(awc_.lastOutput() + lineBytes_, line_, lineBytes_) != 0) ++checkFailures_;
  }
  return Trigger::Started;
}

void CabaAssistWarps::retryWaiting(timing::Cycle now) {
  while (!waiting_.empty()) {
    const Trigger t = triggerDecompression(waiting_.front(), Priority::High, waiting_.front().ticket);
    if (t == Trigger::TableFull) return;  // still no room
    if (t == Trigger::NotCompressed) memory_->releaseReply(waiting_.front().ticket, now);
    waiting_.pop_front();
  }
}

void CabaAssistWarps::releaseFinished(timing::Cycle now) {
  uint64_t cookie;
  while (awc_.popFinished(cookie)) {
    const auto ticket = static_cast<uint32_t>(cookie);
    if ((cookie & kRedoCookie) != 0) {  // a refused store's line is whole again: compress it
      compressRedone(ticket);
      continue;
    }
    if ((cookie & kStoreCookie) != 0) {
      const Held& h = storesInFlight_[ticket];
      storeWaitCycles_ += now - h.since;
      if (h.bytes != 0) ++storesCompressed_;
      --storesHeld_;
      memory_->releaseStore(ticket, h.bytes != 0 ? kCompressedReply : 0,
                            h.bytes != 0 ? h.bytes : lineBytes_, now);
      continue;
    }
    waitCycles_ += now - inFlight_[ticket].since;
    memory_->releaseReply(ticket, now);
  }
}

bool CabaAssistWarps::next(uint32_t scheduler, Priority priority, timing::Cycle now,
                           timing::AssistInstr& out) {
  if (!waiting_.empty()) retryWaiting(now);
  if (!redosWaiting_.empty()) retryRedos();
  if (!storesWaiting_.empty()) retryStores();
  const bool r = awc_.next(scheduler, priority, now, out);
  return r;
}

void CabaAssistWarps::onIssued(const timing::AssistInstr& instr, timing::Cycle now) {
  awc_.onIssued(instr, now);
}

void CabaAssistWarps::onCompleted(uint32_t tag, timing::Cycle now) {
  awc_.onCompleted(tag, now);
  releaseFinished(now);
}

bool CabaAssistWarps::blocksWarp(uint32_t slot) const { return awc_.blocksWarp(slot); }

timing::Cycle CabaAssistWarps::nextEvent(timing::Cycle now) const {
  if (!waiting_.empty() || !storesWaiting_.empty() || !redosWaiting_.empty()) return now;
  return awc_.nextEvent(now);
}

void CabaAssistWarps::reportStats(nlohmann::json& out) const {
  awc_.reportStats(out);
  out["decompressions"] = decompressions_;
  out["decompression_wait_cycles"] = waitCycles_;
  out["changed_before_decompression"] = notCompressible_;
  out["compressions"] = compressions_;
  out["stores_compressed"] = storesCompressed_;
  out["store_buffer_overflows"] = storeBufferOverflows_;
  out["store_wait_cycles"] = storeWaitCycles_;
  out["stores_redone"] = storesRedone_;
  out["redo_decompressions"] = redoDecompressions_;
  out["direct_loads"] = directLoads_;
  out["checked"] = checked_;
  out["check_failures"] = checkFailures_;
}

}  // namespace warpsim::mech::caba
