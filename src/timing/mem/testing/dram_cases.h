// Building blocks of the DRAM channel tests: GTX 480 timings (tRCD 12, tRP 12, tRAS 28, tCL 12,
// tWL 4, tWR 12, tRRD 6, tRC 40; one data-bus cycle per 32-byte burst) without return latency,
// and requests of whole lines (4 bursts, 4 sectors) unless told otherwise.
#pragma once
#include <cstdint>

#include "timing/mem/dram_channel.h"

namespace warpsim::timing::mem::testing {

inline DramParams dramParams(DramScheduler scheduler = DramScheduler::FrFcfs, bool ideal = false) {
  DramParams p;
  p.scheduler = scheduler;
  p.returnLatency = 0;
  p.idealRowBuffer = ideal;
  return p;
}

inline DramRequest dramRequest(uint32_t bank, uint32_t row, uint32_t tag, bool write = false,
                               uint32_t bursts = 4) {
  DramRequest r;
  r.bank = bank;
  r.row = row;
  r.tag = tag;
  r.bursts = bursts;
  r.sectors = 0xF;
  r.write = write;
  return r;
}

}  // namespace warpsim::timing::mem::testing
