#include "mech/caba/caba_assist_warps.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "timing/mem/line_data.h"

namespace warpsim::mech::caba {

CabaAssistWarps::CabaAssistWarps(const Context& context, const MemoryCompressionParams& memory,
                                 const timing::AssistControllerParams& controller,
                                 uint32_t lineBytes)
    : params_(memory),
      lineBytes_(lineBytes),
      memory_(context.memory),
      routines_(lineBytes),
      awc_(routines_.store(), controller, context.schedulers, context.warpSlots) {
  if (memory_ != nullptr) memory_->setReplyListener(this);
}

void CabaAssistWarps::beginKernel(const KernelInfo& kernel) {
  data_ = kernel.memory;
  awc_.beginKernel(kernel.valueRegisters);
  awc_.resetCounters();
  waiting_.clear();
  decompressions_ = waitCycles_ = checked_ = checkFailures_ = notCompressible_ = 0;
}

uint32_t CabaAssistWarps::extraRegistersPerThread() const {
  return routines_.decompressionRegisters();  // the store path is not modelled yet
}

bool CabaAssistWarps::holdReply(uint64_t line, uint32_t, uint8_t format, uint32_t warpSlot,
                                uint32_t ticket, timing::Cycle now) {
  if (format != kCompressedReply || data_ == nullptr) return false;
  const Held h{line, warpSlot, ticket, now};
  const Trigger t = triggerDecompression(h);
  if (t == Trigger::NotCompressed) return false;  // the data changed since the L2 sent it
  if (t == Trigger::TableFull) waiting_.push_back(h);
  if (inFlight_.size() <= ticket) inFlight_.resize(ticket + 1);
  inFlight_[ticket] = h;
  return true;
}

CabaAssistWarps::Trigger CabaAssistWarps::triggerDecompression(const Held& h) {
  timing::mem::readLineData(*data_, h.line, lineBytes_, line_);
  const CompressedLine c = compress(params_.algorithm, line_, lineBytes_, encoded_);
  if (!c.compressible) {
    ++notCompressible_;
    return Trigger::NotCompressed;
  }
  const RoutineChoice r = routines_.decompression(c, encoded_);
  const uint64_t address = h.line;
  if (awc_.trigger(r.routine, h.warpSlot, Priority::High, r.activeMask, encoded_, c.bytes,
                   &address, 1, h.ticket) < 0)
    return Trigger::TableFull;
  ++decompressions_;
  if (params_.check) {
    ++checked_;
    if (std::memcmp(awc_.lastOutput() + lineBytes_, line_, lineBytes_) != 0) ++checkFailures_;
  }
  return Trigger::Started;
}

void CabaAssistWarps::retryWaiting(timing::Cycle now) {
  while (!waiting_.empty()) {
    const Trigger t = triggerDecompression(waiting_.front());
    if (t == Trigger::TableFull) return;  // still no room
    if (t == Trigger::NotCompressed) memory_->releaseReply(waiting_.front().ticket, now);
    waiting_.pop_front();
  }
}

void CabaAssistWarps::releaseFinished(timing::Cycle now) {
  uint64_t cookie;
  while (awc_.popFinished(cookie)) {
    const auto ticket = static_cast<uint32_t>(cookie);
    waitCycles_ += now - inFlight_[ticket].since;
    memory_->releaseReply(ticket, now);
  }
}

bool CabaAssistWarps::next(uint32_t scheduler, Priority priority, timing::Cycle now,
                           timing::AssistInstr& out) {
  if (!waiting_.empty()) retryWaiting(now);
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
  if (!waiting_.empty()) return now;
  return awc_.nextEvent(now);
}

void CabaAssistWarps::reportStats(nlohmann::json& out) const {
  awc_.reportStats(out);
  out["decompressions"] = decompressions_;
  out["decompression_wait_cycles"] = waitCycles_;
  out["changed_before_decompression"] = notCompressible_;
  out["checked"] = checked_;
  out["check_failures"] = checkFailures_;
}

}  // namespace warpsim::mech::caba
