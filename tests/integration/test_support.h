// Shared helpers of the integration tests: where the test PTX is, a Device set up for tests,
// deterministic input, ULP distances and running the warpsim binary.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "workloads/input.h"
#include "runtime/device.h"

namespace warpsim::test {

using workloads::InputGenerator;

inline std::string sourceDir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir != nullptr && *dir != '\0' ? dir : WARPSIM_SOURCE_DIR_DEFAULT;
}

// Path of tests/cuda/<name>.ptx.
inline std::string cudaPtx(const std::string& name) {
  return sourceDir() + "/tests/cuda/" + name + ".ptx";
}

// Tests estimate resources (no ptxas run per module) unless they test ptxas itself.
inline runtime::DeviceOptions testOptions() {
  runtime::DeviceOptions o;
  o.mode = "functional";  // these tests are about the engine; tests/timing covers timing mode
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  return o;
}

inline uint32_t blocksFor(uint64_t n, uint32_t block) {
  return static_cast<uint32_t>((n + block - 1) / block);
}

// The host images of CUDA's float2 and float4 kernel arguments and array elements.
struct alignas(8) Float2 {
  float x, y;
};
struct alignas(16) Float4 {
  float x, y, z, w;
};

// Distance in units in the last place between two finite values of the same sign class
// (ordered-integer mapping of IEEE bit patterns).
inline uint64_t ulpDistance(float a, float b) {
  auto key = [](float f) {
    int32_t i = std::bit_cast<int32_t>(f);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  int64_t d = key(a) - key(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}
inline uint64_t ulpDistance(double a, double b) {
  auto key = [](double f) {
    int64_t i = std::bit_cast<int64_t>(f);
    return i < 0 ? static_cast<__int128>(INT64_MIN) - i : static_cast<__int128>(i);
  };
  __int128 d = key(a) - key(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

struct CliResult {
  int exitCode = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs the built warpsim binary with `args` (each passed as one shell word).
CliResult runCli(const std::vector<std::string>& args);

// True when `s` contains `part`.
inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A failed command: non-zero exit and exactly one line on stderr containing `part`.
inline void expectOneLineError(const CliResult& r, const std::string& part) {
  EXPECT_NE(r.exitCode, 0);
  ASSERT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

// Lines of `text` (without the newline characters; a trailing newline ends the last line).
std::vector<std::string> lines(const std::string& text);

// A file named `name` holding `text` in a fresh temporary directory, removed with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

}  // namespace warpsim::test
