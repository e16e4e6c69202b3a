// The compressed-memory model on hand-made lines: whole-line reads in the compressed bursts,
// sector reads of uncompressed lines, write-backs that compress again, read-modify-writes of
// partial writes into compressed lines, the metadata cache's side traffic, compressed replies.
#include "mech/caba/compressed_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "func/device_memory.h"

namespace warpsim::mech::caba {
namespace {

using timing::mem::CompressedTransfer;
using timing::mem::kNoSideLine;

struct Memory {
  Memory() {
    base = device.allocate(32768, 128);
    uint8_t bytes[4096];
    std::memset(bytes, 0, sizeof bytes);
    // Line 1: sixteen 8-byte pointers 0x8001D000 + 8i (B8 with 1-byte deltas: one burst).
    for (uint64_t i = 0; i < 16; ++i) {
      const uint64_t v = 0x8001D000ull + 8 * i;
      std::memcpy(bytes + 128 + 8 * i, &v, 8);
    }
    // Lines 2 and 3: pseudo-random bytes (incompressible).
    uint32_t x = 12345;
    for (int i = 256; i < 512; ++i) {
      x = x * 1664525u + 1013904223u;
      bytes[i] = static_cast<uint8_t>(x >> 24);
    }
    device.write(base, bytes, sizeof bytes);
  }
  func::DeviceMemory device{uint64_t{1} << 24};
  uint64_t base = 0;
};

timing::mem::IMemoryCompression::Context context(const Memory& m) {
  timing::mem::IMemoryCompression::Context c;
  c.memory = &m.device;
  return c;
}

TEST(CompressedMemory, ACompressedLineIsReadWholeInItsBursts) {
  Memory m;
  MemoryCompressionParams p;
  p.check = true;
  CompressedMemory cm(context(m), p);
  // Zero line, one sector asked: all four sectors come, in one burst.
  CompressedTransfer t = cm.transfer(m.base, 0x1, false);
  EXPECT_EQ(t.sectors, 0xFu);
  EXPECT_EQ(t.bursts, 1u);
  EXPECT_EQ(t.extraCycles, 0u);  // placement l2: the L2 keeps it compressed
  EXPECT_NE(t.metadataRead, kNoSideLine);  // first metadata access misses
  EXPECT_EQ(t.metadataWrite, kNoSideLine);
  // The pointer line shares the metadata line: a hit.
  t = cm.transfer(m.base + 128, 0xF, false);
  EXPECT_EQ(t.sectors, 0xFu);
  EXPECT_EQ(t.bursts, 1u);
  EXPECT_EQ(t.metadataRead, kNoSideLine);
  // Incompressible: sectors as asked, one burst each.
  t = cm.transfer(m.base + 256, 0x6, false);
  EXPECT_EQ(t.sectors, 0u);
  EXPECT_EQ(t.bursts, 2u);
  const MemoryCompressionStats& s = cm.stats();
  EXPECT_EQ(s.reads.lines, 3u);
  EXPECT_EQ(s.reads.compressedLines, 2u);
  EXPECT_EQ(s.reads.bursts, 4u);
  EXPECT_EQ(s.reads.baselineBursts, 7u);
  EXPECT_EQ(s.metadataHits, 2u);
  EXPECT_EQ(s.metadataMisses, 1u);
  EXPECT_EQ(s.checked, 2u);
  EXPECT_EQ(s.checkFailures, 0u);
}

TEST(CompressedMemory, TheMemoryControllerDecompressesWhenOnlyDramIsCompressed) {
  Memory m;
  MemoryCompressionParams p;
  p.placement = Placement::Dram;
  p.decompressCycles = 3;
  CompressedMemory cm(context(m), p);
  EXPECT_EQ(cm.transfer(m.base, 0xF, false).extraCycles, 3u);
  EXPECT_EQ(cm.transfer(m.base + 256, 0xF, false).extraCycles, 0u);  // uncompressed
  // Replies cross the network whole.
  const timing::mem::ReplyCost r = cm.reply(m.base, 0xF, 128, false);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(r.extraCycles, 0u);
}

TEST(CompressedMemory, WithAnUncompressedL2AndAssistWarpsOnlyDramFillsCrossCompressed) {
  Memory m;
  MemoryCompressionParams p;
  p.placement = Placement::Dram;
  p.agent = Agent::AssistWarp;
  p.decompressCycles = 3;  // no dedicated logic runs: ignored
  CompressedMemory cm(context(m), p);
  const uint64_t line = m.base + 128;  // compresses to 25 bytes
  CompressedTransfer t = cm.transfer(line, 0x1, false);
  EXPECT_EQ(t.sectors, 0xFu);
  EXPECT_EQ(t.bursts, 1u);
  EXPECT_EQ(t.extraCycles, 0u);  // the SM decompresses, not the controller
  // The fill's reply: as DRAM sent it, for an assist warp at the SM.
  timing::mem::ReplyCost r = cm.reply(line, 0x1, 32, true);
  EXPECT_EQ(r.bytes, 25u);
  EXPECT_EQ(r.format, kCompressedReply);
  EXPECT_EQ(r.extraCycles, 0u);
  // An L2 hit: whole and plain.
  r = cm.reply(line, 0xF, 128, false);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(r.format, 0u);
  // An incompressible fill: plain.
  cm.transfer(m.base + 256, 0xF, false);
  r = cm.reply(m.base + 256, 0xF, 128, true);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(r.format, 0u);
  // A line an SM last sent plain stays plain in DRAM: its fills are plain too.
  cm.written(line, 0xF, 0);
  cm.transfer(line, 0xF, true);
  r = cm.reply(line, 0xF, 128, true);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(r.format, 0u);
  EXPECT_EQ(cm.stats().compressedReplies, 1u);
}

TEST(CompressedMemory, OnlyAssistWarpDesignsWithACompressedL2RefusePartialWrites) {
  Memory m;
  MemoryCompressionParams p;
  p.agent = Agent::AssistWarp;
  CompressedMemory cm(context(m), p);
  const uint64_t line = m.base + 128;  // compresses to 25 bytes
  EXPECT_TRUE(cm.refusesWrite(line, 0x1));
  EXPECT_FALSE(cm.refusesWrite(line, 0xF));           // a whole line needs no merge
  EXPECT_FALSE(cm.refusesWrite(m.base + 256, 0x1));   // incompressible: held plain
  cm.written(line, 0xF, 0);                            // sent plain: held plain
  EXPECT_FALSE(cm.refusesWrite(line, 0x1));
  EXPECT_EQ(cm.stats().storesRefused, 1u);
  // Dedicated logic merges at the L2; with an uncompressed L2 there is nothing to merge into.
  CompressedMemory hw(context(m), MemoryCompressionParams{});
  EXPECT_FALSE(hw.refusesWrite(line, 0x1));
  p.placement = Placement::Dram;
  CompressedMemory ul2(context(m), p);
  EXPECT_FALSE(ul2.refusesWrite(line, 0x1));
}

TEST(CompressedMemory, RepliesCrossTheNetworkCompressedWhenTheL2HoldsCompressedLines) {
  Memory m;
  MemoryCompressionParams p;
  p.decompressCycles = 2;
  CompressedMemory cm(context(m), p);
  uint8_t line[128];
  m.device.read(m.base + 128, line, 128);
  const CompressedLine c = compress(p.algorithm, line, 128, nullptr);
  ASSERT_EQ(c.bytes, 25u);  // B8 with 1-byte deltas: head byte, base, 16 deltas
  timing::mem::ReplyCost r = cm.reply(m.base + 128, 0xF, 128, false);
  EXPECT_EQ(r.bytes, 25u);
  EXPECT_EQ(r.extraCycles, 2u);
  // One sector is 32 bytes: the whole line compressed is still smaller.
  r = cm.reply(m.base + 128, 0x1, 32, false);
  EXPECT_EQ(r.bytes, 25u);
  // The zero line: what the algorithm makes of it (one burst or less).
  const uint8_t zeros[128] = {};
  const uint32_t zeroBytes = compress(p.algorithm, zeros, 128, nullptr).bytes;
  ASSERT_LT(zeroBytes, 32u);
  EXPECT_EQ(cm.reply(m.base, 0x1, 32, false).bytes, zeroBytes);
  // Incompressible, and a sector smaller than the compressed line: sent as they are.
  r = cm.reply(m.base + 256, 0xF, 128, false);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(r.extraCycles, 0u);
  uint8_t half[128] = {};
  for (int i = 0; i < 64; ++i) half[i] = static_cast<uint8_t>(i * 37 + 11);
  m.device.write(m.base + 384, half, 128);  // 64 noisy bytes, then zeros
  const CompressedLine h = compress(p.algorithm, half, 128, nullptr);
  if (h.compressible) {
    ASSERT_GT(h.bytes, 32u);
  }
  EXPECT_EQ(cm.reply(m.base + 384, 0x1, 32, false).bytes, 32u);
  EXPECT_EQ(cm.stats().compressedReplies, 3u);
  EXPECT_EQ(cm.stats().replyBytes, 25u + 25u + zeroBytes + 128u + 32u);
  EXPECT_EQ(cm.stats().replyBaselineBytes, 128u + 32u + 32u + 128u + 32u);
}

TEST(CompressedMemory, AssistWarpLinesAreAsTheSmsSentThem) {
  Memory m;
  MemoryCompressionParams p;
  p.agent = Agent::AssistWarp;
  CompressedMemory cm(context(m), p);
  const uint64_t line = m.base + 128;  // compresses to 25 bytes
  ASSERT_EQ(cm.reply(line, 0xF, 128, false).bytes, 25u);
  // An SM sent the whole line plain (its store buffer was full): the L2 and DRAM keep it so.
  cm.written(line, 0xF, 0);
  EXPECT_EQ(cm.reply(line, 0xF, 128, false).bytes, 128u);
  EXPECT_EQ(cm.reply(line, 0xF, 128, false).format, 0u);
  CompressedTransfer t = cm.transfer(line, 0xF, true);
  EXPECT_EQ(t.bursts, 4u);
  EXPECT_EQ(cm.transfer(line, 0x1, false).bursts, 1u);  // sector by sector
  // A part of it written: still plain.
  cm.written(line, 0x1, 0);
  EXPECT_EQ(cm.reply(line, 0xF, 128, false).bytes, 128u);
  // Sent compressed again: compressed in the L2, and in DRAM at its next write-back.
  cm.written(line, 0xF, kCompressedReply);
  const timing::mem::ReplyCost r = cm.reply(line, 0xF, 128, false);
  EXPECT_EQ(r.bytes, 25u);
  EXPECT_EQ(r.format, kCompressedReply);
  EXPECT_EQ(cm.transfer(line, 0xF, true).bursts, 1u);
  EXPECT_EQ(cm.stats().storesPlain, 1u);
  EXPECT_EQ(cm.stats().storesPartial, 1u);
  EXPECT_EQ(cm.stats().storesCompressed, 1u);
  // The dedicated-hardware designs compress at the L2 whatever the SM sent.
  CompressedMemory hw(context(m), MemoryCompressionParams{});
  hw.written(line, 0xF, 0);
  EXPECT_EQ(hw.reply(line, 0xF, 128, false).bytes, 25u);
  EXPECT_EQ(hw.stats().storesPlain, 0u);
}

TEST(CompressedMemory, WriteBacksCompressTheWrittenLineAgain) {
  Memory m;
  CompressedMemory cm(context(m), MemoryCompressionParams{});
  ASSERT_EQ(cm.transfer(m.base, 0xF, false).bursts, 1u);  // zeros
  uint8_t noise[128];
  m.device.read(m.base + 256, noise, 128);
  m.device.write(m.base, noise, 128);  // the kernel overwrote the whole line
  CompressedTransfer t = cm.transfer(m.base, 0xF, true);
  EXPECT_EQ(t.bursts, 4u);
  EXPECT_EQ(t.readFirstBursts, 0u);
  EXPECT_EQ(cm.transfer(m.base, 0x1, false).bursts, 1u);  // now uncompressed: sector by sector
  EXPECT_EQ(cm.transfer(m.base, 0x1, false).sectors, 0u);
}

TEST(CompressedMemory, APartialWriteIntoACompressedLineIsAReadModifyWrite) {
  Memory m;
  CompressedMemory cm(context(m), MemoryCompressionParams{});
  const uint32_t one = 7;
  m.device.write(m.base + 40, &one, 4);  // sector 1 of the zero line
  const CompressedTransfer t = cm.transfer(m.base, 0x2, true);
  EXPECT_EQ(t.readFirstBursts, 1u);  // the line was zeros (one burst) before the write
  EXPECT_EQ(t.sectors, 0xFu);        // written whole
  EXPECT_EQ(t.bursts, 1u);           // zeros and one small word still compress to one burst
  EXPECT_EQ(cm.stats().readModifyWrites, 1u);
  EXPECT_EQ(cm.stats().readModifyWriteBursts, 1u);
}

TEST(CompressedMemory, APartialWriteIntoAnUncompressedLineLeavesItUncompressed) {
  Memory m;
  CompressedMemory cm(context(m), MemoryCompressionParams{});
  ASSERT_EQ(cm.transfer(m.base + 256, 0xF, false).bursts, 4u);
  uint8_t zeros[128] = {};
  m.device.write(m.base + 256, zeros, 128);  // now compressible, but only one sector is written
  const CompressedTransfer t = cm.transfer(m.base + 256, 0x8, true);
  EXPECT_EQ(t.readFirstBursts, 0u);
  EXPECT_EQ(t.sectors, 0u);
  EXPECT_EQ(t.bursts, 1u);
  EXPECT_EQ(cm.transfer(m.base + 256, 0xF, false).bursts, 4u);  // still stored uncompressed
}

TEST(CompressedMemory, DirtyMetadataLinesAreWrittenBackWhenEvicted) {
  Memory m;
  MemoryCompressionParams p;
  p.metadataCacheBytes = 32;  // one line of one way: 128 lines of data
  p.metadataCacheWays = 1;
  CompressedMemory cm(context(m), p);
  CompressedTransfer t = cm.transfer(m.base, 0xF, true);  // miss; dirty
  ASSERT_NE(t.metadataRead, kNoSideLine);
  EXPECT_EQ(t.metadataWrite, kNoSideLine);
  const uint64_t first = t.metadataRead;
  t = cm.transfer(m.base + 128 * 128, 0xF, false);  // the next metadata line evicts it
  EXPECT_EQ(t.metadataRead, first + 32);
  EXPECT_EQ(t.metadataWrite, first);
  EXPECT_EQ(cm.stats().metadataWritebacks, 1u);
  t = cm.transfer(m.base, 0xF, false);  // clean victim: no write-back
  EXPECT_EQ(t.metadataRead, first);
  EXPECT_EQ(t.metadataWrite, kNoSideLine);
}

TEST(CompressedMemory, WithoutAMetadataCacheEveryAccessReadsItsMetadata) {
  Memory m;
  MemoryCompressionParams p;
  p.metadataCache = false;
  CompressedMemory cm(context(m), p);
  for (int i = 0; i < 3; ++i) EXPECT_NE(cm.transfer(m.base, 0xF, false).metadataRead, kNoSideLine);
  const CompressedTransfer w = cm.transfer(m.base, 0xF, true);
  EXPECT_EQ(w.metadataRead, kNoSideLine);
  EXPECT_NE(w.metadataWrite, kNoSideLine);
  EXPECT_EQ(cm.stats().metadataMisses, 4u);
}

TEST(CompressedMemory, StatisticsAddUpAcrossControllers) {
  Memory m;
  CompressedMemory a(context(m), MemoryCompressionParams{}), b(context(m), MemoryCompressionParams{});
  a.transfer(m.base, 0xF, false);
  b.transfer(m.base + 256, 0xF, false);
  nlohmann::json out = nlohmann::json::object();
  a.reportStats(out);
  b.reportStats(out);
  EXPECT_EQ(out["dram_reads"]["lines"], 2u);
  EXPECT_EQ(out["dram_reads"]["bursts"], 5u);
  EXPECT_EQ(out["dram_reads"]["baseline_bursts"], 8u);
  EXPECT_EQ(out["metadata_cache"]["misses"], 2u);
}

TEST(CompressedMemory, LinesOutsideDeviceMemoryAreNeverCompressedAndReadNoMetadata) {
  Memory m;
  CompressedMemory cm(context(m), MemoryCompressionParams{});
  const uint64_t local = 0x0000'0100'0000'0000ull;  // the local-memory window: values unknown
  CompressedTransfer t = cm.transfer(local, 0x3, false);
  EXPECT_EQ(t.bursts, 2u);
  EXPECT_EQ(t.sectors, 0u);
  EXPECT_EQ(t.metadataRead, kNoSideLine);
  t = cm.transfer(local, 0xF, true);
  EXPECT_EQ(t.bursts, 4u);
  EXPECT_EQ(t.metadataWrite, kNoSideLine);
  EXPECT_EQ(cm.reply(local, 0xF, 128, false).bytes, 128u);
  EXPECT_EQ(cm.stats().unknownLines, 2u);
  EXPECT_EQ(cm.stats().compressions, 0u);
}

TEST(CompressedMemory, TheL2HoldsALineInItsCompressedSizeWhereItHoldsLinesCompressed) {
  Memory m;
  MemoryCompressionParams p;  // placement l2
  CompressedMemory cm(context(m), p);
  EXPECT_EQ(cm.storedBytes(m.base), 25u);         // zeros: b8d1 on the zero base (the subset)
  EXPECT_EQ(cm.storedBytes(m.base + 128), 25u);   // b8d1: head, base, 16 deltas
  EXPECT_EQ(cm.storedBytes(m.base + 256), 0u);    // incompressible: a whole line
  EXPECT_EQ(cm.storedBytes(0x10), 0u);            // outside device memory
  // An assist-warp design's line sent plain stays whole until sent compressed again.
  MemoryCompressionParams a;
  a.agent = Agent::AssistWarp;
  CompressedMemory aw(context(m), a);
  aw.written(m.base + 128, 0xF, 0);
  EXPECT_EQ(aw.storedBytes(m.base + 128), 0u);
  aw.written(m.base + 128, 0xF, kCompressedReply);
  EXPECT_EQ(aw.storedBytes(m.base + 128), 25u);
  // An L2 of whole lines (placement dram) never holds one smaller.
  MemoryCompressionParams d;
  d.placement = Placement::Dram;
  CompressedMemory dm(context(m), d);
  EXPECT_EQ(dm.storedBytes(m.base), 0u);
  nlohmann::json out;
  cm.reportStats(out);
  EXPECT_EQ(out["l2_capacity"]["compressed_lines"], 2);
  EXPECT_EQ(out["l2_capacity"]["compressed_bytes"], 50);
}

TEST(MemoryCompressionParams, BadMetadataGeometryIsAOneLineError) {
  config::Tree t = config::Tree::fromString(
      "[compression]\nmetadata_cache_bytes = 100\nmetadata_cache_ways = 4\n");
  try {
    readMemoryCompressionParams(t.section("compression"));
    FAIL() << "no error";
  } catch (const config::Error& e) {
    EXPECT_NE(std::string(e.what()).find("compression.metadata_cache_bytes = 100"), std::string::npos)
        << e.what();
  }
  config::Tree bad = config::Tree::fromString("[compression]\nalgorithm = \"lz4\"\n");
  EXPECT_THROW(readMemoryCompressionParams(bad.section("compression")), config::Error);
}

}  // namespace
}  // namespace warpsim::mech::caba
