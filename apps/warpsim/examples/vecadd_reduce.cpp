// Default example: c = a + b and y = alpha * x + y on float vectors, then the sum of an integer
// vector by warp-shuffle reduction passes (block sums, then sums of those, down to one value).
#include <fmt/format.h>

#include "bundled_ptx.h"
#include "examples/example.h"
#include "examples/input.h"

namespace warpsim::app {

namespace {

constexpr uint32_t kBlock = 256;

uint32_t blocksFor(uint64_t n) { return static_cast<uint32_t>((n + kBlock - 1) / kBlock); }

ExampleOutcome run(ExampleContext& ctx) {
  runtime::Device& gpu = ctx.device;
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);

  // Dyadic inputs (k / 256): every sum and product below is exact in float.
  std::vector<float> a(n), b(n), x(n), y(n);
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) {
    a[i] = gen.dyadic(-4096, 4096, 8);
    b[i] = gen.dyadic(-4096, 4096, 8);
    x[i] = gen.dyadic(-256, 256, 4);
    y[i] = gen.dyadic(-256, 256, 4);
    v[i] = static_cast<int>(gen.uniform(-1000, 1000));
  }
  const float alpha = 1.5f;

  runtime::Module vec = gpu.loadModule(bundledPtx("vector_add"), "vector_add.ptx");
  runtime::Module red = gpu.loadModule(bundledPtx("reduction"), "reduction.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.malloc(n * sizeof(float));
  uint64_t dX = gpu.upload(x), dY = gpu.upload(y), dV = gpu.upload(v);
  uint32_t blocks = blocksFor(n);

  ctx.reports.push_back(gpu.launch(vec.kernel("vector_add"), {blocks}, {kBlock}, 0, dA, dB, dC, n));
  // saxpy strides over the vector with a quarter of the threads.
  ctx.reports.push_back(
      gpu.launch(vec.kernel("saxpy"), {std::max(1u, blocks / 4)}, {kBlock}, 0, n, alpha, dX, dY));
  // Sum by passes: each pass leaves one partial sum per block, until one value is left.
  runtime::Kernel reduce = red.kernel("reduce_shuffle");
  uint64_t src = dV;
  int count = n;
  while (true) {
    uint32_t passBlocks = blocksFor(static_cast<uint64_t>(count));
    uint64_t dst = gpu.malloc(passBlocks * sizeof(int));
    ctx.reports.push_back(gpu.launch(reduce, {passBlocks}, {kBlock}, 0, src, dst, count));
    src = dst;
    count = static_cast<int>(passBlocks);
    if (count == 1) break;
  }
  uint64_t dTotal = src;

  std::vector<float> c = gpu.download<float>(dC, n), yOut = gpu.download<float>(dY, n);
  int total = gpu.download<int>(dTotal, 1)[0];

  for (int i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      return {false, fmt::format("vector_add: c[{}] = {} expected {}", i, c[i], a[i] + b[i])};
    }
    float expect = alpha * x[i] + y[i];
    if (yOut[i] != expect) {
      return {false, fmt::format("saxpy: y[{}] = {} expected {}", i, yOut[i], expect)};
    }
  }
  // The device adds 32-bit integers, wrapping modulo 2^32 (only reachable at huge sizes).
  uint32_t expectBits = 0;
  for (int e : v) expectBits += static_cast<uint32_t>(e);
  int expectTotal = static_cast<int>(expectBits);
  if (total != expectTotal) {
    return {false, fmt::format("reduce_shuffle: sum = {} expected {}", total, expectTotal)};
  }
  return {true, fmt::format("{} elements: vector_add and saxpy exact, sum = {}", n, total)};
}

}  // namespace

void registerVecaddReduce(ExampleRegistry& r) {
  r.add({"vecadd-reduce",
         "c = a + b, y = alpha*x + y, and a multi-pass warp-shuffle sum (vector_add.ptx, "
         "reduction.ptx)",
         1u << 20, 1u << 28, "elements", run});
}

}  // namespace warpsim::app
