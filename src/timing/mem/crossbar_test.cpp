#include "timing/mem/crossbar.h"

#include <gtest/gtest.h>

#include <map>

namespace warpsim::timing::mem {
namespace {

IcntParams icntParams() {
  IcntParams p;
  p.latency = 10;
  p.flitBytes = 32;
  p.flitsPerCycle = 1;
  p.inputQueue = 2;
  p.ejectionQueue = 2;
  p.headerBytes = 8;
  return p;
}

IcntParams lookahead(uint32_t packets, uint32_t inputQueue = 4) {
  IcntParams p = icntParams();
  p.inputQueue = inputQueue;
  p.ejectionQueue = 8;
  p.lookahead = packets;
  return p;
}

struct Net {
  explicit Net(uint32_t inputs, uint32_t outputs, IcntParams p = icntParams())
      : outputs(outputs), xbar(inputs, outputs, p, pool) {}
  uint32_t send(uint32_t input, uint32_t output, uint32_t bytes) {
    const uint32_t i = pool.allocate();
    pool[i].port = static_cast<uint16_t>(output);
    pool[i].bytes = bytes;
    pool[i].tag = input;
    xbar.inject(input, i);
    return i;
  }
  // Cycles until a packet shows up at `output` (popping it); returns its arrival cycle.
  Cycle arrive(uint32_t output, Cycle& now, uint32_t* packet = nullptr) {
    for (; now < 1000; ++now) {
      xbar.cycle(now);
      if (xbar.hasPacket(output)) {
        if (packet) *packet = xbar.front(output);
        xbar.pop(output);
        return now++;
      }
    }
    return kNever;
  }
  // Cycles [now, end), popping every output at once: the cycle each packet arrived, and the
  // packets each output received in order.
  void run(Cycle& now, Cycle end) {
    for (; now < end; ++now) {
      xbar.cycle(now);
      for (uint32_t o = 0; o < outputs; ++o) {
        for (; xbar.hasPacket(o); xbar.pop(o)) {
          arrivedAt[xbar.front(o)] = now;
          received[o].push_back(xbar.front(o));
        }
      }
    }
  }
  const uint32_t outputs;
  std::map<uint32_t, Cycle> arrivedAt;
  std::map<uint32_t, std::vector<uint32_t>> received;
  PacketPool pool;
  Crossbar xbar;
};

TEST(Crossbar, OneFlitPacketArrivesAfterTheLatency) {
  Net n(2, 2);
  const uint32_t p = n.send(0, 1, 0);
  EXPECT_EQ(n.pool[p].flits, 1u);
  Cycle now = 5;
  EXPECT_EQ(n.arrive(1, now), 5u + 10);
  EXPECT_EQ(n.xbar.stats().packets, 1u);
  EXPECT_EQ(n.xbar.stats().flits, 1u);
  EXPECT_TRUE(n.xbar.empty());
}

TEST(Crossbar, LongPacketsSerialise) {
  Net n(2, 2);
  // 8 + 128 bytes = 5 flits: granted at 0, last flit leaves at 4, arrives at 4 + 10.
  const uint32_t p = n.send(0, 1, 128);
  EXPECT_EQ(n.pool[p].flits, 5u);
  n.send(0, 0, 0);  // behind it on the same input: granted at 5
  Cycle now = 0;
  EXPECT_EQ(n.arrive(1, now), 14u);
  now = 0;
  Net m(2, 2);
  m.send(0, 1, 128);
  m.send(0, 0, 0);
  Cycle t = 0;
  EXPECT_EQ(m.arrive(0, t), 15u);
}

TEST(Crossbar, OutputsArbitrateRoundRobin) {
  Net n(3, 1, [] {
    IcntParams p = icntParams();
    p.ejectionQueue = 8;
    return p;
  }());
  n.send(0, 0, 0);
  n.send(1, 0, 0);
  n.send(2, 0, 0);
  n.send(0, 0, 0);
  std::vector<uint32_t> order;
  Cycle now = 0;
  for (int k = 0; k < 4; ++k) {
    uint32_t pk = 0;
    const Cycle at = n.arrive(0, now, &pk);
    EXPECT_EQ(at, 10u + k);  // one grant per cycle
    order.push_back(n.pool[pk].tag);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 1, 2, 0}));
}

