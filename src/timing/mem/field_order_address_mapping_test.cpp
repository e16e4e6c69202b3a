// Exact fields of the named schemes (address_mapping_schemes.h) on a small geometry, by hand.
#include "timing/mem/field_order_address_mapping.h"

#include <gtest/gtest.h>

#include <string>

#include "timing/mem/address_mapping_schemes.h"

namespace warpsim::timing::mem {
namespace {

constexpr uint64_t kBase = 0x7f00'0000'0000ull;

// 4 channels, 4 banks, 1 KB rows, 256 B granule, 4 MB: K = 1024 / 256 = 4 column blocks,
// R = (4 MB / 4) / (4 x 1 KB) = 256 rows, P = 4 MB, P / C = 1 MB. Every radix is a power of two,
// so the fields are bit fields of the offset above its 8 granule bits:
// bank 2 bits, col 2 bits, row 8 bits, chan 2 bits.
IAddressMapping::Context small(uint32_t channels = 4, uint32_t banks = 4,
                               uint64_t memory = uint64_t{4} << 20) {
  IAddressMapping::Context c;
  c.channels = channels;
  c.banks = banks;
  c.rowBytes = 1024;
  c.interleaveBytes = 256;
  c.memoryBytes = memory;
  c.baseAddress = kBase;
  return c;
}

std::unique_ptr<IAddressMapping> scheme(const std::string& name,
                                        const IAddressMapping::Context& c = small()) {
  for (const AddressMappingScheme& s : addressMappingSchemes()) {
    if (name == s.name) return makeAddressMapping(s, c);
  }
  ADD_FAILURE() << name;
  return nullptr;
}

struct Fields {
  uint32_t channel, bank, row, column;
  uint64_t local;
};

void expectFields(const IAddressMapping& m, uint64_t addr, const Fields& f) {
  const DramAddress a = m.map(addr);
  EXPECT_EQ(a.channel, f.channel) << std::hex << addr;
  EXPECT_EQ(a.bank, f.bank) << std::hex << addr;
  EXPECT_EQ(a.row, f.row) << std::hex << addr;
  EXPECT_EQ(a.column, f.column) << std::hex << addr;
  EXPECT_EQ(a.local, f.local) << std::hex << addr;
}

// The offset used below: 0x32C5B7 = granule 0x32C5 (binary 11 0010 1100 0101), byte 0xB7 = 183.
constexpr uint64_t kAddr = kBase + 0x32C5B7;

TEST(FieldOrderAddressMapping, ChannelOnTopSchemes) {
  // scheme1 chan:rank:row:col:bank (scheme2 and scheme5 are the same with one rank):
  // bank = 0x32C5 & 3 = 1, col = (0x32C5 >> 2) & 3 = 1, row = (0x32C5 >> 4) & 255 = 0x2C = 44,
  // chan = 0x32C5 >> 12 = 3. column = 1 x 256 + 183 = 439. With the channel on top, local is
  // the offset within the channel's 1 MB: 0x2C5B7 = 181687.
  for (const char* name : {"scheme1", "scheme2", "scheme5"})
    expectFields(*scheme(name), kAddr, {3, 1, 44, 439, 181687});
  // scheme3 chan:rank:bank:col:row: row = 0x32C5 & 255 = 0xC5 = 197, col = (0x32C5 >> 8) & 3 = 2,
  // bank = (0x32C5 >> 10) & 3 = 0, chan 3; column = 2 x 256 + 183 = 695.
  expectFields(*scheme("scheme3"), kAddr, {3, 0, 197, 695, 181687});
  // scheme4 chan:rank:bank:row:col: col = 1, row = (0x32C5 >> 2) & 255 = 0xB1 = 177, bank 0.
  expectFields(*scheme("scheme4"), kAddr, {3, 0, 177, 439, 181687});
  // scheme6 chan:row:bank:rank:col: col = 1, bank = (0x32C5 >> 2) & 3 = 1, row = 44.
  expectFields(*scheme("scheme6"), kAddr, {3, 1, 44, 439, 181687});
}

TEST(FieldOrderAddressMapping, ChannelInterleavedSchemes) {
  // scheme7 row:col:rank:bank:chan: chan = 0x32C5 & 3 = 1, bank = (0x32C5 >> 2) & 3 = 1,
  // col = (0x32C5 >> 4) & 3 = 0, row = 0x32C5 >> 6 = 203. column = 183.
  // local = 183 + bank x 256 + col x 1024 + row x 4096 = 183 + 256 + 831488 = 831927.
  expectFields(*scheme("scheme7"), kAddr, {1, 1, 203, 183, 831927});
  // permutation row:bank:col:chan: chan = 1, col = 1, bank field = (0x32C5 >> 4) & 3 = 0,
  // row = 203; bank = 0 XOR (203 & 3 = 3) = 3. column = 256 + 183 = 439.
  // local = 183 + col x 256 + bank field x 1024 + row x 4096 = 831927.
  expectFields(*scheme("permutation"), kAddr, {1, 3, 203, 439, 831927});
  // minimalist, run 256 = one granule: row:col:bank:chan: chan 1, bank field 1, col 0, row 203;
  // bank = 1 XOR 3 = 2; local = 183 + 256 + 831488 = 831927.
  expectFields(*scheme("minimalist"), kAddr, {1, 2, 203, 183, 831927});
}

TEST(FieldOrderAddressMapping, MinimalistRunOfTwoGranules) {
  // Run 512 = 2 granules: row:col:bank:chan:run with col radix 4 / 2 = 2.
  // run = bit 0 of 0x32C5 = 1, chan = bits 1-2 = 2, bank field = bits 3-4 = 0, col = bit 5 = 0,
  // row = 0x32C5 >> 6 = 203; bank = 0 XOR 3 = 3. column = (0 x 2 + 1) x 256 + 183 = 439.
  // local = 183 + run x 256 + bank x 512 + col x 2048 + row x 4096 = 183 + 256 + 831488.
  FieldOrderAddressMapping m(small(), {"row:col:bank:chan:run", true, 512}, "minimalist");
  expectFields(m, kAddr, {2, 3, 203, 439, 831927});
  // The two granules of a run share a channel and a row; the next run goes to the next channel.
  EXPECT_EQ(m.map(kBase + 256).channel, 0u);
  EXPECT_EQ(m.map(kBase + 512).channel, 1u);
  EXPECT_EQ(m.granuleBytes(), 256u);
}

TEST(FieldOrderAddressMapping, SixChannelsDecomposeByDivision) {
  // scheme7 with 6 channels, 6 MB (R = 1 MB / 4 KB = 256): granule 1000, byte 5.
  // chan = 1000 % 6 = 4, q 166; bank = 166 % 4 = 2, q 41; col = 41 % 4 = 1, q 10; row = 10.
  // local = 5 + 2 x 256 + 1 x 1024 + 10 x 4096 = 42501; column = 256 + 5 = 261.
  expectFields(*scheme("scheme7", small(6, 4, uint64_t{6} << 20)), kBase + 1000 * 256 + 5,
               {4, 2, 10, 261, 42501});
  // permutation with 6 channels and 3 banks, 18 MB (R = 3 MB / 3 KB = 1024): granule 1000.
  // chan = 1000 % 6 = 4, q 166; col = 166 % 4 = 2, q 41; bank field = 41 % 3 = 2, q 13;
  // row 13; bank = (2 + 13) % 3 = 0. local = 5 + 2 x 256 + 2 x 1024 + 13 x 3072 = 42501.
  expectFields(*scheme("permutation", small(6, 3, uint64_t{18} << 20)), kBase + 1000 * 256 + 5,
               {4, 0, 13, 517, 42501});
}

TEST(FieldOrderAddressMapping, OffsetsPastTheMemoryContinueInFurtherRows) {
  // One period (4 MB) further: row + R = 203 + 256, local + P / C = 831927 + 1 MB.
  const auto m = scheme("scheme7");
  expectFields(*m, kAddr + (uint64_t{4} << 20), {1, 1, 459, 183, 831927 + (1u << 20)});
  // Channel on top: the channel stays below 4.
  expectFields(*scheme("scheme1"), kAddr + (uint64_t{4} << 20), {3, 1, 300, 439, 181687 + (1u << 20)});
  // Below the base: the offset wraps modulo 2^64, and stays apart from the device's addresses.
  const DramAddress low = m->map(0x1000), dev = m->map(kBase + 0x1000);
  EXPECT_LT(low.channel, 4u);
  EXPECT_NE(low.local, dev.local);
}

TEST(FieldOrderAddressMapping, BadGeometryIsAOneLineError) {
  auto error = [](IAddressMapping::Context c) {
    try {
      scheme("scheme7", c);
    } catch (const config::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  IAddressMapping::Context c = small();
  c.memoryBytes = 8192;
  EXPECT_EQ(error(c),
            "config: error: dram.mapping = \"scheme7\": device memory of 8192 bytes holds no row "
            "of every bank (channels x banks x row_bytes = 16384)");
  c = small();
  c.interleaveBytes = 2048;
  EXPECT_EQ(error(c),
            "config: error: dram.mapping = \"scheme7\": dram.row_bytes = 1024 is not a multiple "
            "of the granule dram.interleave_bytes = 2048");
  EXPECT_THROW(FieldOrderAddressMapping(small(), {"row:col:chan"}, "x"), config::Error);
  EXPECT_THROW(FieldOrderAddressMapping(small(), {"row:col:bank:chan:row"}, "x"), config::Error);
  EXPECT_THROW(FieldOrderAddressMapping(small(), {"row:col:bank:chan:run", true, 768}, "x"),
               config::Error);
}

}  // namespace
}  // namespace warpsim::timing::mem
