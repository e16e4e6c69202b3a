// Every named scheme (address_mapping_schemes.h) is a bijection with dense local addresses, for
// power-of-two and other channel and bank counts; the registry knows them by name; the memory
// system hands them the device memory's size and base.
#include "timing/mem/address_mapping_schemes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "func/device_memory.h"
#include "timing/mem/field_order_address_mapping.h"
#include "timing/mem/memory_system.h"
#include "timing/mem/register_memory_baselines.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing::mem {
namespace {

constexpr uint64_t kDeviceBase = 0x7f00'0000'0000ull;

void checkBijection(const IAddressMapping& m, const IAddressMapping::Context& c,
                    const std::string& what) {
  const uint64_t rows = c.memoryBytes / c.channels / (uint64_t{c.banks} * c.rowBytes);
  const uint64_t channelBytes = rows * c.banks * c.rowBytes;
  const uint64_t period = channelBytes * c.channels;
  std::set<std::pair<uint32_t, uint64_t>> locals;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> cells;
  uint64_t n = 0;
  // Two periods (the second wraps into further rows), one byte per granule plus the granule's
  // last byte for every 7th; every address inside a granule keeps its channel.
  for (uint64_t off = 0; off < 2 * period; off += c.interleaveBytes) {
    const uint64_t bytes[2] = {0, c.interleaveBytes - 1u};
    for (int k = 0; k < ((off / c.interleaveBytes) % 7 == 0 ? 2 : 1); ++k) {
      const uint64_t byte = bytes[k];
      const DramAddress a = m.map(kDeviceBase + off + byte);
      ++n;
      locals.insert({a.channel, a.local});
      cells.insert({a.channel, a.bank, a.row, a.column});
      ASSERT_LT(a.channel, c.channels) << what;
      ASSERT_LT(a.bank, c.banks) << what;
      ASSERT_LT(a.column, c.rowBytes) << what;
      if (off < period) {
        ASSERT_LT(a.local, channelBytes) << what;  // dense
        ASSERT_LT(a.row, rows) << what;
      }
      ASSERT_EQ(a.channel, m.map(kDeviceBase + off).channel) << what;
    }
  }
  EXPECT_EQ(locals.size(), n) << what;
  EXPECT_EQ(cells.size(), n) << what;
}

TEST(AddressMappingSchemes, EveryOneIsABijectionWithDenseLocals) {
  for (uint32_t channels : {4u, 6u}) {
    for (uint32_t banks : {4u, 3u}) {
      IAddressMapping::Context c;
      c.channels = channels;
      c.banks = banks;
      c.rowBytes = 1024;
      c.interleaveBytes = 256;
      c.memoryBytes = uint64_t{channels} * banks * 1024 * 8;  // 8 rows per bank
      c.baseAddress = kDeviceBase;
      for (const AddressMappingScheme& s : addressMappingSchemes()) {
        checkBijection(*makeAddressMapping(s, c), c,
                       std::string(s.name) + " " + std::to_string(channels) + "x" +
                           std::to_string(banks));
      }
      FieldOrderAddressMapping run(c, {"row:col:bank:chan:run", true, 512}, "minimalist");
      checkBijection(run, c, "minimalist run 512 " + std::to_string(channels));
    }
  }
}

TEST(AddressMappingSchemes, RegisteredByNameAndUnknownNamesListTheKnownOnes) {
  PluginRegistry r;
  registerMemoryBaselines(r);
  IAddressMapping::Context c;
  c.channels = 6;
  c.banks = 16;
  c.rowBytes = 2048;
  c.interleaveBytes = 256;
  for (const char* name : {"hash", "scheme1", "scheme2", "scheme3", "scheme4", "scheme5",
                           "scheme6", "scheme7", "permutation", "minimalist"}) {
    ASSERT_TRUE(r.has<IAddressMapping>(name)) << name;
    EXPECT_EQ(r.make<IAddressMapping>(name, c)->granuleBytes(), 256u) << name;
  }
  try {
    r.make<IAddressMapping>("scheme8", c);
    FAIL();
  } catch (const config::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "config: error: unknown address_mapping 'scheme8' (known: hash, minimalist, "
              "permutation, scheme1, scheme2, scheme3, scheme4, scheme5, scheme6, scheme7)");
  }
}

TEST(AddressMappingSchemes, MinimalistReadsItsRunFromTheConfiguration) {
  PluginRegistry r;
  registerMemoryBaselines(r);
  config::Tree tree = config::Tree::fromString("[dram]\nminimalist_run_bytes = 512\n");
  IAddressMapping::Context c;
  c.tree = &tree;
  c.channels = 4;
  c.banks = 4;
  c.rowBytes = 1024;
  c.interleaveBytes = 256;
  c.memoryBytes = uint64_t{4} << 20;
  c.baseAddress = kDeviceBase;
  const auto m = r.make<IAddressMapping>("minimalist", c);
  EXPECT_EQ(m->map(kDeviceBase + 256).channel, 0u);  // a run of two granules
  EXPECT_EQ(m->map(kDeviceBase + 512).channel, 1u);
  EXPECT_NO_THROW(tree.checkAllUsed());
}

// The memory system's plug-ins with scheme7 as the mapping.
class Scheme7Plugins final : public MemoryPlugins {
 public:
  std::unique_ptr<ICachePolicy> cachePolicy(const ICachePolicy::Context& c) override {
    return base.cachePolicy(c);
  }
  std::unique_ptr<IMemoryCompression> compression(const IMemoryCompression::Context& c) override {
    return base.compression(c);
  }
  std::unique_ptr<ILocalMemoryPath> localPath(const ILocalMemoryPath::Context& c) override {
    return base.localPath(c);
  }
  std::unique_ptr<IAddressMapping> addressMapping(const IAddressMapping::Context& c) override {
    return makeAddressMapping(addressMappingSchemes()[6], c);
  }
  BaselineMemoryPlugins base;
};

TEST(AddressMappingSchemes, TheMemorySystemPassesTheDeviceMemorysSizeAndBase) {
  ASSERT_EQ(std::string(addressMappingSchemes()[6].name), "scheme7");
  MemoryParams p;  // 6 channels, 16 banks, 2 KB rows: 32 KB per row of every bank
  Scheme7Plugins plugins;
  // 96 MB: R = 16 MB / 32 KB = 512, so the offset 96 MB (one period) is row 512, local 16 MB.
  func::DeviceMemory memory(uint64_t{96} << 20);
  MemorySystemImpl sys(p, plugins, &memory);
  DramAddress a = sys.mapping().map(memory.baseAddress() + (uint64_t{96} << 20));
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.row, 512u);
  EXPECT_EQ(a.local, uint64_t{16} << 20);
  // Without a device memory: MemoryParams::memoryBytes (1536 MB: R = 8192) and the default base.
  MemorySystemImpl bare(p, plugins);
  a = bare.mapping().map(kDeviceBase + (uint64_t{1536} << 20));
  EXPECT_EQ(a.row, 8192u);
  EXPECT_EQ(a.local, uint64_t{256} << 20);
}

}  // namespace
}  // namespace warpsim::timing::mem