TEST(Crossbar, FullInputQueueRefusesPackets) {
  Net n(1, 1);
  n.send(0, 0, 0);
  n.send(0, 0, 0);
  EXPECT_FALSE(n.xbar.canInject(0));
  EXPECT_EQ(n.xbar.inputRoom(0), 0u);
  n.xbar.cycle(0);  // one granted
  EXPECT_TRUE(n.xbar.canInject(0));
  EXPECT_EQ(n.xbar.nextWorkCycle(1), 1u);
}

TEST(Crossbar, EjectionCreditsStopGrantsUntilTheReceiverPops) {
  IcntParams p = icntParams();
  p.ejectionQueue = 1;
  Net n(2, 1, p);
  n.send(0, 0, 0);
  n.send(1, 0, 0);
  for (Cycle c = 0; c < 30; ++c) n.xbar.cycle(c);
  // The first arrived at 10; the second waits for a credit.
  ASSERT_TRUE(n.xbar.hasPacket(0));
  EXPECT_EQ(n.xbar.stats().packets, 1u);
  n.xbar.pop(0);
  Cycle now = 30;
  EXPECT_EQ(n.arrive(0, now), 40u);
}

TEST(Crossbar, NextWorkCycleIsTheNextArrivalWhenNothingWaits) {
  Net n(1, 1);
  EXPECT_EQ(n.xbar.nextWorkCycle(0), kNever);
  n.send(0, 0, 0);
  EXPECT_EQ(n.xbar.nextWorkCycle(3), 3u);
  n.xbar.cycle(3);
  EXPECT_EQ(n.xbar.nextWorkCycle(4), 13u);
}

TEST(Crossbar, PacketsBetweenPartitionsArriveFarLatencyLaterWithoutHoldingNearOnes) {
  // Inputs 0, 1 in partitions 0, 1; output 0 in partition 0; 25 cycles between partitions.
  Net n(2, 1);
  n.xbar.setPartitions({0, 1}, {0}, 25);
  // Input 1's packet (far) is granted at cycle 0 and arrives at 0 + 10 + 25; input 0's (near),
  // granted at cycle 1 (the output is busy for one cycle), arrives at 1 + 10, before it.
  const uint32_t far = n.send(1, 0, 0);
  Cycle now = 0;
  n.xbar.cycle(now++);
  const uint32_t near = n.send(0, 0, 0);
  uint32_t got = 0;
  EXPECT_EQ(n.arrive(0, now, &got), 11u);
  EXPECT_EQ(got, near);
  EXPECT_EQ(n.arrive(0, now, &got), 35u);
  EXPECT_EQ(got, far);
  EXPECT_TRUE(n.xbar.empty());
}

TEST(Crossbar, FarPacketsCountAgainstTheOutputsCredits) {
  // An ejection queue of 2: two far packets on their way leave no credit for a third packet.
  Net n(3, 1);
  n.xbar.setPartitions({1, 1, 0}, {0}, 50);
  n.send(0, 0, 0);
  n.send(1, 0, 0);
  n.send(2, 0, 0);
  for (Cycle c = 0; c < 40; ++c) n.xbar.cycle(c);
  EXPECT_EQ(n.xbar.stats().packets, 2u);  // the near one waits for a credit
  Cycle now = 40;
  EXPECT_EQ(n.arrive(0, now), 60u);       // granted at 0: 0 + 10 + 50
  EXPECT_EQ(n.arrive(0, now), 61u);       // granted at 1
  EXPECT_EQ(n.arrive(0, now), 71u);       // granted at 61, when the second arrived and the first left: + 10
}

