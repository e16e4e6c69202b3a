#include "runtime/kernel_args.h"

#include <gtest/gtest.h>

#include <cstring>

namespace warpsim::runtime {
namespace {

ir::Param param(const char* name, ir::Type type, uint32_t size, uint32_t offset) {
  ir::Param p;
  p.name = name;
  p.type = type;
  p.size = size;
  p.align = size;
  p.offset = offset;
  return p;
}

// k(.u64 ptr, .f32 alpha, .s32 n, .b8 blob[12] (align 4), .f64 beta)
ir::Function sampleKernel() {
  ir::Function f;
  f.name = "k";
  f.isEntry = true;
  f.params = {param("ptr", ir::Type::U64, 8, 0), param("alpha", ir::Type::F32, 4, 8),
              param("n", ir::Type::S32, 4, 12), param("blob", ir::Type::B8, 12, 16),
              param("beta", ir::Type::F64, 8, 32)};
  f.kernelParamBytes = 40;
  return f;
}

struct Blob {
  int32_t a, b, c;
};

TEST(KernelArgs, PacksEachValueAtItsOffset) {
  ir::Function f = sampleKernel();
  std::vector<uint8_t> buf =
      packArgs(f, uint64_t{0x1122334455667788ull}, 1.5f, -7, Blob{1, 2, 3}, 0.25);
  ASSERT_EQ(buf.size(), 40u);
  uint64_t ptr;
  float alpha;
  int32_t n;
  Blob blob;
  double beta;
  std::memcpy(&ptr, buf.data() + 0, 8);
  std::memcpy(&alpha, buf.data() + 8, 4);
  std::memcpy(&n, buf.data() + 12, 4);
  std::memcpy(&blob, buf.data() + 16, 12);
  std::memcpy(&beta, buf.data() + 32, 8);
  EXPECT_EQ(ptr, 0x1122334455667788ull);
  EXPECT_EQ(alpha, 1.5f);
  EXPECT_EQ(n, -7);
  EXPECT_EQ(blob.c, 3);
  EXPECT_EQ(beta, 0.25);
  // Padding (bytes 28..31) stays zero.
  EXPECT_EQ(buf[28] | buf[29] | buf[30] | buf[31], 0);
}

TEST(KernelArgs, UnsignedAndSignedIntegersBothFitIntegerParams) {
  ir::Function f;
  f.name = "k";
  f.params = {param("a", ir::Type::U32, 4, 0), param("b", ir::Type::B32, 4, 4)};
  f.kernelParamBytes = 8;
  EXPECT_NO_THROW(packArgs(f, -1, 1u));
  EXPECT_NO_THROW(packArgs(f, 1u, 2.0f));  // .b32 takes any 4-byte value
}

TEST(KernelArgs, MismatchesAreOneLineErrorsNamingKernelAndArgument) {
  ir::Function f = sampleKernel();
  auto message = [&](auto&&... args) -> std::string {
    try {
      packArgs(f, args...);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(uint64_t{1}, 1.5f), "kernel 'k': takes 5 arguments, given 2");
  EXPECT_EQ(message(uint64_t{1}, 1.5f, 1, Blob{}, 1.0, 7), "kernel 'k': takes 5 arguments, given more");
  EXPECT_EQ(message(1, 1.5f, 1, Blob{}, 1.0), "kernel 'k': argument 1 (ptr) is 8 bytes, given 4 bytes");
  EXPECT_EQ(message(uint64_t{1}, 1.5, 1, Blob{}, 1.0),
            "kernel 'k': argument 2 (alpha) is 4 bytes, given 8 bytes");
  EXPECT_EQ(message(uint64_t{1}, 1, 1, Blob{}, 1.0),
            "kernel 'k': argument 2 (alpha) is floating-point, given an integer");
  EXPECT_EQ(message(uint64_t{1}, 1.5f, 1.0f, Blob{}, 1.0),
            "kernel 'k': argument 3 (n) is an integer, given a floating-point value");
  EXPECT_EQ(message(uint64_t{1}, 1.5f, 1, uint64_t{1}, 1.0),
            "kernel 'k': argument 4 (blob) is 12 bytes, given 8 bytes");
}

TEST(KernelArgs, KernelWithoutParameters) {
  ir::Function f;
  f.name = "empty";
  EXPECT_TRUE(packArgs(f).empty());
  try {
    packArgs(f, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel 'empty': takes 0 arguments, given more");
  }
}

}  // namespace
}  // namespace warpsim::runtime
