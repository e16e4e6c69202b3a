// Device printf: vprintf calls from divergent code through a real argument buffer, and the
// formatter on its own for the remaining conversions, flags and errors.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include <fmt/format.h>

#include "func/printf_format.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// `.global .align 1 .b8 name[N] = {...};` holding `text` and its terminating NUL.
std::string ptxString(const std::string& name, const std::string& text) {
  std::string s = fmt::format(".global .align 1 .b8 {}[{}] = {{", name, text.size() + 1);
  for (unsigned char c : text) s += fmt::format("{}, ", static_cast<int>(c));
  return s + "0};\n";
}

TEST(Printf, FormatsEveryLaneInOrder) {
  const std::string text = ptxModule(R"(
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
)" + ptxString("fmtstr", "t=%d v=%6.2f s=%s c=%c x=%#x ll=%lld u=%u%%\n") +
                                       ptxString("word", "hi") + ptxString("plain", "no args\n") + R"(
.visible .entry pr()
{
  .local .align 8 .b8 __local_depot0[48];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .f64 %fd<3>;
  .reg .b64 %rd<10>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  setp.gt.u32 %p2, %r1, 6;
  @%p2 bra DONE;
  add.u64 %rd1, %SP, 0;
  add.u64 %rd2, %SPL, 0;
  st.local.u32 [%rd2], %r1;
  cvt.rn.f64.u32 %fd1, %r1;
  mul.f64 %fd2, %fd1, 0d3FF4000000000000;
  st.local.f64 [%rd2+8], %fd2;
  mov.u64 %rd3, word;
  cvta.global.u64 %rd4, %rd3;
  st.local.u64 [%rd2+16], %rd4;
  add.u32 %r3, %r1, 65;
  st.local.u32 [%rd2+24], %r3;
  mul.lo.u32 %r4, %r1, 255;
  st.local.u32 [%rd2+28], %r4;
  cvt.s64.s32 %rd5, %r1;
  neg.s64 %rd5, %rd5;
  mul.lo.s64 %rd5, %rd5, 10000000000;
  st.local.u64 [%rd2+32], %rd5;
  mov.u32 %r5, 4000000000;
  st.local.u32 [%rd2+40], %r5;
  mov.u64 %rd6, fmtstr;
  cvta.global.u64 %rd7, %rd6;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd7;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd1;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r6, [retval0+0];
  }
DONE:
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  mov.u64 %rd8, plain;
  cvta.global.u64 %rd9, %rd8;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd9;
  .param .b64 param1;
  st.param.b64 [param1+0], 0;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r7, [retval0+0];
  }
END:
  ret;
}
)");
  KernelRunner r(text);
  LaunchResult res = r.launch("pr", {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(r.printed.str(),
            "t=1 v=  1.25 s=hi c=B x=0xff ll=-10000000000 u=4000000000%\n"
            "t=2 v=  2.50 s=hi c=C x=0x1fe ll=-20000000000 u=4000000000%\n"
            "t=3 v=  3.75 s=hi c=D x=0x2fd ll=-30000000000 u=4000000000%\n"
            "t=5 v=  6.25 s=hi c=F x=0x4fb ll=-50000000000 u=4000000000%\n"
            "t=6 v=  7.50 s=hi c=G x=0x5fa ll=-60000000000 u=4000000000%\n"
            "no args\n");
}

// A packed argument buffer built like the compiler's: each value aligned to its size.
struct ArgBuffer {
  std::vector<uint8_t> bytes;
  std::map<uint64_t, std::string> strings;  // generic address -> text
  template <class T>
  ArgBuffer& add(T v) {
    size_t off = (bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes.resize(off + sizeof(T));
    std::memcpy(bytes.data() + off, &v, sizeof(T));
    return *this;
  }
  PrintfSource source() const {
    PrintfSource s;
    s.readArg = [this](uint64_t off, void* dst, unsigned n) {
      if (off + n > bytes.size()) return false;
      std::memcpy(dst, bytes.data() + off, n);
      return true;
    };
    s.readString = [this](uint64_t addr, std::string& out) {
      auto it = strings.find(addr);
      if (it == strings.end()) return false;
      out = it->second;
      return true;
    };
    return s;
  }
};

std::string format(const std::string& fmtText, const ArgBuffer& args, int* consumed = nullptr) {
  std::string out, error;
  int n = formatPrintf(fmtText, args.source(), &out, &error);
  if (consumed) *consumed = n;
  return n < 0 ? "error: " + error : out;
}

TEST(Printf, ConversionsFlagsWidthsAndLengths) {
  ArgBuffer a;
  a.add<int32_t>(-42).add<uint32_t>(8).add<uint32_t>(0xBEEF).add<double>(12345.678).add<double>(0.0001234);
  a.add<uint64_t>(0x7f0000001000ull).add<int64_t>(-5).add<uint64_t>(18446744073709551615ull).add<int32_t>(7);
  a.add<int32_t>(3).add<int32_t>(3).add<double>(3.14159);
  int n = 0;
  EXPECT_EQ(format("[%+5i|%-4o|%08X|%.2e|%g|%p|%ld|%llu|%*d|%.*f]", a, &n),
            "[  -42|10  |0000BEEF|1.23e+04|0.0001234|0x7f0000001000|-5|18446744073709551615|      3|3.142]");
  EXPECT_EQ(n, 12);  // * width and precision consume arguments too
}

TEST(Printf, StringsNullsAndCharacters) {
  ArgBuffer a;
  a.strings[0x7f0000000010] = "device";
  a.add<uint64_t>(0x7f0000000010).add<uint64_t>(0).add<int32_t>('z');
  EXPECT_EQ(format("%-8s|%s|%c%%", a), "device  |(null)|z%");
}

TEST(Printf, ErrorsNameTheProblem) {
  ArgBuffer a;
  a.add<int32_t>(1);
  EXPECT_EQ(format("%d %d", a), "error: printf argument 2 (offset 4 in the argument buffer) is not readable");
  EXPECT_EQ(format("%k", a), "error: unsupported printf conversion '%k'");
  EXPECT_EQ(format("abc %", a), "error: printf format '%' ends inside a conversion");
  ArgBuffer s;
  s.add<uint64_t>(0x1234);
  EXPECT_EQ(format("%s", s), "error: printf %s argument 1 points to unreadable memory at 0x1234");
  int n = -7;
  EXPECT_EQ(format("plain 100%% text", ArgBuffer{}, &n), "plain 100% text");
  EXPECT_EQ(n, 0);
}

}  // namespace
}  // namespace warpsim::func