// Input 1's 5-flit packet holds output 0 for cycles 0-4; then input 0 queues a packet for output
// 0 (blocked) and one for the free output 1 behind it.
TEST(Crossbar, LookaheadOneHoldsThePacketBehindABlockedHead) {
  Net n(2, 2, lookahead(1));
  const uint32_t wide = n.send(1, 0, 128);
  Cycle now = 0;
  n.run(now, 1);
  const uint32_t blocked = n.send(0, 0, 0);
  const uint32_t behind = n.send(0, 1, 0);
  n.run(now, 30);
  EXPECT_EQ(n.arrivedAt[wide], 14u);     // granted at 0: 0 + 4 + 10
  EXPECT_EQ(n.arrivedAt[blocked], 15u);  // granted at 5, when output 0 is free
  EXPECT_EQ(n.arrivedAt[behind], 16u);   // granted at 6, after the head left its input
  EXPECT_TRUE(n.xbar.empty());
}

TEST(Crossbar, LookaheadTwoSendsThePacketBehindABlockedHeadToItsFreeOutput) {
  Net n(2, 2, lookahead(2));
  const uint32_t wide = n.send(1, 0, 128);
  Cycle now = 0;
  n.run(now, 1);
  const uint32_t blocked = n.send(0, 0, 0);
  const uint32_t behind = n.send(0, 1, 0);
  n.run(now, 2);
  EXPECT_EQ(n.xbar.stats().packets, 2u);  // `behind` granted at 1, the cycle it was queued
  n.run(now, 30);
  EXPECT_EQ(n.arrivedAt[wide], 14u);
  EXPECT_EQ(n.arrivedAt[behind], 11u);   // 1 + 10
  EXPECT_EQ(n.arrivedAt[blocked], 15u);  // granted at 5, as with lookahead 1
  EXPECT_TRUE(n.xbar.empty());
}

TEST(Crossbar, LookaheadKeepsTheOrderOfPacketsFromOneInputToOneOutput) {
  // a (5 flits) and c for output 0, b and d for output 1, all in view of both outputs. Each
  // output takes its oldest packet: a holds the input for cycles 0-4, then output 1 (first at
  // the odd cycle 5) takes b, output 0 c at 6 and output 1 d at 7.
  Net n(1, 2, lookahead(4));
  const uint32_t a = n.send(0, 0, 128);
  const uint32_t b = n.send(0, 1, 0);
  const uint32_t c = n.send(0, 0, 0);
  const uint32_t d = n.send(0, 1, 0);
  Cycle now = 0;
  n.run(now, 30);
  EXPECT_EQ(n.received[0], (std::vector<uint32_t>{a, c}));
  EXPECT_EQ(n.received[1], (std::vector<uint32_t>{b, d}));
  EXPECT_EQ(n.arrivedAt[a], 14u);
  EXPECT_EQ(n.arrivedAt[b], 15u);
  EXPECT_EQ(n.arrivedAt[c], 16u);
  EXPECT_EQ(n.arrivedAt[d], 17u);
}

TEST(Crossbar, AnInputGrantedByOneOutputIsNotGrantedByAnotherInTheSameCycle) {
  // Input 0 has packets for both outputs. At cycle 0 output 0 grants first and takes it; output
  // 1 passes it by for input 1, its next requesting input.
  Net n(2, 2, lookahead(2));
  const uint32_t a = n.send(0, 0, 0);
  const uint32_t b = n.send(0, 1, 0);
  const uint32_t c = n.send(1, 1, 0);
  Cycle now = 0;
  n.run(now, 1);
  EXPECT_EQ(n.xbar.stats().packets, 2u);
  n.run(now, 30);
  EXPECT_EQ(n.arrivedAt[a], 10u);
  EXPECT_EQ(n.arrivedAt[c], 10u);
  EXPECT_EQ(n.arrivedAt[b], 11u);  // input 0 is free again at cycle 1

  // At cycle 1 output 1 grants first and takes input 0's younger packet; output 0, with no other
  // input, grants nothing until cycle 2.
  Net m(2, 2, lookahead(2));
  const uint32_t p = m.send(0, 0, 0);
  const uint32_t q = m.send(0, 1, 0);
  now = 1;
  m.run(now, 2);
  EXPECT_EQ(m.xbar.stats().packets, 1u);
  m.run(now, 30);
  EXPECT_EQ(m.arrivedAt[q], 11u);
  EXPECT_EQ(m.arrivedAt[p], 12u);
}

}  // namespace
}  // namespace warpsim::timing::mem
