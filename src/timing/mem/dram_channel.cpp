#include "timing/mem/dram_channel.h"

#include <algorithm>

namespace warpsim::timing::mem {

DramChannel::DramChannel(const DramParams& params, uint32_t slices)
    : params_(params),
      banks_(params.banks),
      openRowWanted_(params.banks, 0),
      queuedReads_(slices, 0) {
  queue_.reserve(params.queueDepth);
  // Refresh concerns rows: the ideal row buffer has none to close.
  if (params.tREFI > 0 && !params.idealRowBuffer) {
    refreshInterval_ = perBank_ ? params.tREFI / params.banks : params.tREFI;
    refreshDue_ = refreshInterval_;
  }
  done_.reserve(slices);
  // Reads waiting plus reads on their way back: at most one completes per burst.
  const uint32_t returning = params.returnLatency / std::max<uint32_t>(params.burstCycles, 1) + 1;
  for (uint32_t s = 0; s < slices; ++s) done_.emplace_back(2 * params.queueDepth + returning + 16);
}

bool DramChannel::canAccept(uint32_t slice, uint32_t reads, uint32_t writes) const {
  if (queue_.size() + reads + writes > params_.queueDepth) return false;
  return queuedReads_[slice] + done_[slice].size() + reads <= done_[slice].capacity();
}

void DramChannel::enqueue(const DramRequest& request) {
  hint_ = 0;
  queue_.push_back(request);
  queue_.back().activated = false;
  if (!request.write) ++queuedReads_[request.slice];
}

bool DramChannel::completionsEmpty() const {
  for (const auto& d : done_) {
    if (!d.empty()) return false;
  }
  return true;
}

DramStats DramChannel::statsAt(Cycle now) const {
  if (now <= refreshDue_) return stats_;
  DramChannel idle(*this);  // off the per-cycle path: only when statistics are read
  idle.refreshUpTo(now);
  return idle.stats_;
}

void DramChannel::cycle(Cycle now) {
  if (queue_.empty() || now < hint_) return;
  if (now >= refreshDue_) {  // kNever unless refresh is modelled
    if (refreshUpTo(now + 1)) {
      hint_ = now + 1;  // REF or PRE at `now`
      return;
    }
    if (now >= refreshDue_) {
      // Still refreshing: all-bank, no ACT or column command; per-bank, none to that bank.
      if (!perBank_) {
        hint_ = refreshNext_;
        return;
      }
      refreshingBank_ = refreshBank_;
    }
  }
  Cycle earliest = kNever;
  if (tryColumn(now, earliest) || (!params_.idealRowBuffer && tryRowCommand(now, earliest))) {
    hint_ = now + 1;
  } else {
    hint_ = std::max(earliest, now + 1);
  }
  // The next refresh command (> now here): the pending one's, or the next due cycle.
  hint_ = std::min(hint_, refreshingBank_ == kNoBank ? refreshDue_ : refreshNext_);
  refreshingBank_ = kNoBank;
}

bool DramChannel::refreshUpTo(Cycle to) {
  Cycle c = std::max(refreshDue_, refreshCursor_);
  bool issuedLast = false;
  while (c < to) {
    if (perBank_ && c == refreshDue_ && openBanks_ == 0 && allBanksActivatableAt(c)) {
      // Every bank closed and free: each per-bank refresh due in [c, to) issues REFpb at its due
      // cycle (tRFCpb < tREFI: a bank's next one is due after its last has ended).
      const Cycle n = (to - 1 - c) / refreshInterval_ + 1;
      const Cycle last = c + (n - 1) * refreshInterval_;
      stats_.refreshes += n;
      stats_.refreshCycles += n * params_.tRFCpb;
      // The last refresh of each bank refreshed (at most one round) sets its actAllowed.
      const Cycle rounds = std::min<Cycle>(n, banks_.size());
      for (Cycle i = n - rounds; i < n; ++i) {
        banks_[(refreshBank_ + i) % banks_.size()].actAllowed =
            c + i * refreshInterval_ + params_.tRFCpb;
      }
      refreshBank_ = static_cast<uint32_t>((refreshBank_ + n) % banks_.size());
      refreshDue_ = last + refreshInterval_;
      issuedLast = last == to - 1;
      c = refreshDue_;
      break;
    }
    if (!perBank_ && banksIdle_ && c == refreshDue_ && refreshEnd_ <= c) {
      // No ACT since the last REF: each refresh due in [c, to) issues REF at its due cycle
      // (tRFC < tREFI), so they are counted at once however long the channel was idle.
      const Cycle n = (to - 1 - c) / refreshInterval_ + 1;
      const Cycle last = c + (n - 1) * refreshInterval_;
      stats_.refreshes += n;
      stats_.refreshCycles += n * params_.tRFC;
      refreshEnd_ = last + params_.tRFC;
      for (Bank& b : banks_) b.actAllowed = refreshEnd_;
      refreshDue_ = last + refreshInterval_;
      issuedLast = last == to - 1;
      c = refreshDue_;
      break;
    }
    Cycle earliest = kNever;
    if (refreshCommand(c, earliest)) {
      issuedLast = c == to - 1;
      c = std::max(c + 1, refreshDue_);  // after a REF: the next refresh's due cycle
    } else {
      issuedLast = false;
      c = earliest;
    }
  }
  refreshCursor_ = to;
  refreshNext_ = c;
  return issuedLast;
}

bool DramChannel::allBanksActivatableAt(Cycle c) const {
  for (const Bank& b : banks_) {
    if (b.actAllowed > c) return false;
  }
  return true;
}

bool DramChannel::refreshBankCommand(Cycle now, Cycle& earliest) {
  Bank& b = banks_[refreshBank_];
  if (b.open) {
    if (now < b.prechargeAllowed) {
      earliest = std::min(earliest, b.prechargeAllowed);
      return false;
    }
    precharge(b, now);
    return true;
  }
  // REFpb once the bank could take an ACT (tRP after its PRE, tRC after its ACT).
  if (now < b.actAllowed) {
    earliest = std::min(earliest, b.actAllowed);
    return false;
  }
  b.actAllowed = now + params_.tRFCpb;
  ++stats_.refreshes;
  stats_.refreshCycles += b.actAllowed - refreshDue_;
  refreshDue_ += refreshInterval_;
  refreshBank_ = (refreshBank_ + 1) % static_cast<uint32_t>(banks_.size());
  return true;
}

bool DramChannel::refreshCommand(Cycle now, Cycle& earliest) {
  if (perBank_) return refreshBankCommand(now, earliest);
  if (openBanks_ > 0) {
    for (Bank& b : banks_) {  // lowest-numbered first
      if (!b.open) continue;
      if (now < b.prechargeAllowed) {
        earliest = std::min(earliest, b.prechargeAllowed);
        continue;
      }
      precharge(b, now);
      return true;
    }
    return false;
  }
  // Every bank closed: REF once each could take an ACT (tRP after its PRE, tRC after its ACT).
  Cycle at = 0;
  for (const Bank& b : banks_) at = std::max(at, b.actAllowed);
  if (now < at) {
    earliest = std::min(earliest, at);
    return false;
  }
  refreshEnd_ = now + params_.tRFC;
  ++stats_.refreshes;
  stats_.refreshCycles += refreshEnd_ - refreshDue_;
  for (Bank& b : banks_) b.actAllowed = refreshEnd_;
  refreshDue_ += refreshInterval_;
  banksIdle_ = true;
  return true;
}

void DramChannel::precharge(Bank& b, Cycle now) {
  b.open = false;
  b.actAllowed = std::max(b.actAllowed, now + params_.tRP);
  --openBanks_;
  ++stats_.precharges;
}

bool DramChannel::tryColumn(Cycle now, Cycle& earliest) {
  if (params_.idealRowBuffer && params_.scheduler != DramScheduler::Fcfs) {
    return tryColumnEarliestData(now, earliest);
  }
  const size_t considered = params_.scheduler == DramScheduler::Fcfs ? 1 : queue_.size();
  for (size_t i = 0; i < considered; ++i) {
    const DramRequest& r = queue_[i];
    const Bank& b = banks_[r.bank];
    if ((!b.open || b.row != r.row) && !params_.idealRowBuffer) continue;
    if (r.bank == refreshingBank_) continue;  // per-bank refresh due: the bank serves nothing
    const Cycle latency = r.write ? params_.tWL : params_.tCL;
    const Cycle at = std::max({b.columnAllowed, busFree_ > latency ? busFree_ - latency : 0,
                               columnTurn_[r.write]});
    if (now < at) {
      earliest = std::min(earliest, at);
      continue;
    }
    issueColumn(i, now);
    return true;
  }
  return false;
}

bool DramChannel::tryColumnEarliestData(Cycle now, Cycle& earliest) {
  size_t best = queue_.size();
  Cycle bestAt = 0, bestData = kNever;
  for (size_t i = 0; i < queue_.size(); ++i) {
    const DramRequest& r = queue_[i];
    const Cycle latency = r.write ? params_.tWL : params_.tCL;
    const Cycle at = std::max({now, banks_[r.bank].columnAllowed,
                               busFree_ > latency ? busFree_ - latency : 0, columnTurn_[r.write]});
    // Earliest data first; on a tie the earlier command (a read: a write after it leaves the bus
    // no gap, a read after a write does), then the oldest.
    if (at + latency < bestData || (at + latency == bestData && at < bestAt)) {
      best = i;
      bestAt = at;
      bestData = at + latency;
    }
  }
  if (best == queue_.size()) return false;
  if (now < bestAt) {
    earliest = std::min(earliest, bestAt);
    return false;
  }
  issueColumn(best, now);
  return true;
}

void DramChannel::issueColumn(size_t index, Cycle now) {
  const DramRequest r = queue_[index];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
  Bank& b = banks_[r.bank];
  const Cycle busy = Cycle{r.bursts} * params_.burstCycles;
  const Cycle dataEnd = now + (r.write ? params_.tWL : params_.tCL) + busy;
  busFree_ = dataEnd;
  b.columnAllowed = std::max(b.columnAllowed, now + busy);
  stats_.busyCycles += busy;
  if (r.activated) {
    ++stats_.rowMisses;
  } else {
    ++stats_.rowHits;
  }
  if (r.write) {
    stats_.writeBursts += r.bursts;
    b.prechargeAllowed = std::max(b.prechargeAllowed, dataEnd + params_.tWR);
    if (params_.tWTR > 0) columnTurn_[0] = dataEnd + params_.tWTR;  // data ends in issue order
  } else {
    stats_.readBursts += r.bursts;
    b.prechargeAllowed = std::max(b.prechargeAllowed, now + busy);
    columnTurn_[1] = now + params_.tRTW;
    --queuedReads_[r.slice];
    const Cycle back = dataEnd + params_.returnLatency;
    const Cycle visible = receiverClock_ == nullptr
                              ? back
                              : receiverClock_->firstCycleAtOrAfter(ownClock_->timeOf(back));
    done_[r.slice].push(DramCompletion{back, visible, r.line, r.sectors, r.tag, r.delay, r.sent});
  }
}

bool DramChannel::tryRowCommand(Cycle now, Cycle& earliest) {
  const bool fcfs = params_.scheduler == DramScheduler::Fcfs;
  if (!fcfs) {
    // Banks whose open row some request still wants: they are not precharged.
    std::fill(openRowWanted_.begin(), openRowWanted_.end(), 0);
    for (const DramRequest& r : queue_) {
      const Bank& b = banks_[r.bank];
      if (b.open && b.row == r.row) openRowWanted_[r.bank] = 1;
    }
  }
  const size_t considered = fcfs ? 1 : queue_.size();
  for (size_t i = 0; i < considered; ++i) {
    DramRequest& r = queue_[i];
    if (r.bank == refreshingBank_) continue;  // the refresh precharges it, nothing else
    Bank& b = banks_[r.bank];
    if (b.open) {
      if (b.row == r.row || (!fcfs && openRowWanted_[r.bank])) continue;
      if (now < b.prechargeAllowed) {
        earliest = std::min(earliest, b.prechargeAllowed);
        continue;
      }
      precharge(b, now);
      return true;
    }
    if (now < b.actAllowed || now < actAllowed_) {
      earliest = std::min(earliest, std::max(b.actAllowed, actAllowed_));
      continue;
    }
    b.open = true;
    b.row = r.row;
    b.columnAllowed = now + params_.tRCD;
    b.prechargeAllowed = now + params_.tRAS;
    b.actAllowed = now + params_.tRC;
    // tFAW: this ACT's window replaces the oldest of the last four, and the next ACT must follow
    // the new oldest one's window (with tFAW = 0 these are all <= now).
    fawAllowed_[fawHead_] = now + params_.tFAW;
    fawHead_ = (fawHead_ + 1) & 3;
    actAllowed_ = std::max(now + params_.tRRD, fawAllowed_[fawHead_]);
    ++openBanks_;
    banksIdle_ = false;
    r.activated = true;
    ++stats_.activates;
    return true;
  }
  return false;
}

}  // namespace warpsim::timing::mem
