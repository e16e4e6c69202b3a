// The fat binary reader on containers built byte by byte in the layout nvcc 13 emits.
#include "cudart/fatbin.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

namespace warpsim::cudart {
namespace {

constexpr uint64_t kZstd = 0x8000;

// Appends little-endian values to a byte buffer.
struct Bytes {
  std::vector<uint8_t> b;
  template <class T>
  void put(T v) {
    uint8_t raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    b.insert(b.end(), raw, raw + sizeof v);
  }
  void append(const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }
  void pad8() { while (b.size() % 8 != 0) b.push_back(0); }
};

// One entry: kind 1 (PTX) or 2 (ELF); payload stored raw or zstd-compressed.
std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, const std::string& text, bool compress) {
  std::string payload = text;
  uint32_t compressedSize = 0;
  if (compress) {
    payload.resize(ZSTD_compressBound(text.size() + 1));
    size_t n = ZSTD_compress(payload.data(), payload.size(), text.c_str(), text.size() + 1, 3);
    payload.resize(n);
    compressedSize = static_cast<uint32_t>(n);
  } else {
    payload.push_back('\0');
  }
  Bytes pl;
  pl.append(payload);
  pl.pad8();
  Bytes e;
  e.put<uint16_t>(kind);
  e.put<uint16_t>(0x0101);
  e.put<uint32_t>(0x50);
  e.put<uint64_t>(pl.b.size());
  e.put<uint32_t>(compressedSize);
  e.put<uint32_t>(0x40);
  e.put<uint16_t>(0);  // PTX minor
  e.put<uint16_t>(9);  // PTX major
  e.put<uint32_t>(arch);
  e.put<uint32_t>(0);
  e.put<uint32_t>(0);
  e.put<uint64_t>(0x11 | (compress ? kZstd : 0));
  e.put<uint64_t>(0);
  e.put<uint64_t>(compress ? text.size() + 1 : 0);
  while (e.b.size() < 0x50) e.put<uint8_t>(0);
  e.b.insert(e.b.end(), pl.b.begin(), pl.b.end());
  return e.b;
}

void container(Bytes& out, const std::vector<std::vector<uint8_t>>& entries) {
  uint64_t size = 0;
  for (const auto& e : entries) size += e.size();
  out.put<uint32_t>(0xBA55ED50);
  out.put<uint16_t>(1);
  out.put<uint16_t>(16);
  out.put<uint64_t>(size);
  for (const auto& e : entries) out.b.insert(out.b.end(), e.begin(), e.end());
}

struct Wrapper {
  uint32_t magic = 0x466243b1;
  uint32_t version = 1;
  const void* data = nullptr;
  void* unused = nullptr;
  size_t bytes = 0;  // not part of the layout: where the test's buffer ends
};

const void* end(const Wrapper& w) { return static_cast<const uint8_t*>(w.data) + w.bytes; }

TEST(Fatbin, ReadsRawAndCompressedPtxAcrossChainedContainers) {
  Bytes fb;
  container(fb, {});  // nvcc puts an empty container first
  container(fb, {entry(2, 75, "ELF", false), entry(1, 75, ".version 9.0 // raw", false),
                  entry(1, 90, ".version 9.0 // zstd", true)});
  Wrapper w;
  w.data = fb.b.data();
  w.bytes = fb.b.size();
  std::vector<FatbinEntry> entries = readFatbin(&w, {}, end(w));
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].kind, FatbinEntry::Kind::Elf);
  EXPECT_EQ(entries[1].ptx, ".version 9.0 // raw");
  EXPECT_FALSE(entries[1].compressed);
  EXPECT_EQ(entries[2].ptx, ".version 9.0 // zstd");
  EXPECT_TRUE(entries[2].compressed);
  EXPECT_EQ(entries[2].arch, 90u);
}

TEST(Fatbin, PicksTheHighestArchNotAbove90) {
  Bytes fb;
  container(fb, {entry(1, 75, "a", false), entry(1, 100, "c", false), entry(1, 90, "b", true)});
  Wrapper w;
  w.data = fb.b.data();
  w.bytes = fb.b.size();
  std::vector<FatbinEntry> entries = readFatbin(&w, {}, end(w));
  std::vector<const FatbinEntry*> c = ptxCandidates(entries);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0]->arch, 90u);
  EXPECT_EQ(c[1]->arch, 75u);
}

TEST(Fatbin, SassOnlyExplainsHowToRebuild) {
  Bytes fb;
  container(fb, {entry(2, 80, "ELF", false)});
  Wrapper w;
  w.data = fb.b.data();
  w.bytes = fb.b.size();
  std::vector<FatbinEntry> entries = readFatbin(&w, {}, end(w));
  try {
    ptxCandidates(entries);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("SASS only: sm_80"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("-gencode arch=compute_80,code=compute_80"),
              std::string::npos);
  }
}

TEST(Fatbin, StopsAtAnotherWrappersContainer) {
  Bytes fb;
  container(fb, {entry(2, 75, "ELF", false)});
  size_t second = fb.b.size();
  container(fb, {entry(1, 80, "other module", false)});
  Wrapper w;
  w.data = fb.b.data();
  w.bytes = fb.b.size();
  std::vector<FatbinEntry> entries = readFatbin(&w, {fb.b.data() + second}, end(w));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].kind, FatbinEntry::Kind::Elf);
}

TEST(Fatbin, RejectsBadMagicAndTruncatedEntries) {
  Wrapper bad;
  bad.magic = 0x12345678;
  EXPECT_THROW(readFatbin(&bad, {}, end(bad)), std::runtime_error);

  Bytes fb;
  container(fb, {entry(1, 80, "text", false)});
  uint64_t tooBig = 8;  // the container claims fewer bytes than its entry has
  std::memcpy(fb.b.data() + 8, &tooBig, 8);
  Wrapper w;
  w.data = fb.b.data();
  w.bytes = fb.b.size();
  EXPECT_THROW(readFatbin(&w, {}, end(w)), std::runtime_error);

  Bytes tooLong;
  container(tooLong, {entry(1, 80, "text", false)});
  uint64_t pastTheEnd = 4096;
  std::memcpy(tooLong.b.data() + 8, &pastTheEnd, 8);
  w.data = tooLong.b.data();
  w.bytes = tooLong.b.size();
  EXPECT_THROW(readFatbin(&w, {}, end(w)), std::runtime_error);

  Bytes corrupt;
  container(corrupt, {entry(1, 80, "compressed text", true)});
  corrupt.b[16 + 0x50] ^= 0xff;  // break the zstd frame magic
  w.data = corrupt.b.data();
  w.bytes = corrupt.b.size();
  EXPECT_THROW(readFatbin(&w, {}, end(w)), std::runtime_error);
}

}  // namespace
}  // namespace warpsim::cudart
